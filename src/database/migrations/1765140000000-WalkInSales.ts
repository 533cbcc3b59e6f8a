import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, dropColumns } from '../migration-helpers';

/**
 * Walk-in sales at the door (docs/checkin.md, "Selling at the door"): a check-in list's devices and
 * door staff may sell when its `allow_sales` is on (off for every existing list), and every order
 * records how it was paid: `online` for the web checkout (every existing order), `cash`,
 * `card_terminal` or `free` for sales at the door. Added without rebuilding the tables (the orders
 * table carries the sales ledger's triggers).
 */
export class WalkInSales1765140000000 implements MigrationInterface {
  name = 'WalkInSales1765140000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumns(queryRunner, 'checkin_lists', ['allow_sales boolean NOT NULL DEFAULT 0']);
    await addColumns(queryRunner, 'orders', ["payment_method varchar(20) NOT NULL DEFAULT 'online'"]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropColumns(queryRunner, 'orders', ['payment_method']);
    await dropColumns(queryRunner, 'checkin_lists', ['allow_sales']);
  }
}
