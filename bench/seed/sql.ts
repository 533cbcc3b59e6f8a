import type { DataSource, QueryRunner } from 'typeorm';

export type DialectName = 'mysql' | 'sqlite';

/**
 * SQL literals as TypeORM would bind them for each driver, so that seeded rows read back exactly
 * like the service's own: on SQLite every DATETIME is `YYYY-MM-DD HH:MM:SS.mmm` (TypeORM's format
 * there, and what list filters compare against as text); on MySQL the columns without fractional
 * seconds get whole seconds and the `(3)` ones milliseconds.
 */
export class Dialect {
  constructor(readonly name: DialectName) {}

  static of(dataSource: DataSource): Dialect {
    const type = dataSource.options.type;
    if (type === 'mysql' || type === 'mariadb') return new Dialect('mysql');
    if (type === 'better-sqlite3') return new Dialect('sqlite');
    throw new Error(`The benchmark seed supports MySQL/MariaDB and SQLite, not ${type}`);
  }

  text(value: string): string {
    const quotesDoubled = value.replace(/'/g, "''");
    // MySQL reads backslashes in string literals as escapes (unless NO_BACKSLASH_ESCAPES); SQLite does not.
    return `'${this.name === 'mysql' ? quotesDoubled.replace(/\\/g, '\\\\') : quotesDoubled}'`;
  }

  nullableText(value: string | null): string {
    return value === null ? 'NULL' : this.text(value);
  }

  int(value: number): string {
    return String(Math.trunc(value));
  }

  nullableInt(value: number | null): string {
    return value === null ? 'NULL' : String(Math.trunc(value));
  }

  bool(value: boolean): string {
    return value ? '1' : '0';
  }

  nullableBool(value: boolean | null): string {
    return value === null ? 'NULL' : value ? '1' : '0';
  }

  /** A decimal already formatted ("25.00", "48.8566000"). */
  decimal(value: string): string {
    return value;
  }

  /** A DATETIME column without fractional seconds (`published_at`, `start_utc`, ...). */
  dateTime(epochMs: number): string {
    const iso = new Date(epochMs).toISOString();
    return this.name === 'sqlite' ? `'${iso.slice(0, 10)} ${iso.slice(11, 23)}'` : `'${iso.slice(0, 10)} ${iso.slice(11, 19)}'`;
  }

  nullableDateTime(epochMs: number | null): string {
    return epochMs === null ? 'NULL' : this.dateTime(epochMs);
  }

  /** A DATETIME(3) column (`created_at`, `updated_at`). */
  dateTime3(epochMs: number): string {
    const iso = new Date(epochMs).toISOString();
    return `'${iso.slice(0, 10)} ${iso.slice(11, 23)}'`;
  }

  identifier(name: string): string {
    return `\`${name}\``;
  }
}

/** Rows for one table, turned into multi-row INSERTs of at most `maxRows` rows and about `maxBytes`. */
export class InsertBuffer {
  private rows: string[] = [];
  private readonly head: string;
  added = 0;

  constructor(
    readonly table: string,
    columns: readonly string[],
    dialect: Dialect,
    private readonly maxRows: number,
    private readonly maxBytes: number,
  ) {
    this.head = `INSERT INTO ${dialect.identifier(table)} (${columns.map((column) => dialect.identifier(column)).join(', ')}) VALUES\n`;
  }

  /** One row: its literals in column order. */
  add(literals: string[]): void {
    this.rows.push(`(${literals.join(',')})`);
    this.added += 1;
  }

  /** The statements for everything buffered, emptying the buffer. */
  drain(): string[] {
    const statements: string[] = [];
    let start = 0;
    while (start < this.rows.length) {
      let end = start;
      let size = this.head.length;
      while (end < this.rows.length && end - start < this.maxRows && (end === start || size + this.rows[end].length + 2 <= this.maxBytes)) {
        size += this.rows[end].length + 2;
        end += 1;
      }
      statements.push(this.head + this.rows.slice(start, end).join(',\n'));
      start = end;
    }
    this.rows = [];
    return statements;
  }
}

/**
 * One connection for the whole load. On MySQL the session skips unique and foreign key checks
 * while loading (every id and unique value is computed here) and has no statement time limit;
 * both are restored before the connection goes back to the pool.
 */
export class BulkConnection {
  private constructor(
    readonly runner: QueryRunner,
    readonly dialect: Dialect,
  ) {}

  static async open(dataSource: DataSource): Promise<BulkConnection> {
    const dialect = Dialect.of(dataSource);
    const runner = dataSource.createQueryRunner('master');
    await runner.connect();
    return new BulkConnection(runner, dialect);
  }

  async beginBulkLoad(): Promise<void> {
    if (this.dialect.name === 'mysql') {
      await this.runner.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
      // MariaDB's limit; MySQL calls it max_execution_time and applies it to SELECTs only.
      await this.runner.query('SET SESSION max_statement_time = 0').catch(() => undefined);
    }
  }

  async endBulkLoad(): Promise<void> {
    if (this.dialect.name === 'mysql') await this.runner.query('SET SESSION unique_checks = 1, foreign_key_checks = 1');
  }

  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T> {
    return this.runner.query(sql, parameters) as Promise<T>;
  }

  /** Runs the statements in one transaction. */
  async inTransaction(statements: string[]): Promise<void> {
    if (statements.length === 0) return;
    await this.runner.startTransaction();
    try {
      for (const statement of statements) await this.runner.query(statement);
      await this.runner.commitTransaction();
    } catch (error) {
      await this.runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  }

  async release(): Promise<void> {
    try {
      await this.endBulkLoad();
    } finally {
      await this.runner.release();
    }
  }
}
