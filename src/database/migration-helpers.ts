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

/** A row trigger written once for both dialects (createTrigger). */
export interface Trigger {
  name: string;
  /** e.g. `AFTER INSERT ON events` */
  timing: string;
  /** SQLite only: limits an update trigger to these columns. */
  columns?: string[];
  /** Runs the body only when true (both dialects). */
  when?: string;
  body: string[];
}

/** The CREATE TRIGGER statement of `trigger` in the dialect: MySQL guards the body with IF, SQLite with WHEN. */
export function createTrigger(mysql: boolean, trigger: Trigger): string {
  const [timing, event, , table] = trigger.timing.split(' ');
  if (mysql) {
    const body = trigger.body.map((statement) => `${statement};`).join(' ');
    const guarded = trigger.when ? `IF ${trigger.when} THEN ${body} END IF;` : body;
    return `CREATE TRIGGER ${trigger.name} ${timing} ${event} ON ${table} FOR EACH ROW BEGIN ${guarded} END`;
  }
  const of = trigger.columns ? ` OF ${trigger.columns.join(', ')}` : '';
  const when = trigger.when ? ` WHEN ${trigger.when}` : '';
  return `CREATE TRIGGER ${trigger.name} ${timing} ${event}${of} ON ${table} FOR EACH ROW${when} BEGIN ${trigger.body.map((statement) => `${statement};`).join(' ')} END`;
}

/**
 * Adds columns with plain `ALTER TABLE ... ADD COLUMN` (one per statement, as SQLite wants): TypeORM's
 * addColumn rebuilds a SQLite table, which drops the triggers defined on it.
 */
export async function addColumns(queryRunner: QueryRunner, table: string, definitions: string[]): Promise<void> {
  for (const definition of definitions) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN ${definition}`);
}

/** The reverse of addColumns, also without rebuilding a SQLite table. */
export async function dropColumns(queryRunner: QueryRunner, table: string, columns: string[]): Promise<void> {
  for (const column of columns) await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
}
