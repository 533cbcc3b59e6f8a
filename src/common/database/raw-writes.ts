import type { EntityManager, EntityTarget, QueryRunner } from 'typeorm';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';

/**
 * Tells the entity subscribers (the count caches, the checkout catalog) that a statement run as raw
 * SQL through `manager` inserts or updates rows of `entities`: TypeORM reports only the writes of
 * its own builders. Call it in the same transaction, before or after the statement.
 */
export async function announceRawWrites(
  manager: EntityManager,
  kind: 'insert' | 'update',
  entities: EntityTarget<unknown>[],
): Promise<void> {
  const runner = manager.queryRunner as QueryRunner;
  const result = new BroadcasterResult();
  for (const entity of entities) {
    const metadata = manager.connection.getMetadata(entity);
    if (kind === 'insert') runner.broadcaster.broadcastAfterInsertEvent(result, metadata);
    else runner.broadcaster.broadcastAfterUpdateEvent(result, metadata);
  }
  await result.wait();
}
