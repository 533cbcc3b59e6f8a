import { QueryRunner, Table, TableColumnOptions } from 'typeorm';

/**
 * Creates a table the same way on SQLite and MySQL/MariaDB. On MySQL the table is forced to
 * utf8mb4, because a server's default character set may be latin1.
 */
export async function createPortableTable(queryRunner: QueryRunner, table: Table): Promise<void> {
  await queryRunner.createTable(table, true, true, true);
  if (isMysql(queryRunner)) {
    await queryRunner.query(`ALTER TABLE \`${table.name}\` ENGINE=InnoDB, CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  }
}

export const idColumn: TableColumnOptions = {
  name: 'id',
  // 'integer': SQLite only auto-increments an INTEGER PRIMARY KEY; MySQL reads it as INT.
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};

export function isMysql(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.options.type === 'mysql';
}

/** `created_at`/`updated_at` with the database filling them in, as TypeORM's date columns expect. */
export function timestampColumns(queryRunner: QueryRunner): TableColumnOptions[] {
  const now = isMysql(queryRunner) ? 'CURRENT_TIMESTAMP(3)' : "(strftime('%Y-%m-%d %H:%M:%f', 'now'))";
  const precision = isMysql(queryRunner) ? 3 : undefined;
  return [
    { name: 'created_at', type: 'datetime', precision, default: now },
    { name: 'updated_at', type: 'datetime', precision, default: now },
  ];
}
