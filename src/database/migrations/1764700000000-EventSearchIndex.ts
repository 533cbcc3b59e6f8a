import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from '../migration-helpers';

/**
 * A full-text index over what the events list's `search` reads, on MySQL/MariaDB: a search is
 * counted from the index instead of by reading every event of the window (seconds at a million
 * events). SQLite keeps the plain search (no index; its databases are small).
 */
export class EventSearchIndex1764700000000 implements MigrationInterface {
  name = 'EventSearchIndex1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query('ALTER TABLE `events` ADD FULLTEXT INDEX `FTX_events_search` (`title`, `description`, `excerpt`)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query('ALTER TABLE `events` DROP INDEX `FTX_events_search`');
  }
}
