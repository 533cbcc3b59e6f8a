import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

const TERM_TABLES = [
  { table: 'event_categories', link: 'event_category_links', column: 'category_id' },
  { table: 'event_tags', link: 'event_tag_links', column: 'tag_id' },
];

/**
 * Each term keeps the number of published events linked to it, as the original keeps a term's
 * count: counting them on every read joined tens of thousands of links with their events per term
 * at a million events. The events service keeps the number up to date in the transaction of each
 * event write.
 */
export class StoredTermCounts1764600000000 implements MigrationInterface {
  name = 'StoredTermCounts1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, link, column } of TERM_TABLES) {
      await queryRunner.addColumn(table, new TableColumn({ name: 'published_event_count', type: 'int', isNullable: false, default: 0 }));
      await queryRunner.query(
        `UPDATE ${table} SET published_event_count = (SELECT COUNT(*) FROM ${link} l INNER JOIN events e ON e.id = l.event_id WHERE l.${column} = ${table}.id AND e.status = 'publish')`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of TERM_TABLES) await queryRunner.dropColumn(table, 'published_event_count');
  }
}
