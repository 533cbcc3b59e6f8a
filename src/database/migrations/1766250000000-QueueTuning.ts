import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from '../migration-helpers';

/**
 * Waiting rooms' tuning (src/queues, docs/waiting-room.md): the `auto` admission rate the ticker
 * follows (`queues.auto_rate`), the proof-of-work a join must show (`queues.challenge_bits`), when an
 * admission last checked out (the measured checkout rate) and the admission time predicted to an
 * entry (the ETA's error).
 */
export class QueueTuning1766250000000 implements MigrationInterface {
  name = 'QueueTuning1766250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const datetime = isMysql(queryRunner) ? 'datetime(3)' : 'datetime';
    // ALTER TABLE itself rather than TypeORM's addColumn, which rebuilds a SQLite table.
    await queryRunner.query('ALTER TABLE queues ADD COLUMN auto_rate int NULL');
    await queryRunner.query('ALTER TABLE queues ADD COLUMN challenge_bits int NOT NULL DEFAULT 0');
    await queryRunner.query(`ALTER TABLE queue_admissions ADD COLUMN last_checkout_at ${datetime} NULL`);
    await queryRunner.query('CREATE INDEX IDX_queue_admissions_checkout ON queue_admissions (queue_id, last_checkout_at)');
    await queryRunner.query(`ALTER TABLE queue_entries ADD COLUMN eta_at ${datetime} NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE queue_entries DROP COLUMN eta_at');
    await queryRunner.query(
      isMysql(queryRunner) ? 'DROP INDEX IDX_queue_admissions_checkout ON queue_admissions' : 'DROP INDEX IDX_queue_admissions_checkout',
    );
    await queryRunner.query('ALTER TABLE queue_admissions DROP COLUMN last_checkout_at');
    await queryRunner.query('ALTER TABLE queues DROP COLUMN challenge_bits');
    await queryRunner.query('ALTER TABLE queues DROP COLUMN auto_rate');
  }
}
