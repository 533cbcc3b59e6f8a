import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, dropColumns } from '../migration-helpers';

/**
 * A random part of each payment's idempotency keys at its provider: keys made of the order id and
 * the second it was placed in collided between databases (a new database, or a second deployment on
 * the same provider account) whose orders of the same id were placed in the same second.
 */
export class PaymentKeyNonce1766400000000 implements MigrationInterface {
  name = 'PaymentKeyNonce1766400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumns(queryRunner, 'payments', ['key_nonce varchar(24) NULL']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropColumns(queryRunner, 'payments', ['key_nonce']);
  }
}
