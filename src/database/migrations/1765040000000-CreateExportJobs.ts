import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, isMysql, timestampColumns } from '../migration-helpers';

/**
 * `export_jobs`: asynchronous exports (src/exports), claimed by one worker with a conditional
 * update; `export_chunks`: the finished file in pieces of at most 1 MiB, so that any instance can
 * serve the download and no piece comes near the server's packet limit. Chunks are deleted when
 * their job expires.
 */
export class CreateExportJobs1765040000000 implements MigrationInterface {
  name = 'CreateExportJobs1765040000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'export_jobs',
        columns: [
          idColumn,
          { name: 'kind', type: 'varchar', length: '20' },
          { name: 'format', type: 'varchar', length: '10' },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'user_id', type: 'int' },
          { name: 'query', type: 'text' },
          { name: 'claim_token', type: 'varchar', length: '36', isNullable: true },
          { name: 'claimed_at', type: 'datetime', isNullable: true },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'row_count', type: 'int', default: 0 },
          { name: 'size_bytes', type: 'bigint', default: 0 },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'completed_at', type: 'datetime', isNullable: true },
          { name: 'expires_at', type: 'datetime', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'IDX_export_jobs_status', columnNames: ['status', 'id'] },
          { name: 'IDX_export_jobs_expires', columnNames: ['status', 'expires_at'] },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'export_chunks',
        columns: [
          { name: 'job_id', type: 'int', isPrimary: true },
          { name: 'seq', type: 'int', isPrimary: true },
          { name: 'data', type: mysql ? 'mediumblob' : 'blob' },
        ],
        foreignKeys: [{ columnNames: ['job_id'], referencedTableName: 'export_jobs', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('export_chunks', true);
    await queryRunner.dropTable('export_jobs', true);
  }
}
