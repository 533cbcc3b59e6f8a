import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, isMysql } from '../migration-helpers';

/** The transactional outbox (src/outbox) and the webhook endpoints it delivers to (src/webhooks). */
export class CreateOutbox1764870000000 implements MigrationInterface {
  name = 'CreateOutbox1764870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const precision = isMysql(queryRunner) ? 3 : undefined;
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'outbox_messages',
        columns: [
          idColumn,
          { name: 'channel', type: 'varchar', length: '16' },
          { name: 'type', type: 'varchar', length: '64' },
          { name: 'payload', type: 'text' },
          { name: 'recipient', type: 'varchar', length: '255', isNullable: true },
          { name: 'endpoint_id', type: 'int', isNullable: true },
          { name: 'message_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'status', type: 'varchar', length: '16', default: "'pending'" },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'next_attempt_at', type: 'datetime', precision },
          { name: 'claim_token', type: 'varchar', length: '36', isNullable: true },
          { name: 'last_error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'response_status', type: 'int', isNullable: true },
          { name: 'created_at', type: 'datetime', precision },
          { name: 'delivered_at', type: 'datetime', precision, isNullable: true },
        ],
        indices: [
          { name: 'IDX_outbox_due', columnNames: ['status', 'next_attempt_at'] },
          { name: 'IDX_outbox_endpoint', columnNames: ['endpoint_id', 'id'] },
          { name: 'IDX_outbox_created', columnNames: ['created_at'] },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'webhook_endpoints',
        columns: [
          idColumn,
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'description', type: 'varchar', length: '255', default: "''" },
          { name: 'event_types', type: 'text', isNullable: true },
          { name: 'secret', type: 'varchar', length: '128' },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'disabled_reason', type: 'varchar', length: '255', isNullable: true },
          { name: 'created_at', type: 'datetime', precision },
          { name: 'updated_at', type: 'datetime', precision },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_endpoints', true);
    await queryRunner.dropTable('outbox_messages', true);
  }
}
