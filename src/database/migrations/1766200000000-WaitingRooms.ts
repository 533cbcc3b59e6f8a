import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, isMysql } from '../migration-helpers';

/**
 * Waiting rooms for on-sales (src/queues, docs/waiting-room.md): the queues with their serving
 * counter, the entries (one per client-made request id) and the admissions issued to them.
 */
export class WaitingRooms1766200000000 implements MigrationInterface {
  name = 'WaitingRooms1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const precision = isMysql(queryRunner) ? 3 : undefined;
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'queues',
        columns: [
          idColumn,
          { name: 'event_id', type: 'int' },
          { name: 'ticket_ids', type: 'varchar', length: '2000', isNullable: true },
          { name: 'prequeue_opens_at', type: 'datetime', precision, isNullable: true },
          { name: 'opens_at', type: 'datetime', precision },
          { name: 'closes_at', type: 'datetime', precision, isNullable: true },
          { name: 'max_active', type: 'int' },
          { name: 'max_admit_per_minute', type: 'int', isNullable: true },
          { name: 'admission_minutes', type: 'int' },
          { name: 'units_per_admission', type: 'int' },
          { name: 'queue_all', type: 'boolean' },
          { name: 'paused', type: 'boolean' },
          { name: 'shuffle_seed', type: 'varchar', length: '64' },
          { name: 'opened_at', type: 'datetime', precision, isNullable: true },
          { name: 'last_position', type: 'int' },
          { name: 'serving_counter', type: 'int' },
          { name: 'counter_at', type: 'datetime', precision, isNullable: true },
          { name: 'counter_version', type: 'int' },
          { name: 'rate_samples', type: 'varchar', length: '4000' },
          { name: 'joined_count', type: 'int' },
          { name: 'closed_at', type: 'datetime', precision, isNullable: true },
          { name: 'closed_reason', type: 'varchar', length: '16', isNullable: true },
          { name: 'created_at', type: 'datetime', precision },
          { name: 'updated_at', type: 'datetime', precision },
        ],
        indices: [
          { name: 'IDX_queues_event', columnNames: ['event_id'] },
          { name: 'IDX_queues_closed', columnNames: ['closed_at'] },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'queue_entries',
        columns: [
          idColumn,
          { name: 'queue_id', type: 'int' },
          { name: 'request_id', type: 'varchar', length: '64' },
          { name: 'secret_hash', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'position', type: 'int', isNullable: true },
          { name: 'client_address', type: 'varchar', length: '64', isNullable: true },
          { name: 'user_id', type: 'int', isNullable: true },
          { name: 'joined_at', type: 'datetime', precision },
          { name: 'admitted_at', type: 'datetime', precision, isNullable: true },
          { name: 'finished_at', type: 'datetime', precision, isNullable: true },
        ],
        indices: [
          { name: 'UQ_queue_entries_request', columnNames: ['queue_id', 'request_id'], isUnique: true },
          { name: 'UQ_queue_entries_position', columnNames: ['queue_id', 'position'], isUnique: true },
          { name: 'IDX_queue_entries_status', columnNames: ['queue_id', 'status', 'admitted_at'] },
          { name: 'IDX_queue_entries_address', columnNames: ['queue_id', 'client_address'] },
          { name: 'IDX_queue_entries_user', columnNames: ['queue_id', 'user_id'] },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'queue_admissions',
        columns: [
          { name: 'jti', type: 'varchar', length: '32', isPrimary: true },
          { name: 'queue_id', type: 'int' },
          { name: 'entry_id', type: 'int' },
          { name: 'issued_at', type: 'datetime', precision },
          { name: 'expires_at', type: 'datetime', precision },
          { name: 'unit_limit', type: 'int' },
          { name: 'units_used', type: 'int' },
          { name: 'revoked_at', type: 'datetime', precision, isNullable: true },
        ],
        indices: [
          { name: 'UQ_queue_admissions_entry', columnNames: ['entry_id'], isUnique: true },
          { name: 'IDX_queue_admissions_queue', columnNames: ['queue_id', 'issued_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('queue_admissions', true);
    await queryRunner.dropTable('queue_entries', true);
    await queryRunner.dropTable('queues', true);
  }
}
