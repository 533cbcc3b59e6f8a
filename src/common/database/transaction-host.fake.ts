import type { DataSource, EntityManager } from 'typeorm';
import { TransactionHost } from './transaction-host';

/**
 * For unit specs with fake repositories: a TransactionHost whose transactions run their work at
 * once, with `manager` (a stub by default) as the current manager and SQLite's dialect.
 */
export function fakeTransactionHost(manager: EntityManager = {} as EntityManager): TransactionHost {
  const dataSource = {
    options: { type: 'better-sqlite3' },
    manager,
    transaction: (work: (transaction: EntityManager) => Promise<unknown>) => work(manager),
  } as unknown as DataSource;
  return new TransactionHost(dataSource);
}
