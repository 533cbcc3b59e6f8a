import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { addColumns, createPortableTable, dropColumns, idColumn, isMysql, timestampColumns } from '../migration-helpers';

/**
 * Coupons and access codes (docs/coupons.md): the `coupons` table, the cart's chosen coupon, what
 * an order and its attendees got from one, and the tickets sold only with a revealing code.
 * `uses` counts ticket units; checkout takes them with a conditional UPDATE on this row.
 */
export class CreateCoupons1765010000000 implements MigrationInterface {
  name = 'CreateCoupons1765010000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'coupons',
        columns: [
          idColumn,
          { name: 'code', type: 'varchar', length: '64' },
          { name: 'code_key', type: 'varchar', length: '64' },
          { name: 'author_id', type: 'int' },
          { name: 'event_id', type: 'int', isNullable: true },
          { name: 'ticket_ids', type: 'text', isNullable: true },
          { name: 'discount_type', type: 'varchar', length: '10' },
          { name: 'amount', type: 'int', default: 0 },
          { name: 'max_uses', type: 'int', isNullable: true },
          { name: 'uses', type: 'int', default: 0 },
          { name: 'starts_at', type: 'datetime', isNullable: true },
          { name: 'ends_at', type: 'datetime', isNullable: true },
          { name: 'reveals_hidden', type: 'boolean', default: false },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_coupons_code_key', columnNames: ['code_key'], isUnique: true },
          { name: 'IDX_coupons_author', columnNames: ['author_id', 'id'] },
          { name: 'IDX_coupons_event', columnNames: ['event_id', 'id'] },
        ],
      }),
    );
    // ALTER TABLE ... ADD COLUMN on both dialects: TypeORM's addColumn rebuilds a SQLite table,
    // which drops its triggers (the attendee tally, the event document versions).
    await addColumns(queryRunner, 'carts', ['coupon_id int NULL']);
    await addColumns(queryRunner, 'orders', [
      'coupon_id int NULL',
      'coupon_code varchar(64) NULL',
      'coupon_uses int NOT NULL DEFAULT 0',
      'discount decimal(12,2) NOT NULL DEFAULT 0',
    ]);
    await addColumns(queryRunner, 'attendees', ['coupon_code varchar(64) NULL', 'discount decimal(12,2) NOT NULL DEFAULT 0']);
    await addColumns(queryRunner, 'tickets', [`hidden_without_coupon ${isMysql(queryRunner) ? 'tinyint' : 'boolean'} NOT NULL DEFAULT 0`]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropColumns(queryRunner, 'tickets', ['hidden_without_coupon']);
    await dropColumns(queryRunner, 'attendees', ['coupon_code', 'discount']);
    await dropColumns(queryRunner, 'orders', ['coupon_id', 'coupon_code', 'coupon_uses', 'discount']);
    await dropColumns(queryRunner, 'carts', ['coupon_id']);
    await queryRunner.dropTable('coupons', true);
  }
}
