import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { ApiError } from '../errors/api-error';
import { SqlDialect } from '../../database/sql-dialect';

/** MariaDB/MySQL answers that mean "two transactions collided; running it again may succeed". */
const LOCK_CONFLICT_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const LOCK_CONFLICT_ERRNOS = new Set([1213, 1205]);

/** Unique index violations, which decide races between inserts of the same key. */
const UNIQUE_VIOLATION_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * Foreign key violations: a row still referred to (a delete), or referring to one that is gone (an
 * insert racing a delete). MariaDB/MySQL codes with and without the constraint name, and SQLite's.
 */
const FOREIGN_KEY_VIOLATION_CODES = new Set([
  'ER_ROW_IS_REFERENCED_2',
  'ER_ROW_IS_REFERENCED',
  'ER_NO_REFERENCED_ROW_2',
  'ER_NO_REFERENCED_ROW',
  'SQLITE_CONSTRAINT_FOREIGNKEY',
]);

/** How many times a transaction that lost a lock conflict is run again before giving up. */
export const LOCK_CONFLICT_RETRIES = 5;

/** The first retry waits up to this long, each next one up to twice as long (full jitter). */
const RETRY_BACKOFF_BASE_MS = 15;

interface DriverFailure {
  code?: unknown;
  errno?: unknown;
  driverError?: { code?: unknown; errno?: unknown };
}

function driverCodes(error: unknown): { code?: unknown; errno?: unknown } {
  if (typeof error !== 'object' || error === null) return {};
  const failure = error as DriverFailure;
  return { code: failure.driverError?.code ?? failure.code, errno: failure.driverError?.errno ?? failure.errno };
}

export function isLockConflict(error: unknown): boolean {
  const { code, errno } = driverCodes(error);
  return (typeof code === 'string' && LOCK_CONFLICT_CODES.has(code)) || (typeof errno === 'number' && LOCK_CONFLICT_ERRNOS.has(errno));
}

/**
 * SQLite refused a transaction's first write because another process committed since its first
 * read (WAL mode; busy_timeout does not apply): run from the start, it reads the new state.
 */
function isStaleSqliteSnapshot(error: unknown): boolean {
  return driverCodes(error).code === 'SQLITE_BUSY_SNAPSHOT';
}

export function isUniqueViolation(error: unknown): boolean {
  const { code } = driverCodes(error);
  return typeof code === 'string' && UNIQUE_VIOLATION_CODES.has(code);
}

export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = driverCodes(error);
  return typeof code === 'string' && FOREIGN_KEY_VIOLATION_CODES.has(code);
}

export function databaseBusy(): ApiError {
  return new ApiError('database-busy', 'The request collided with others too many times; try again.', 503, { retry_after: 1 });
}

/** What a request answers when no connection (on SQLite: no turn on the one connection) comes within DATABASE_POOL_WAIT_TIMEOUT_MS. */
export function connectionWaitTimedOut(): ApiError {
  return new ApiError('database-busy', 'No database connection became free in time; try again.', 503, { retry_after: 1 });
}

export interface TransactionOptions {
  /**
   * MySQL/MariaDB only. READ COMMITTED takes no gap locks for its searches, so writers that
   * delete and insert rows of the same link tables do not block each other's inserts.
   */
  readCommitted?: boolean;
  /**
   * Gives way at the first lock conflict (or SQLite's stale snapshot): throws `ConflictLost` instead
   * of running `work` again, and counts nothing in `lockConflictsOf`. For rounds several instances run
   * at once, where losing means another instance's round did the work (the waiting rooms' ticker).
   */
  giveWay?: boolean;
}

/** What a transaction run with `giveWay` throws when it lost a lock conflict: none of its writes were kept. */
export class ConflictLost extends Error {
  constructor(cause: unknown) {
    super('The transaction lost a lock conflict and gave way', { cause });
    this.name = 'ConflictLost';
  }
}

/** Lock conflicts the transactions of one data source met: run again, and given up on (503). */
export interface LockConflictTally {
  retried: number;
  gaveUp: number;
}

const lockConflicts = new WeakMap<DataSource, LockConflictTally>();

/** The lock conflicts `runInTransaction` met on this data source since it was created (the `cal_db_lock_conflicts_total` metric). */
export function lockConflictsOf(dataSource: DataSource): LockConflictTally {
  let tally = lockConflicts.get(dataSource);
  if (!tally) {
    tally = { retried: 0, gaveUp: 0 };
    lockConflicts.set(dataSource, tally);
  }
  return tally;
}

/** Waits a random time below `base × 2^retry`, so that transactions that collided do not collide again in step. */
function backOff(retry: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_BACKOFF_BASE_MS * 2 ** retry));
}

/**
 * Runs `work` in one transaction. Deadlocks and lock wait timeouts (MariaDB) roll the transaction
 * back and run it again after a random back-off, at most `LOCK_CONFLICT_RETRIES` times, then answer
 * 503 `database-busy`: never a 500 (with `giveWay`, the first conflict throws `ConflictLost`).
 * Everything `work` does must go through the manager it is given (a second connection taken while
 * this one is held can stall the pool), and it must be safe to run again from the start.
 */
export async function runInTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  // On SQLite transactions are made exclusive at the data source (database/sqlite-serialization.ts);
  // only another process on the same file (a second instance, the CLI) can collide with one.
  const dialect = SqlDialect.of(dataSource);
  const attempt = () =>
    options.readCommitted && dialect.readCommitted ? dataSource.transaction('READ COMMITTED', work) : dataSource.transaction(work);
  for (let retries = 0; ; retries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(dialect.rowLocks ? isLockConflict(error) : isStaleSqliteSnapshot(error))) throw error;
      if (options.giveWay) throw new ConflictLost(error);
      const tally = lockConflictsOf(dataSource);
      if (retries >= LOCK_CONFLICT_RETRIES) {
        tally.gaveUp += 1;
        throw databaseBusy();
      }
      tally.retried += 1;
      await backOff(retries);
    }
  }
}

/**
 * For a transaction the server has just committed inside a statement of its own (a MariaDB compound
 * statement ending in COMMIT): the COMMIT that TypeORM sends when the transaction's callback returns
 * would end nothing, so it is answered here without a round trip. TypeORM's commit bookkeeping and
 * its subscribers' commit events run as usual. Nothing else may be sent in the transaction after it.
 */
export function answerNextCommitLocally(runner: QueryRunner): void {
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = ((sql: string, ...rest: unknown[]) => {
    runner.query = query as QueryRunner['query'];
    if (sql === 'COMMIT') return Promise.resolve(undefined);
    return query(sql, ...rest);
  }) as QueryRunner['query'];
}
