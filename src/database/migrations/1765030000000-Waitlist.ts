import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, isMysql } from '../migration-helpers';

/**
 * The waitlist (src/waitlist): its entries, the tickets' switches (`waitlist`, `waitlist_auto_offer`)
 * and the offer a cart line redeems at checkout (`cart_items.waitlist_offer`).
 */
export class Waitlist1765030000000 implements MigrationInterface {
  name = 'Waitlist1765030000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const precision = isMysql(queryRunner) ? 3 : undefined;
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'waitlist_entries',
        columns: [
          idColumn,
          { name: 'ticket_id', type: 'int' },
          { name: 'event_id', type: 'int' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'email', type: 'varchar', length: '191' },
          { name: 'live_email', type: 'varchar', length: '191', isNullable: true },
          { name: 'quantity', type: 'int' },
          { name: 'priority', type: 'int', default: 0 },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'cancel_token', type: 'varchar', length: '64' },
          { name: 'offer_token', type: 'varchar', length: '64', isNullable: true },
          { name: 'offer_quantity', type: 'int', isNullable: true },
          { name: 'offered_at', type: 'datetime', precision, isNullable: true },
          { name: 'offer_expires_at', type: 'datetime', precision, isNullable: true },
          { name: 'order_id', type: 'int', isNullable: true },
          { name: 'created_at', type: 'datetime', precision },
          { name: 'updated_at', type: 'datetime', precision },
        ],
        indices: [
          { name: 'IDX_waitlist_queue', columnNames: ['ticket_id', 'status', 'priority', 'id'] },
          { name: 'IDX_waitlist_offer_due', columnNames: ['status', 'offer_expires_at'] },
          { name: 'UQ_waitlist_live_email', columnNames: ['ticket_id', 'live_email'], isUnique: true },
          { name: 'UQ_waitlist_cancel_token', columnNames: ['cancel_token'], isUnique: true },
          { name: 'UQ_waitlist_offer_token', columnNames: ['offer_token'], isUnique: true },
        ],
      }),
    );
    // ALTER TABLE itself: TypeORM rebuilds a SQLite table to add a column, which drops its triggers
    // (the tickets' document-version triggers, 1764910000000-EventDocumentVersions).
    await queryRunner.query('ALTER TABLE tickets ADD COLUMN waitlist boolean NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE tickets ADD COLUMN waitlist_auto_offer boolean NOT NULL DEFAULT 1');
    await queryRunner.query('ALTER TABLE cart_items ADD COLUMN waitlist_offer varchar(64) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE cart_items DROP COLUMN waitlist_offer');
    await queryRunner.query('ALTER TABLE tickets DROP COLUMN waitlist_auto_offer');
    await queryRunner.query('ALTER TABLE tickets DROP COLUMN waitlist');
    await queryRunner.dropTable('waitlist_entries', true);
  }
}
