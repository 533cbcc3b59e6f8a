import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Counter, Gauge } from 'prom-client';
import { PeriodicTask } from '../common/background/periodic-task';
import { CLOCK, Clock } from '../common/clock';
import { appConfig } from '../config/app.config';
import { EmailsService } from '../emails/emails.service';
import { PurgeSender } from '../http-cache/purge-sender';
import { MetricsService } from '../metrics/metrics.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DeliveryAttemptError, PermanentDeliveryError } from '../outbox/delivery-errors';
import { EventType } from '../outbox/event-types';
import { OUTBOX_CHANNELS, OutboxMessage } from '../outbox/outbox-message.entity';
import { OutboxRepository } from '../outbox/outbox.repository';
import { EventData, OutboxService } from '../outbox/outbox.service';
import { TransactionHost } from '../common/database/transaction-host';

/** Rows claimed per round: a round holds them for the lease, so not more than it can send in that time. */
const CLAIM_BATCH = 20;
/** How long a claim lasts: past it, a worker that died mid-attempt loses the row to another. */
const LEASE_MS = 5 * 60_000;
/** Longest wait between two attempts of one message. */
const MAX_RETRY_DELAY_MS = 6 * 3600_000;
/** How often delivered and failed rows past the retention are deleted. */
const PRUNE_EVERY_MS = 10 * 60_000;

export interface RunSummary {
  claimed: number;
  delivered: number;
  failed: number;
  retried: number;
}

/** The wait before attempt `attempts + 1`: base × 2^(attempts-1), ±20 % jitter, at most MAX_RETRY_DELAY_MS. */
export function retryDelayMs(baseMs: number, attempts: number, random = Math.random()): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), MAX_RETRY_DELAY_MS);
  return Math.round(exponential * (0.8 + 0.4 * random));
}

