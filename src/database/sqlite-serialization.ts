import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** A FIFO lock built on a promise chain. */
class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
}

/**
 * TypeORM talks to SQLite through one connection. Without care, a request's transaction and
 * another request's statements interleave on it at every `await`: the second request's writes
 * would join (and roll back with) the first one's transaction, and a second transaction would
 * become a savepoint of the first. This makes transactions exclusive: while one runs, statements
 * from outside it wait. SQLite serialises writes anyway, so nothing is lost in throughput.
 */
export function serialiseSqliteTransactions(dataSource: DataSource): void {
  const mutex = new AsyncMutex();
  const insideTransaction = new AsyncLocalStorage<true>();
  const manager: EntityManager = dataSource.manager;
  const runTransaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;

  manager.transaction = (async (...args: unknown[]) => {
    if (insideTransaction.getStore()) return runTransaction(...args);
    const release = await mutex.acquire();
    try {
      return await insideTransaction.run(true, () => runTransaction(...args));
    } finally {
      release();
    }
  }) as EntityManager['transaction'];

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
