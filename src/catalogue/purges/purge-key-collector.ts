import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../../common/clock';
import type { RowsWritten } from '../../common/domain-events/domain-event';
import { OnDomainEvent } from '../../common/domain-events/domain-events';
import { appConfig } from '../../config/app.config';
import { OutboxMessage } from '../../outbox/outbox-message.entity';
import { addPurgeKeys, PurgeKeys } from './purge-keys';
import { TransactionHost } from '../../common/database/transaction-host';

/** Keys one purge message carries at most; a write naming more sends several. */
const KEYS_PER_MESSAGE = 200;

/**
 * With PURGE_URL set, collects the surrogate keys each transaction's writes make stale and writes
 * them into the outbox in that transaction, just before it commits: a committed write is purged
 * from the cache in front even if the process dies right after, and a rolled-back one never is.
 * The outbox worker sends them (PurgeSender). TypeORM reports entity saves and query-builder
 * writes; a write whose rows it cannot name (a bulk update, raw SQL announced by announceRawWrites)
 * purges its whole domain (`events` or `tickets`).
 */
@Injectable()
export class PurgeKeyCollector {
  private readonly purging: boolean;

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.purging = Boolean(config.httpCache.purgeUrl);
  }

  /** The purge messages of one transaction's keys, with the keys of the terms of the events it wrote. */
  @OnDomainEvent('RowsWritten', { phase: 'before-commit' })
  async queuePurges(events: readonly RowsWritten[]): Promise<void> {
    const manager = this.tx.manager;
    if (!this.purging) return;
    const collected: PurgeKeys = { keys: new Set<string>(), eventIds: new Set<number>() };
    for (const { row } of events) if (row.table !== 'outbox_messages') addPurgeKeys(row, collected);
    const keys = collected.keys;
    if (keys.size === 0) return;
    if (collected.eventIds.size > 0) {
      const ids = [...collected.eventIds];
      const marks = ids.map(() => '?').join(', ');
      const rows: Array<{ kind: string; id: number | string }> = await manager.query(
        `SELECT 'category' AS kind, category_id AS id FROM event_category_links WHERE event_id IN (${marks}) ` +
          `UNION ALL SELECT 'tag' AS kind, tag_id AS id FROM event_tag_links WHERE event_id IN (${marks})`,
        [...ids, ...ids],
      );
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
    await manager.createQueryBuilder().insert().into(OutboxMessage).values(messages).updateEntity(false).execute();
  }
}
