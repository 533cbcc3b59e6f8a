import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SqlDialect } from '../../database/sql-dialect';
import { HeldWrites } from './held-writes';
import { runInTransaction, TransactionOptions } from './transactions';

/**
 * The transaction context: which transaction the current call runs in, kept in an AsyncLocalStorage
 * so that nobody passes managers by hand. A service declares its boundary once with `run`;
 * repositories (and listeners) read `manager`, which is the current transaction's manager inside one
 * and the data source's outside. See docs/architecture.md, "Transactions".
 */
@Injectable()
export class TransactionHost {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  /** The manager to run statements with: the current transaction's, or the data source's outside one. */
  get manager(): EntityManager {
    const manager = this.current.getStore();
    if (manager && !manager.queryRunner?.isReleased) return manager;
    return this.dataSource.manager;
  }

  /** Whether the current call runs inside an open transaction. */
  get inTransaction(): boolean {
    return this.current.getStore()?.queryRunner?.isTransactionActive === true;
  }

  /** The database's SQL dialect (SQLite or MySQL/MariaDB). */
  get dialect(): SqlDialect {
    return SqlDialect.of(this.dataSource);
  }

  /**
   * Runs `work` in a transaction: the current one when there is one (its retries are the outer
   * transaction's), else a new one with `runInTransaction`'s retries on lock conflicts, so `work`
   * must be safe to run again from the start.
   */
  run<T>(work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.inTransaction) return work();
    return runInTransaction(this.dataSource, (manager) => this.current.run(manager, work), options);
  }

  /** Runs `work` with `manager` as the current one: for code TypeORM calls with its own manager (subscribers). */
  withManager<T>(manager: EntityManager, work: () => Promise<T>): Promise<T> {
    return this.current.run(manager, work);
  }

  /**
   * From here on, holds the current transaction's writes that repositories can hold (held-writes.ts)
   * until the statement that ends it sends them (MariaDB's compound statements; nothing is held
   * elsewhere). Call it once the transaction has read what it needs.
   */
  holdWrites(): void {
    if (this.inTransaction) HeldWrites.hold(this.manager);
  }

  /** Sends the writes the current transaction still holds (none: no statement). */
  sendHeldWrites(): Promise<void> {
    return HeldWrites.send(this.manager);
  }

  /** `value` with the stand-in ids of the current transaction's held writes replaced by the ids they got, in place. */
  resolveHeldIds<T>(value: T): T {
    return HeldWrites.last(this.manager)?.resolveIds(value) ?? value;
  }

  /** Runs `work` outside the current transaction (its statements go to the data source's manager). */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.current.exit(work);
  }
}
