import { Injectable, Logger } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntitySubscriberInterface,
  InsertEvent,
  QueryRunner,
  RemoveEvent,
  SoftRemoveEvent,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  UpdateEvent,
} from 'typeorm';
import { isLockConflict } from '../database/transactions';
import { COUNT_GENERATION_STRIPES, COUNT_SCOPE_TABLES, COUNT_SCOPES, CountScope } from './count-cache';

/** Tries of the generation bump after a commit before it is given up. */
const RENEW_ATTEMPTS = 3;

const SCOPES_OF_TABLE = new Map<string, CountScope[]>();
for (const scope of COUNT_SCOPES) {
  for (const table of COUNT_SCOPE_TABLES[scope]) SCOPES_OF_TABLE.set(table, [...(SCOPES_OF_TABLE.get(table) ?? []), scope]);
}

type WriteEvent = InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown> | SoftRemoveEvent<unknown>;

/**
 * Renews the generation of every count scope a write touched (CountCache), once the write is
 * committed: inside the transaction the new generation would stay invisible to other instances
 * while it held a lock every writer of the scope waits for. A write outside a transaction renews
 * at once. TypeORM reports entity saves and query-builder writes alike; the few writes run as raw
 * SQL (the checkout's capacity take and attendee INSERT) are reported by announceRawWrites.
 */
@Injectable()
export class CountCacheInvalidation implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, Set<CountScope>>();
  private readonly logger = new Logger(CountCacheInvalidation.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  afterInsert(event: InsertEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  afterUpdate(event: UpdateEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  afterRemove(event: RemoveEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  afterSoftRemove(event: SoftRemoveEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const scopes = this.pending.get(event.queryRunner);
    if (!scopes || event.queryRunner.isTransactionActive) return;
    this.pending.delete(event.queryRunner);
    await this.renewCommitted(event.queryRunner, scopes);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }

  private async touched(event: WriteEvent): Promise<void> {
    const scopes = SCOPES_OF_TABLE.get(event.metadata.tableName);
    if (!scopes) return;
    const runner = event.queryRunner;
    if (runner.isTransactionActive) {
      const pending = this.pending.get(runner) ?? new Set<CountScope>();
      for (const scope of scopes) pending.add(scope);
      this.pending.set(runner, pending);
      return;
    }
    await this.renew(runner, new Set(scopes));
  }

  /**
   * The write is committed: a failure here must neither fail the request nor make
   * runInTransaction run the committed work again (a checkout would answer 400 cart-empty for an
   * order it placed). The generation rows are shared by every writer (one of COUNT_GENERATION_STRIPES
   * per scope, at random), so on a Galera cluster two nodes bumping one at once may still conflict
   * at certification: tried again a few times, then given up with a warning (counts are then at
   * most COUNT_CACHE_SECONDS old).
   */
  private async renewCommitted(runner: QueryRunner, scopes: Set<CountScope>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.renew(runner, scopes);
        return;
      } catch (error) {
        if (isLockConflict(error) && attempt < RENEW_ATTEMPTS) continue;
        this.logger.warn({ err: error, scopes: [...scopes] }, 'count cache generation not renewed after a commit');
        return;
      }
    }
  }

  private async renew(runner: QueryRunner, scopes: Set<CountScope>): Promise<void> {
    const names = [...scopes];
    const stripe = randomInt(COUNT_GENERATION_STRIPES);
    await runner.query(
      `UPDATE cache_generations SET generation = generation + 1 WHERE name IN (${names.map(() => '?').join(', ')}) AND stripe = ?`,
      [...names, stripe],
    );
  }
}
