import { Injectable, Logger } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { RowsWritten } from '../../common/domain-events/domain-event';
import { OnDomainEvent } from '../../common/domain-events/domain-events';
import { isLockConflict } from '../../common/database/transactions';
import { COUNT_GENERATION_STRIPES, COUNT_SCOPE_TABLES, COUNT_SCOPES, CountScope } from './count-cache';
import { TransactionHost } from '../../common/database/transaction-host';

/** Tries of the generation bump after a commit before it is given up. */
const RENEW_ATTEMPTS = 3;

const SCOPES_OF_TABLE = new Map<string, CountScope[]>();
for (const scope of COUNT_SCOPES) {
  for (const table of COUNT_SCOPE_TABLES[scope]) SCOPES_OF_TABLE.set(table, [...(SCOPES_OF_TABLE.get(table) ?? []), scope]);
}

/**
 * Renews the generation of every count scope a write touched (CountCache), once the write is
 * committed: inside the transaction the new generation would stay invisible to other instances
 * while it held a lock every writer of the scope waits for.
 */
@Injectable()
export class CountCacheInvalidation {
  constructor(private readonly tx: TransactionHost) {}

  private readonly logger = new Logger(CountCacheInvalidation.name);

  /**
   * The write is committed: a failure here must neither fail the request nor make
   * runInTransaction run the committed work again (a checkout would answer 400 cart-empty for an
   * order it placed). The generation rows are shared by every writer (one of COUNT_GENERATION_STRIPES
   * per scope, at random), so on a Galera cluster two nodes bumping one at once may still conflict
   * at certification: tried again a few times, then given up with a warning (counts are then at
   * most COUNT_CACHE_SECONDS old).
   */
  @OnDomainEvent('RowsWritten', { phase: 'after-commit' })
  async renewGenerations(events: readonly RowsWritten[]): Promise<void> {
    const scopes = new Set(events.flatMap(({ row }) => SCOPES_OF_TABLE.get(row.table) ?? []));
    if (scopes.size === 0) return;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.renew(scopes);
        return;
      } catch (error) {
        if (isLockConflict(error) && attempt < RENEW_ATTEMPTS) continue;
        this.logger.warn({ err: error, scopes: [...scopes] }, 'count cache generation not renewed after a commit');
        return;
      }
    }
  }

  private async renew(scopes: Set<CountScope>): Promise<void> {
    const manager = this.tx.manager;
    const names = [...scopes];
    const stripe = randomInt(COUNT_GENERATION_STRIPES);
    await manager.query(
      `UPDATE cache_generations SET generation = generation + 1 WHERE name IN (${names.map(() => '?').join(', ')}) AND stripe = ?`,
      [...names, stripe],
    );
  }
}
