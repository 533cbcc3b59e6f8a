import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, timestampColumns } from '../migration-helpers';

export class CreateUsers1764000000000 implements MigrationInterface {
  name = 'CreateUsers1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'users',
        columns: [
          idColumn,
          { name: 'login', type: 'varchar', length: '60', isNullable: false },
          { name: 'email', type: 'varchar', length: '100', isNullable: true },
          { name: 'display_name', type: 'varchar', length: '250', isNullable: false, default: "''" },
          { name: 'role', type: 'varchar', length: '20', isNullable: false },
          { name: 'password_hash', type: 'varchar', length: '255', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [{ name: 'UQ_users_login', columnNames: ['login'], isUnique: true }],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'application_passwords',
        columns: [
          idColumn,
          { name: 'user_id', type: 'int', isNullable: false },
          { name: 'uuid', type: 'varchar', length: '36', isNullable: false },
          { name: 'name', type: 'varchar', length: '100', isNullable: false },
          { name: 'password_hash', type: 'varchar', length: '64', isNullable: false },
          { name: 'last_used_at', type: 'datetime', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_application_passwords_uuid', columnNames: ['uuid'], isUnique: true },
          { name: 'IDX_application_passwords_user', columnNames: ['user_id'] },
        ],
        foreignKeys: [
          {
            name: 'FK_application_passwords_user',
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
    await queryRunner.dropTable('application_passwords', true);
    await queryRunner.dropTable('users', true);
  }
}