/**
 * Delivers the outbox. Every OUTBOX_POLL_INTERVAL_MS it claims due rows, in a short transaction
 * that moves their next attempt past a lease and stamps them with a claim token (MariaDB: rows
 * read `FOR UPDATE SKIP LOCKED`, so instances claiming at once take different rows; SQLite: one
 * writer, transactions run one at a time). Then, outside any transaction, it handles each row and
 * records the outcome only if its claim still holds: `event` rows fan out into `email` and
 * `webhook` rows (in one transaction with marking the event done, so exactly once); those are
 * sent, and retried with exponential back-off until OUTBOX_MAX_AGE_HOURS, then marked failed.
 * Delivery is at least once: a worker that dies after sending but before recording sends again
 * after the lease (webhook receivers deduplicate on `webhook-id`).
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxWorker.name);
  /** A tick runs rounds until the outbox has nothing due (at most 10); runOnce and drain wait their turn. */
  private readonly rounds = new PeriodicTask('outbox round', () => this.roundsUntilIdle(10), this.logger);
  private lastPrunedAt = 0;
  private readonly deliveredCounter: Counter<'channel'>;
  private readonly failedCounter: Counter<'channel'>;

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly repository: OutboxRepository,
    private readonly emails: EmailsService,
    private readonly webhooks: WebhooksService,
    private readonly purges: PurgeSender,
    metrics: MetricsService,
  ) {
    const registers = [metrics.registry];
    this.deliveredCounter = new Counter({
      name: 'cal_outbox_delivered_total',
      help: 'Outbox messages delivered by this instance, by channel (event: fanned out)',
      labelNames: ['channel'],
      registers,
    });
    this.failedCounter = new Counter({
      name: 'cal_outbox_failed_total',
      help: 'Outbox messages this instance gave up on, by channel',
      labelNames: ['channel'],
      registers,
    });
    for (const channel of OUTBOX_CHANNELS) {
      this.deliveredCounter.inc({ channel }, 0);
      this.failedCounter.inc({ channel }, 0);
    }
    const countsBy = (status: 'pending' | 'failed') => async (gauge: Gauge<'channel'>) => {
      const counts = await this.repository.countByChannel(status);
      for (const channel of OUTBOX_CHANNELS) gauge.set({ channel }, counts.get(channel) ?? 0);
    };
    const pendingCounts = countsBy('pending');
    const failedCounts = countsBy('failed');
    new Gauge({
      name: 'cal_outbox_pending_messages',
      help: 'Outbox messages not yet delivered (all instances), by channel',
      labelNames: ['channel'],
      registers,
      async collect() {
        await pendingCounts(this).catch(() => undefined);
      },
    });
    new Gauge({
      name: 'cal_outbox_failed_messages',
      help: 'Outbox messages given up on and kept until pruned (all instances), by channel',
      labelNames: ['channel'],
      registers,
      async collect() {
        await failedCounts(this).catch(() => undefined);
      },
    });
    const oldestPending = async () => {
      const oldest = await this.repository.oldestPendingCreatedAt();
      if (!oldest) return 0;
      return Math.max(0, (this.clock.now().getTime() - oldest.getTime()) / 1000);
    };
    new Gauge({
      name: 'cal_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest undelivered outbox message; 0 when none',
      registers,
      async collect() {
        this.set(await oldestPending().catch(() => 0));
      },
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.notifications.worker) this.rounds.start(this.config.notifications.pollIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round: claims what is due now and handles it. Rounds of one instance never overlap. */
  runOnce(): Promise<RunSummary> {
    return this.rounds.run(() => this.round());
  }

  /** Rounds until one claims nothing: what tests call instead of waiting for the poll interval. */
  drain(maxRounds = 50): Promise<RunSummary> {
    return this.rounds.run(() => this.roundsUntilIdle(maxRounds));
  }

  /** Deletes delivered and failed rows written more than OUTBOX_RETENTION_DAYS ago; returns how many. */
  async prune(now = this.clock.now()): Promise<number> {
    this.lastPrunedAt = now.getTime();
    const before = new Date(now.getTime() - this.config.notifications.retentionDays * 86_400_000);
    return this.repository.deleteFinishedBefore(before);
  }

  private async roundsUntilIdle(maxRounds: number): Promise<RunSummary> {
    const total: RunSummary = { claimed: 0, delivered: 0, failed: 0, retried: 0 };
    for (let round = 0; round < maxRounds; round += 1) {
      const summary = await this.round();
      total.claimed += summary.claimed;
      total.delivered += summary.delivered;
      total.failed += summary.failed;
      total.retried += summary.retried;
      if (summary.claimed === 0 || summary.retried === summary.claimed) break;
    }
    return total;
  }

  private async round(): Promise<RunSummary> {
    const now = this.clock.now();
    const token = randomUUID();
    const claimed = await this.claim(token, now);
    const summary: RunSummary = { claimed: claimed.length, delivered: 0, failed: 0, retried: 0 };
    for (const message of claimed) summary[await this.handle(message, token)] += 1;
    if (now.getTime() - this.lastPrunedAt >= PRUNE_EVERY_MS) await this.prune(now);
    return summary;
  }

  private async claim(token: string, now: Date): Promise<OutboxMessage[]> {
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    // READ COMMITTED (MariaDB): under REPEATABLE READ the claim's read left gap locks on the due
    // range, which the writes publishing notifications insert into: an event write deadlocked with it.
    const claimed = this.tx.dialect.rowLocks
      ? await this.tx.run(() => this.repository.claimDueSkippingLocked(token, now, leaseUntil, CLAIM_BATCH), { readCommitted: true })
      : await this.repository.claimDueInOneStatement(token, now, leaseUntil, CLAIM_BATCH);
    if (!claimed) return [];
    return this.repository.claimed(token);
  }

  private async handle(message: OutboxMessage, token: string): Promise<'delivered' | 'failed' | 'retried'> {
    try {
      if (message.channel === 'event') {
        await this.fanOut(message, token);
        this.deliveredCounter.inc({ channel: 'event' });
        return 'delivered';
      }
      const responseStatus = await this.deliver(message);
      await this.record(message, token, { status: 'delivered', deliveredAt: this.clock.now(), responseStatus, lastError: null });
      this.deliveredCounter.inc({ channel: message.channel });
      return 'delivered';
    } catch (error) {
      return this.recordFailure(message, token, error);
    }
  }

  /** One attempt at a direct message; the receiver's status where it has one. */
  private async deliver(message: OutboxMessage): Promise<number | null> {
    if (message.channel === 'webhook') return this.webhooks.deliver(message);
    if (message.channel === 'purge') return this.purges.deliver(message);
    await this.emails.deliver(message);
    return null;
  }

  /** The event's emails and webhook deliveries, written with marking it done: once, whoever holds the claim. */
  private async fanOut(message: OutboxMessage, token: string): Promise<void> {
    const type = message.type as EventType;
    const data = JSON.parse(message.payload) as EventData;
    await this.tx.run(async () => {
      const marked = await this.repository.recordAttempt(message.id, token, {
        status: 'delivered',
        deliveredAt: this.clock.now(),
        attempts: message.attempts + 1,
        claimToken: null,
      });
      if (!marked) return;
      const messages = [...(await this.emails.emailsFor(type, data)), ...(await this.webhooks.deliveriesFor(message, type, data))];
      await this.outbox.queue(messages);
    });
  }

  private async recordFailure(message: OutboxMessage, token: string, error: unknown): Promise<'failed' | 'retried'> {
    const now = this.clock.now();
    const attempts = message.attempts + 1;
    const reason = error instanceof Error ? error.message : String(error);
    const responseStatus = error instanceof DeliveryAttemptError || error instanceof PermanentDeliveryError ? error.responseStatus : null;
    const tooOld = now.getTime() - message.createdAt.getTime() >= this.config.notifications.maxAgeHours * 3600_000;
    const giveUp = error instanceof PermanentDeliveryError || tooOld;
    this.logger.warn(
      { outboxId: message.id, channel: message.channel, type: message.type, attempts, err: reason },
      giveUp ? 'outbox message failed for good' : 'outbox attempt failed; will retry',
    );
    await this.record(message, token, {
      status: giveUp ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: giveUp ? now : new Date(now.getTime() + retryDelayMs(this.config.notifications.retryBaseMs, attempts)),
      lastError: reason.slice(0, 1000),
      responseStatus,
    }).catch((recordError: unknown) => this.logger.error({ err: recordError, outboxId: message.id }, 'could not record an outbox failure'));
    if (giveUp) this.failedCounter.inc({ channel: message.channel });
    return giveUp ? 'failed' : 'retried';
  }

  /** Writes an attempt's outcome, only while this worker's claim holds. */
  private async record(message: OutboxMessage, token: string, changes: Partial<OutboxMessage>): Promise<void> {
    await this.repository.recordAttempt(message.id, token, {
      attempts: message.attempts + 1,
      claimToken: null,
      ...changes,
    });
  }
}
