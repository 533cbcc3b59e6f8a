import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, timestampColumns } from '../migration-helpers';

/** API tokens with scopes (src/auth/api-token.entity.ts, docs/tokens.md). */
export class ApiTokens1766300000000 implements MigrationInterface {
  name = 'ApiTokens1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'api_tokens',
        columns: [
          idColumn,
          { name: 'user_id', type: 'int' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'prefix', type: 'varchar', length: '16' },
          { name: 'secret_hash', type: 'varchar', length: '64' },
          { name: 'scopes', type: 'varchar', length: '1000' },
          { name: 'preset', type: 'varchar', length: '32', isNullable: true },
          { name: 'limit_events', type: 'varchar', length: '2000', isNullable: true },
          { name: 'pii', type: 'varchar', length: '8' },
          { name: 'expires_at', type: 'datetime', isNullable: true },
          { name: 'allowed_ips', type: 'varchar', length: '2000', isNullable: true },
          { name: 'last_used_at', type: 'datetime', isNullable: true },
          { name: 'revoked_at', type: 'datetime', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_api_tokens_prefix', columnNames: ['prefix'], isUnique: true },
          { name: 'IDX_api_tokens_user', columnNames: ['user_id'] },
        ],
        foreignKeys: [
          {
            name: 'FK_api_tokens_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_tokens');
  }
}
