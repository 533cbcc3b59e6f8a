import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { createPortableTable, idColumn, timestampColumns } from '../migration-helpers';

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
    await queryRunner.addColumn('carts', new TableColumn({ name: 'coupon_id', type: 'int', isNullable: true }));
    await queryRunner.addColumns('orders', [
      new TableColumn({ name: 'coupon_id', type: 'int', isNullable: true }),
      new TableColumn({ name: 'coupon_code', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'coupon_uses', type: 'int', default: 0 }),
      new TableColumn({ name: 'discount', type: 'decimal', precision: 12, scale: 2, default: 0 }),
    ]);
    await queryRunner.addColumns('attendees', [
      new TableColumn({ name: 'coupon_code', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'discount', type: 'decimal', precision: 12, scale: 2, default: 0 }),
    ]);
    await queryRunner.addColumn('tickets', new TableColumn({ name: 'hidden_without_coupon', type: 'boolean', default: false }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tickets', 'hidden_without_coupon');
    await queryRunner.dropColumns('attendees', ['coupon_code', 'discount']);
    await queryRunner.dropColumns('orders', ['coupon_id', 'coupon_code', 'coupon_uses', 'discount']);
    await queryRunner.dropColumn('carts', 'coupon_id');
    await queryRunner.dropTable('coupons', true);
  }
}
