import type { EntityManager, EntityTarget, QueryRunner } from 'typeorm';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';

/**
 * Publishes RowsWritten (through TypeORM's subscriber events, which DomainEventsTransactionBridge
 * turns into domain events) for a statement run as raw SQL through `manager` that inserts or
 * updates (or deletes) rows of `entities`: TypeORM reports only the writes of its own builders. The rows are not
 * named, so their listeners act on the whole table (the count caches, purge keys, the checkout
 * catalog). Call it in the same transaction, before or after the statement.
 */
export async function announceRawWrites(
  manager: EntityManager,
  kind: 'insert' | 'update' | 'remove',
  entities: EntityTarget<unknown>[],
): Promise<void> {
  const runner = manager.queryRunner as QueryRunner;
  const result = new BroadcasterResult();
  for (const entity of entities) {
    const metadata = manager.connection.getMetadata(entity);
    if (kind === 'insert') runner.broadcaster.broadcastAfterInsertEvent(result, metadata);
    else if (kind === 'remove') runner.broadcaster.broadcastAfterRemoveEvent(result, metadata);
    else runner.broadcaster.broadcastAfterUpdateEvent(result, metadata);
  }
  await result.wait();
}
