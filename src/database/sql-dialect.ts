import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { executePrepared } from './prepared-statements';
import { supportsInsertReturning } from './server-features';

/** Accent- and case-blind, as the MySQL/MariaDB tables' utf8mb4_unicode_ci. */
const UNICODE_CI = new Intl.Collator('und', { sensitivity: 'base' });

/**
 * Every difference between the two databases the service runs on (SQLite, embedded; MySQL/MariaDB,
 * in production) that a repository needs, in one place. Repositories and services ask it; nothing
 * outside src/database/ looks at the driver's type.
 *
 * One per data source: what is learnt about the server at run time (whether it runs compound
 * statements) is kept here, so each statement that needs it is tried once per process.
 */
export class SqlDialect {
  private static readonly byDataSource = new WeakMap<DataSource, SqlDialect>();

  /** The dialect of a data source, or of the data source an entity manager (or transaction) works on. */
  static of(source: DataSource | EntityManager): SqlDialect {
    const ds = 'connection' in source ? source.connection : source;
    let dialect = SqlDialect.byDataSource.get(ds);
    if (!dialect) {
      dialect = new SqlDialect(ds);
      SqlDialect.byDataSource.set(ds, dialect);
    }
    return dialect;
  }

  /** MySQL or MariaDB (TypeORM's `mysql` driver); otherwise SQLite. */
  readonly mysql: boolean;
  /** Whether anonymous compound statements (`BEGIN NOT ATOMIC`, MariaDB) run; unknown until tried. */
  private compoundStatements: boolean | undefined;

  private constructor(private readonly dataSource: DataSource) {
    this.mysql = dataSource.options.type === 'mysql';
  }

  // ------------------------------------------------------------------ locking

  /**
   * Row locks exist on MySQL/MariaDB only. SQLite has one writer at a time: its transactions are
   * made exclusive when they begin (database/sqlite-serialization.ts), which serialises them anyway.
   */
  get rowLocks(): boolean {
    return this.mysql;
  }

