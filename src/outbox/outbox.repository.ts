import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
import { KeptInserts } from '../common/database/kept-statements';
import { SqlDialect } from '../database/sql-dialect';
import { OutboxChannel, OutboxMessage, OutboxStatus } from './outbox-message.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** A row as it is written: what the writer says, and the worker's fields at their start. */
export type NewOutboxMessage = Pick<OutboxMessage, 'channel' | 'type' | 'payload' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt'> &
  Partial<Pick<OutboxMessage, 'recipient' | 'endpointId' | 'messageId'>>;

/** Every statement of the outbox: writing messages, claiming them, recording attempts, the gauges and pruning. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** Every write's notifications go through here: its SQL written once per shape. */
  private readonly inserts = new KeptInserts();

  // ---------------------------------------------------------------- writing

  /** The messages, in one INSERT, in the order given (held with the transaction's other writes while it holds them). */
  async insert(messages: NewOutboxMessage[]): Promise<void> {
    const manager = this.tx.manager;
    await this.inserts.insert(manager, OutboxMessage, messages, { json: ['payload'] });
  }

  // ---------------------------------------------------------------- claiming

  /**
   * MariaDB/MySQL: marks up to `limit` due rows with the claim `token` and moves their next attempt
   * to `leaseUntil`, in the caller's transaction. Rows another instance is claiming right now are
   * skipped, not waited for. False when nothing was due.
   */
  async claimDueSkippingLocked(token: string, now: Date, leaseUntil: Date, limit: number): Promise<boolean> {
    const manager = this.tx.manager;
    const query = manager
      .createQueryBuilder(OutboxMessage, 'message')
      .select('message.id', 'id')
      .where('message.status = :pending AND message.nextAttemptAt <= :now', { pending: 'pending', now })
      .orderBy('message.id', 'ASC')
      .limit(limit);
    SqlDialect.of(manager).forUpdateSkipLocked(query);
    const due = (await query.getRawMany<{ id: number | string }>()).map((row) => Number(row.id));
    if (due.length === 0) return false;
    await manager
      .createQueryBuilder()
      .update(OutboxMessage)
      .set({ claimToken: token, nextAttemptAt: leaseUntil })
      .where('id IN (:...due)', { due })
      .execute();
    return true;
  }

  /**
   * SQLite: one writer at a time, so one UPDATE claims (it waits for the write lock, where a
   * read-then-write transaction would fail at once with SQLITE_BUSY when another process writes).
   */
  async claimDueInOneStatement(token: string, now: Date, leaseUntil: Date, limit: number): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(OutboxMessage)
      .set({ claimToken: token, nextAttemptAt: leaseUntil })
      .where(`id IN (SELECT id FROM outbox_messages WHERE status = :pending AND next_attempt_at <= :now ORDER BY id LIMIT ${limit})`, {
        pending: 'pending',
        now,
      })
      .execute();
    return !!result.affected;
  }

  /** The pending rows the claim `token` holds, oldest first. */
  claimed(token: string): Promise<OutboxMessage[]> {
    const manager = this.tx.manager;
    return manager.find(OutboxMessage, { where: { claimToken: token, status: 'pending' }, order: { id: 'ASC' } });
  }

  /** Writes an attempt's outcome, only while the claim `token` holds; false when another worker took the row since. */
  async recordAttempt(id: number, token: string, changes: Partial<OutboxMessage>): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager.update(OutboxMessage, { id, claimToken: token }, changes);
    return !!result.affected;
  }

  // ---------------------------------------------------------------- gauges and pruning

  /** How many rows of each channel are in `status` (channels without any are left out). */
  async countByChannel(status: OutboxStatus): Promise<Map<OutboxChannel, number>> {
    const manager = this.tx.manager;
    const rows = await manager
      .getRepository(OutboxMessage)
      .createQueryBuilder('message')
      .select('message.channel', 'channel')
      .addSelect('COUNT(*)', 'count')
      .where('message.status = :status', { status })
      .groupBy('message.channel')
      .getRawMany<{ channel: OutboxChannel; count: string | number }>();
    return new Map(rows.map((row) => [row.channel, Number(row.count)]));
  }

  /** When the oldest pending row was written; null when none is pending. */
  async oldestPendingCreatedAt(): Promise<Date | null> {
    const manager = this.tx.manager;
    const row = await manager
      .getRepository(OutboxMessage)
      .createQueryBuilder('message')
      .select('MIN(message.createdAt)', 'oldest')
      .where('message.status = :pending', { pending: 'pending' })
      .getRawOne<{ oldest: string | Date | null }>();
    if (!row?.oldest) return null;
    return row.oldest instanceof Date
      ? row.oldest
      : new Date(/Z$|[+-]\d\d:?\d\d$/.test(row.oldest) ? row.oldest : `${row.oldest.replace(' ', 'T')}Z`);
  }

  /** Deletes delivered and failed rows written before `before`; returns how many. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const manager = this.tx.manager;
    const result = await manager.delete(OutboxMessage, {
      status: In(['delivered', 'failed']),
      createdAt: LessThan(before),
    });
    return result.affected ?? 0;
  }
}
