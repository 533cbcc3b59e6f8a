import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { connectionWaitTimedOut } from '../common/database/transactions';

/** A FIFO lock built on a promise chain; a waiter may give up after `waitTimeoutMs` (0: never). */
class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();
  waitTimeoutMs = 0;

  constructor(private readonly timedOut: () => Error) {}

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    if (this.waitTimeoutMs === 0) {
      await previous;
      return release;
    }
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave-up'>((resolve) => (timer = setTimeout(() => resolve('gave-up'), this.waitTimeoutMs)));
    const outcome = await Promise.race([previous.then(() => 'turn' as const), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'gave-up') {
      // The place in the queue is passed on as soon as it comes, so that later waiters keep their order.
      void previous.then(release);
      throw this.timedOut();
    }
    return release;
  }
}

const mutexes = new WeakMap<DataSource, AsyncMutex>();
/** One mutex per database file for the data sources of one process (two app instances in a test). */
const mutexesOfFiles = new Map<string, AsyncMutex>();

function databaseFile(dataSource: DataSource): string | null {
  const database = (dataSource.options as { database?: unknown }).database;
  return typeof database === 'string' && database !== ':memory:' && database !== '' ? database : null;
}

/**
 * TypeORM talks to SQLite through one connection. Without care, a request's transaction and
 * another request's statements interleave on it at every `await`: the second request's writes
 * would join (and roll back with) the first one's transaction, and a second transaction would
 * become a savepoint of the first. This makes transactions exclusive: while one runs, statements
 * from outside it wait. SQLite serialises writes anyway, so nothing is lost in throughput.
 * Statements issued from inside a transaction's callback run on the same connection without
 * waiting, so code that forgets the transaction's manager does not deadlock here (it does on
 * MySQL: see connection-waits.ts).
 */
export function serialiseSqliteTransactions(dataSource: DataSource): void {
  // Data sources of one process on one file share the mutex: better-sqlite3 waits for another
  // connection's lock synchronously, blocking the thread that would release it, so a statement of
  // one data source met while the other's transaction awaits would stall both until busy_timeout.
  const file = databaseFile(dataSource);
  const mutex = (file && mutexesOfFiles.get(file)) || new AsyncMutex(connectionWaitTimedOut);
  if (file) mutexesOfFiles.set(file, mutex);
  mutexes.set(dataSource, mutex);
  const insideTransaction = new AsyncLocalStorage<true>();
  const manager: EntityManager = dataSource.manager;
  const runTransaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;

  manager.transaction = async (...args: unknown[]) => {
    if (insideTransaction.getStore()) return runTransaction(...args);
    const release = await mutex.acquire();
    try {
      return await insideTransaction.run(true, () => runTransaction(...args));
    } finally {
      release();
    }
  };

  const queryRunner: QueryRunner = dataSource.createQueryRunner();
  const runQuery = queryRunner.query.bind(queryRunner) as (...args: unknown[]) => Promise<unknown>;
  queryRunner.query = (async (...args: unknown[]) => {
    if (insideTransaction.getStore()) return runQuery(...args);
    const release = await mutex.acquire();
    try {
      return await runQuery(...args);
    } finally {
      release();
    }
  }) as QueryRunner['query'];
}

/**
 * The longest a transaction or statement waits for its turn on the one connection before the
 * request answers 503 `database-busy`, as a MySQL request waits for a pooled connection.
 */
export function limitSqliteTransactionWaits(dataSource: DataSource, waitTimeoutMs: number): void {
  const mutex = mutexes.get(dataSource);
  if (mutex) mutex.waitTimeoutMs = waitTimeoutMs;
}
