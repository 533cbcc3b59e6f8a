import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryRunner } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { TransactionWriteCollector, WriteEvent } from '../common/database/transaction-write-collector';
import { appConfig } from '../config/app.config';
import { OutboxMessage } from '../outbox/outbox-message.entity';
import { addPurgeKeys, PurgeKeys, WrittenRow } from './purge-keys';

/** Keys one purge message carries at most; a write naming more sends several. */
const KEYS_PER_MESSAGE = 200;

/** What a subscriber's write event says of the row, read by column name. */
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
 * With PURGE_URL set, collects the surrogate keys each transaction's writes make stale and writes
 * them into the outbox in that transaction, just before it commits: a committed write is purged
 * from the cache in front even if the process dies right after, and a rolled-back one never is.
 * The outbox worker sends them (PurgeSender). TypeORM reports entity saves and query-builder
 * writes; a write whose rows it cannot name (a bulk update, raw SQL announced by announceRawWrites)
 * purges its whole domain (`events` or `tickets`).
 */
@Injectable()
export class PurgeKeyCollector extends TransactionWriteCollector<PurgeKeys> {
  protected readonly actsOn = 'before-commit';

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
    if (config.httpCache.purgeUrl) dataSource.subscribers.push(this);
  }

  protected gather(event: WriteEvent, gathered: PurgeKeys | undefined): PurgeKeys | undefined {
    if (event.metadata.tableName === 'outbox_messages') return undefined;
    const collected = gathered ?? { keys: new Set<string>(), eventIds: new Set<number>() };
    addPurgeKeys(writtenRow(event), collected);
    return collected.keys.size === 0 ? undefined : collected;
  }

  /** The purge messages of one transaction's keys, with the keys of the terms of the events it wrote. */
  protected async act(runner: QueryRunner, collected: PurgeKeys): Promise<void> {
    const keys = collected.keys;
    if (collected.eventIds.size > 0) {
      const ids = [...collected.eventIds];
      const marks = ids.map(() => '?').join(', ');
      const rows = (await runner.query(
        `SELECT 'category' AS kind, category_id AS id FROM event_category_links WHERE event_id IN (${marks}) ` +
          `UNION ALL SELECT 'tag' AS kind, tag_id AS id FROM event_tag_links WHERE event_id IN (${marks})`,
        [...ids, ...ids],
      )) as Array<{ kind: string; id: number | string }>;
      for (const row of rows) keys.add(`${row.kind}-${Number(row.id)}`);
    }
    const sorted = [...keys].sort();
    const now = this.clock.now();
    const messages: Array<Partial<OutboxMessage>> = [];
    for (let start = 0; start < sorted.length; start += KEYS_PER_MESSAGE) {
      messages.push({
        channel: 'purge',
        type: 'cache.purge',
        payload: JSON.stringify({ keys: sorted.slice(start, start + KEYS_PER_MESSAGE) }),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      });
    }
    await runner.manager.createQueryBuilder().insert().into(OutboxMessage).values(messages).updateEntity(false).execute();
  }
}
