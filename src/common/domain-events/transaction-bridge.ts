import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntitySubscriberInterface,
  InsertEvent,
  RemoveEvent,
  SoftRemoveEvent,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  UpdateEvent,
} from 'typeorm';
import type { WrittenRow } from './domain-event';
import { TransactionHost } from '../database/transaction-host';
import { DomainEvents } from './domain-events';

type WriteEvent = InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown> | SoftRemoveEvent<unknown>;

/** What TypeORM's write event says of the row, read by column name. */
function writtenRow(event: WriteEvent): WrittenRow {
  const sources = [event.entity, 'databaseEntity' in event ? event.databaseEntity : undefined].filter(
    (source): source is object => typeof source === 'object' && source !== null,
  );
  const entityId = 'entityId' in event ? (event.entityId as unknown) : undefined;
  return {
    table: event.metadata.tableName,
    column(name) {
      const column = event.metadata.findColumnWithDatabaseName(name);
      if (!column) return undefined;
      for (const source of sources) {
        const value = column.getEntityValue(source) as unknown;
        if (value !== undefined && value !== null) return value;
      }
      if (column.isPrimary && entityId !== undefined && entityId !== null) {
        return typeof entityId === 'object' ? (column.getEntityValue(entityId) as unknown) : entityId;
      }
      return undefined;
    },
  };
}

/**
 * The one TypeORM subscriber behind domain events: it publishes each write TypeORM reports as a
 * RowsWritten event, and tells DomainEvents when a transaction is about to commit, has committed
 * or rolled back, which drives the before-commit and after-commit listeners.
 */
@Injectable()
export class DomainEventsTransactionBridge implements EntitySubscriberInterface {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly domainEvents: DomainEvents,
    private readonly tx: TransactionHost,
  ) {
    if (!dataSource.subscribers.includes(this)) dataSource.subscribers.push(this);
  }

  afterInsert(event: InsertEvent<unknown>): Promise<void> {
    return this.written(event, 'insert');
  }

  afterUpdate(event: UpdateEvent<unknown>): Promise<void> {
    return this.written(event, 'update');
  }

  afterRemove(event: RemoveEvent<unknown>): Promise<void> {
    return this.written(event, 'remove');
  }

  afterSoftRemove(event: SoftRemoveEvent<unknown>): Promise<void> {
    return this.written(event, 'update');
  }

  beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    return this.domainEvents.transactionCommitting(event.queryRunner);
  }

  afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    return this.domainEvents.transactionCommitted(event.queryRunner);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    this.domainEvents.transactionRolledBack(event.queryRunner);
  }

  private async written(event: WriteEvent, change: 'insert' | 'update' | 'remove'): Promise<void> {
    if (!this.domainEvents.isListenedTo('RowsWritten')) return;
    // TypeORM's own transaction around a save outside ours has a manager TransactionHost does not know.
    await this.tx.withManager(event.queryRunner.manager, () =>
      this.domainEvents.publish({ kind: 'RowsWritten', change, row: writtenRow(event) }),
    );
  }
}