  /** `SELECT ... FOR UPDATE` where rows can be locked. */
  forUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return this.mysql ? query.setLock('pessimistic_write') : query;
  }

  /** `SELECT ... FOR UPDATE SKIP LOCKED`: rows another transaction holds are left out, not waited for. */
  forUpdateSkipLocked<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return this.mysql ? query.setLock('pessimistic_write').setOnLocked('skip_locked') : query;
  }

  /** The same as forUpdate, as options of `manager.findOne`/`find`. */
  findForUpdate(): { lock?: { mode: 'pessimistic_write' } } {
    return this.mysql ? { lock: { mode: 'pessimistic_write' } } : {};
  }

  /** Whether a transaction can ask for READ COMMITTED (SQLite's transactions are serializable). */
  get readCommitted(): boolean {
    return this.mysql;
  }

  /** Whether the server enforces a per-statement time limit (`max_statement_time`, MariaDB). */
  get statementTimeouts(): boolean {
    return this.mysql;
  }

  /**
   * Runs a SELECT outside any transaction as a server-side prepared statement (MySQL/MariaDB:
   * prepared-statements.ts), its `?` placeholders bound to `values`; null on SQLite, whose caller
   * runs it as it runs any other statement.
   */
  selectPrepared<T>(sql: string, values: unknown[]): Promise<T[]> | null {
    return this.mysql ? executePrepared<T>(this.dataSource, sql, values) : null;
  }

  /** Whether the driver has a connection pool whose gauges can be read. */
  get pooled(): boolean {
    return this.mysql;
  }

  // ------------------------------------------------------------------ expressions

  /** String concatenation of SQL expressions. */
  concat(...parts: string[]): string {
    return this.mysql ? `CONCAT(${parts.join(', ')})` : parts.join(' || ');
  }

  /** The `YYYY-MM-DD` day of a datetime column. */
  dayOf(column: string): string {
    return this.mysql ? `DATE_FORMAT(${column}, '%Y-%m-%d')` : `substr(${column}, 1, 10)`;
  }

  /**
   * A datetime column in a form that compares and sorts in time order. SQLite keeps dates as text,
   * some without milliseconds (column defaults), so there they are brought to one format.
   */
  comparableDateTime(column: string): string {
    return this.mysql ? column : `strftime('%Y-%m-%d %H:%M:%f', ${column})`;
  }

  /** `datetime - (seconds expression) seconds`, as a datetime. */
  secondsBefore(datetime: string, seconds: string): string {
    return this.mysql
      ? `DATE_SUB(${datetime}, INTERVAL ${seconds} SECOND)`
      : `strftime('%Y-%m-%d %H:%M:%f', ${datetime}, '-' || (${seconds}) || ' seconds')`;
  }

  /** The larger of two values (SQLite's two-argument MAX is scalar). */
  greatest(a: string, b: string): string {
    return this.mysql ? `GREATEST(${a}, ${b})` : `MAX(${a}, ${b})`;
  }

  /**
   * Whether a range bounded by a subquery's value is read through the index. SQLite's planner does
   * it; MariaDB's range optimiser does not, and needs the bound in a variable (compound statements).
   */
  get rangesBoundedBySubquery(): boolean {
    return !this.mysql;
  }

  /** Whether a FULLTEXT index answers word searches (MySQL/MariaDB); SQLite falls back to LIKE. */
  get fullText(): boolean {
    return this.mysql;
  }

  /** The order the database sorts text columns in: accent- and case-blind on MySQL/MariaDB, by code unit on SQLite. */
  textOrder(): (a: string, b: string) => number {
    if (this.mysql) return (a, b) => UNICODE_CI.compare(a, b);
    return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  }

  // ------------------------------------------------------------------ upsert

  /** The value an upsert tried to insert into `column`, inside its update part. */
  inserted(column: string): string {
    return this.mysql ? `VALUES(${column})` : `excluded.${column}`;
  }

  /**
   * The clause after `INSERT ... VALUES ...` that updates the row holding the same key instead.
   * `key` is the unique key's columns (SQLite names them; MySQL takes any unique key). `where`
   * (SQLite only) keeps the row unchanged unless it holds; on MySQL the assignments carry the test.
   */
  onConflictUpdate(key: string[], assignments: string, where?: string): string {
    if (this.mysql) return `ON DUPLICATE KEY UPDATE ${assignments}`;
    return `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${assignments}${where ? ` WHERE ${where}` : ''}`;
  }

  /**
   * onConflictUpdate for rows that carry a version: the row is replaced by the inserted one
   * (`columns`, `version` last) unless the stored version is newer. On MySQL the assignments run left
   * to right, so each column is tested against the version stored before, which moves last.
   */
  onConflictKeepNewest(key: string[], columns: string[], version: string): string {
    if (this.mysql) {
      const newer = `VALUES(${version}) >= ${version}`;
      const assignments = columns.map((column) => `${column} = IF(${newer}, VALUES(${column}), ${column})`);
      return this.onConflictUpdate(key, [...assignments, `${version} = GREATEST(${version}, VALUES(${version}))`].join(', '));
    }
    const assignments = [version, ...columns].map((column) => `${column} = excluded.${column}`).join(', ');
    return this.onConflictUpdate(key, assignments, `excluded.${version} >= ${version}`);
  }

  /**
   * `UPDATE ... RETURNING` (SQLite 3.35+): a conditional UPDATE that also answers the row as it left it.
   * MariaDB and MySQL have none (their UPDATE answers only how many rows it changed).
   */
  get updateReturning(): boolean {
    return !this.mysql;
  }

  /** `INSERT ... RETURNING` usable through the driver (MariaDB 10.5+; detected at start). */
  get insertReturning(): boolean {
    return supportsInsertReturning(this.dataSource);
  }

  // ------------------------------------------------------------------ compound statements

  /**
   * Runs `statement`, an anonymous compound statement (`BEGIN NOT ATOMIC ... END`), where the server
   * runs them. Null, without a round trip, on SQLite and on a server that refused one before
   * (MySQL has them only inside stored programs): the caller then does the same work in several
   * statements.
   */
  async compound<T>(statement: () => Promise<T>): Promise<T | null> {
    if (!this.mysql || this.compoundStatements === false) return null;
    try {
      const result = await statement();
      this.compoundStatements = true;
      return result;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ER_PARSE_ERROR' || this.compoundStatements === true) throw error;
      this.compoundStatements = false;
      return null;
    }
  }

  /** Whether compound statements may be tried (not SQLite, not a server known to refuse them). */
  get mayRunCompound(): boolean {
    return this.mysql && this.compoundStatements !== false;
  }
}
