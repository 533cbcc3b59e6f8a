import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, isMysql, timestampColumns } from '../migration-helpers';

/**
 * Payments taken through a provider (src/payments): one row per paid order, the refunds made
 * through it, and the provider's webhook events already processed (a unique key, so each once).
 */
export class CreatePayments1765020000000 implements MigrationInterface {
  name = 'CreatePayments1765020000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const precision = isMysql(queryRunner) ? 3 : undefined;
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'payments',
        columns: [
          idColumn,
          { name: 'order_id', type: 'int' },
          { name: 'provider', type: 'varchar', length: '20' },
          { name: 'intent_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'client_secret', type: 'varchar', length: '255', isNullable: true },
          { name: 'amount_minor', type: 'int' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'status', type: 'varchar', length: '32' },
          { name: 'refunded_minor', type: 'int', default: 0 },
          { name: 'failure_message', type: 'varchar', length: '500', isNullable: true },
          { name: 'pending_action', type: 'varchar', length: '16', isNullable: true },
          { name: 'action_attempts', type: 'int', default: 0 },
          { name: 'next_action_at', type: 'datetime', precision, isNullable: true },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_payments_order', columnNames: ['order_id'], isUnique: true },
          { name: 'UQ_payments_intent', columnNames: ['intent_id'], isUnique: true },
          { name: 'IDX_payments_action_due', columnNames: ['pending_action', 'next_action_at'] },
        ],
        foreignKeys: [{ columnNames: ['order_id'], referencedTableName: 'orders', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'payment_refunds',
        columns: [
          { name: 'id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'payment_id', type: 'int' },
          { name: 'amount_minor', type: 'int' },
          { name: 'status', type: 'varchar', length: '32' },
          { name: 'reason', type: 'varchar', length: '32' },
          { name: 'created_at', type: 'datetime', precision },
        ],
        indices: [{ name: 'IDX_payment_refunds_payment', columnNames: ['payment_id'] }],
        foreignKeys: [{ columnNames: ['payment_id'], referencedTableName: 'payments', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'payment_provider_events',
        columns: [
          { name: 'provider', type: 'varchar', length: '20', isPrimary: true },
          { name: 'event_id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'type', type: 'varchar', length: '64' },
          { name: 'received_at', type: 'datetime', precision },
        ],
        indices: [{ name: 'IDX_payment_provider_events_received', columnNames: ['received_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('payment_provider_events', true);
    await queryRunner.dropTable('payment_refunds', true);
    await queryRunner.dropTable('payments', true);
  }
}
