import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import { CLOCK, Clock } from '../common/clock';
import type { QueueChanged } from '../common/domain-events/domain-event';
import { DomainEvents } from '../common/domain-events/domain-events';
import { TransactionHost } from '../common/database/transaction-host';
import { isUniqueViolation, lockConflictsOf, TransactionOptions } from '../common/database/transactions';
import { parseDateInput } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { forbidden, invalidParams } from '../common/errors/api-error';
import { appConfig } from '../config/app.config';
import { MetricsService } from '../metrics/metrics.service';
import { canManageEvent } from '../access/event-access';
import { AdmissionTokens } from './admission-tokens';
import { CreateQueueDto, UpdateQueueDto } from './dto/create-queue.dto';
import { JoinQueueDto } from './dto/join-queue.dto';
import {
  QueueAdmissionResponse,
  QueueEntryResponse,
  QueueMetricsResponse,
  QueueResponse,
  QueueSharedStatusResponse,
} from './dto/queue.response';
import { LiveQueues } from './live-queues';
import { QueueEntryPlaces } from './queue-entry-places';
import { QueueSnapshots } from './queue-snapshots';
import { Queue, QueueAdmission, QueueEntry } from './queue.entity';
import { CHECKOUT_WINDOW_MS, nextAutoRate } from './queue-auto-rate';
import { advanceCounter, lostRound } from './queue-counter';
import { admittedLastMinute, parseSamples, predictedAdmission, withSample } from './queue-eta';
import { challengeProblem } from './queue-challenge';
import {
  queueChallengeFailed,
  queueClosed,
  queueEntryExists,
  queueEntryNotFound,
  queueJoinLimit,
  queueNotAdmitted,
  queueNotFound,
  queueNotOpen,
  queueSecretMismatch,
  queueTicketsInvalid,
} from './queue-errors';
import { shuffledOrder } from './queue-shuffle';
import { queueSize, toEntryResponse, toQueueResponse, toSharedStatus } from './queues.mapper';
import { QueuesRepository } from './queues.repository';

const DEFAULT_ADMISSION_MINUTES = 10;

/** The ticker's rounds, which several instances run at once: one that loses a lock conflict gives way (lostRound). */
const TICK_ROUND: TransactionOptions = { giveWay: true };

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a.toLowerCase(), 'utf8');
  const right = Buffer.from(b.toLowerCase(), 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `auto` (or absent) is null; otherwise a whole number of admissions a minute from 1. */
function readRate(raw: unknown, reasons: Record<string, string>): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === 'auto') return null;
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1_000_000) return value;
  reasons.max_admit_per_minute = 'max_admit_per_minute must be "auto" or a whole number from 1 to 1000000';
  return undefined;
}

/**
 * Waiting rooms for on-sales (docs/waiting-room.md): their settings (managers of the event), joining
 * and the entries' places, the opening (the pre-queue's shuffle), the serving counter's advance, and
 * admission tokens. The gate that asks for the tokens is QueueAdmissionGate.
 */
@Injectable()
export class QueuesService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly tx: TransactionHost,
    private readonly queues: QueuesRepository,
    private readonly tokens: AdmissionTokens,
    private readonly live: LiveQueues,
    private readonly snapshots: QueueSnapshots,
    private readonly places: QueueEntryPlaces,
    private readonly domainEvents: DomainEvents,
    private readonly prometheus: MetricsService,
  ) {}

  /** This instance's lock conflicts at its last tick of each `auto` queue (followCheckouts). */
  private readonly lastTallies = new Map<number, { retried: number; gaveUp: number; at: number }>();

  // ---------------------------------------------------------------- settings

  async create(body: CreateQueueDto, context: SignedInContext): Promise<QueueResponse> {
    const event = await this.queues.eventOwner(body.post_id);
    if (!event) throw invalidParams({ post_id: 'post_id must be an event id' });
    if (!canManageEvent(context.user, event)) throw forbidden(false);
    const now = this.clock.now();
    const window = this.readWindow(body, null, context);
    const rate = this.readRateOrThrow(body.max_admit_per_minute);
    const ticketIds = await this.checkTickets(body.post_id, body.ticket_ids);
    const queue = await this.tx.run(() =>
      this.queues.insertQueue({
        eventId: body.post_id,
        ticketIds: ticketIds ? JSON.stringify(ticketIds) : null,
        prequeueOpensAt: window.prequeueOpensAt ?? null,
        opensAt: window.opensAt as Date,
        closesAt: window.closesAt ?? null,
        maxActive: body.max_active,
        maxAdmitPerMinute: rate ?? null,
        admissionMinutes: body.admission_minutes ?? DEFAULT_ADMISSION_MINUTES,
        unitsPerAdmission: body.units_per_admission ?? this.config.tickets.maxTicketsPerOrder,
        queueAll: body.queue_all ?? true,
        paused: body.paused ?? false,
        shuffleSeed: randomBytes(32).toString('hex'),
        openedAt: null,
        lastPosition: 0,
        servingCounter: 0,
        counterAt: null,
        counterVersion: 0,
        rateSamples: '[]',
        joinedCount: 0,
        autoRate: null,
        challengeBits: body.challenge_bits ?? 0,
        closedAt: null,
        closedReason: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    this.live.invalidate();
    return toQueueResponse(queue, now, context);
  }

  async get(id: number, context: RequestContext): Promise<QueueResponse> {
    return toQueueResponse(await this.findQueue(id), this.clock.now(), context);
  }

  async update(id: number, body: UpdateQueueDto, context: SignedInContext): Promise<QueueResponse> {
    const queue = await this.managedQueue(id, context);
    const now = this.clock.now();
    const window = this.readWindow(body, queue, context);
    const rate = this.readRateOrThrow(body.max_admit_per_minute);
    const ticketIds = body.ticket_ids === undefined ? undefined : await this.checkTickets(queue.eventId, body.ticket_ids);
    const changes: Partial<Queue> = {
      ...window,
      ...(ticketIds === undefined ? {} : { ticketIds: ticketIds ? JSON.stringify(ticketIds) : null }),
      ...(rate === undefined ? {} : { maxAdmitPerMinute: rate }),
      ...(body.max_active === undefined ? {} : { maxActive: body.max_active }),
      ...(body.admission_minutes === undefined ? {} : { admissionMinutes: body.admission_minutes }),
      ...(body.units_per_admission === undefined ? {} : { unitsPerAdmission: body.units_per_admission }),
      ...(body.queue_all === undefined ? {} : { queueAll: body.queue_all }),
      ...(body.paused === undefined ? {} : { paused: body.paused }),
      ...(body.challenge_bits === undefined ? {} : { challengeBits: body.challenge_bits }),
      updatedAt: now,
    };
    await this.tx.run(async () => {
      await this.queues.updateQueue(id, changes);
      if (body.closed === true) await this.close(queue, 'closed', now);
    });
    this.live.invalidate();
    this.snapshots.forget(id);
    return toQueueResponse(await this.findQueue(id), now, context);
  }

  // ---------------------------------------------------------------- joining and places

  async join(id: number, body: JoinQueueDto, context: RequestContext): Promise<QueueEntryResponse> {
    const now = this.clock.now();
    const queue = await this.findQueue(id);
    const existing = await this.queues.findEntry(id, body.request_id);
    if (existing) {
      if (!sameHex(existing.secretHash, body.secret_hash)) throw queueEntryExists();
      return toEntryResponse(queue, existing, now);
    }
    this.assertJoinable(queue, now);
    const challenge = challengeProblem(id, body.request_id, body.challenge_nonce, queue.challengeBits);
    if (challenge) throw queueChallengeFailed(challenge, queue.challengeBits);
    // Refused before the queue row's lock when already over the limits (a bot's joins, most of them)...
    await this.checkJoinLimits(id, context);
    if (now >= queue.opensAt && !queue.openedAt) await this.open(id, now);
    try {
      const { locked, entry } = await this.tx.run(async () => {
        const locked = (await this.queues.lockForJoin(id)) as Queue;
        // ...and counted again under it, which every join takes: concurrent joins from one address
        // or account cannot all see room under its limit.
        await this.checkJoinLimits(id, context);
        const prequeue = locked.openedAt === null;
        const position = prequeue ? null : await this.queues.takePosition(locked);
        const admitNow = position !== null && (await this.admitsAtOnce(locked, position, now));
        const entry = await this.queues.insertEntry({
          queueId: id,
          requestId: body.request_id,
          secretHash: body.secret_hash.toLowerCase(),
          status: prequeue ? 'prequeue' : admitNow ? 'admitted' : 'waiting',
          position,
          clientAddress: context.clientAddress ?? null,
          userId: context.user?.id ?? null,
          joinedAt: now,
          admittedAt: admitNow ? now : null,
          finishedAt: null,
          etaAt: position === null || admitNow ? null : predictedAdmission(locked, position, now),
        });
        return { locked, entry };
      });
      return toEntryResponse(locked, entry, now);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The same request_id joined at the same moment: answer as for a retry.
      const raced = await this.queues.findEntry(id, body.request_id);
      if (!raced) throw error;
      if (!sameHex(raced.secretHash, body.secret_hash)) throw queueEntryExists();
      return toEntryResponse(await this.findQueue(id), raced, now);
    }
  }

  /**
   * An entry's place: the queue from this instance's copy (QueueSnapshots); the entry from memory
   * while it waits for the opening or its turn (QueueEntryPlaces), else in one indexed statement.
   */
  async entryStatus(id: number, requestId: string): Promise<QueueEntryResponse> {
    const queue = await this.snapshots.get(id);
    if (!queue) throw queueNotFound();
    let entry = this.places.stillWaiting(queue, requestId);
    if (!entry) {
      entry = await this.queues.findEntry(id, requestId);
      if (!entry) throw queueEntryNotFound();
      this.places.remember(queue, entry);
    }
    return toEntryResponse(queue, entry, this.clock.now());
  }

  async sharedStatus(id: number): Promise<QueueSharedStatusResponse> {
    const queue = await this.snapshots.get(id);
    if (!queue) throw queueNotFound();
    return toSharedStatus(queue, this.clock.now());
  }

  // ---------------------------------------------------------------- admissions

  /**
   * The admission token of an admitted entry, to whoever shows the secret whose hash the join
   * sent: issued once (a retry gets the same token), valid until the turn's end.
   */
  async claimAdmission(id: number, requestId: string, secret: string): Promise<QueueAdmissionResponse> {
    const now = this.clock.now();
    const queue = await this.findQueue(id);
    const entry = await this.queues.findEntry(id, requestId);
    if (!entry) throw queueEntryNotFound();
    if (!sameHex(sha256Hex(secret), entry.secretHash)) throw queueSecretMismatch();
    let admission = await this.queues.findAdmissionOfEntry(entry.id);
    if (!admission) {
      if (entry.status !== 'admitted') throw queueNotAdmitted(toEntryResponse(queue, entry, now).status);
      admission = await this.issue(queue, entry, now);
    } else if (admission.revokedAt || admission.expiresAt <= now || entry.status !== 'admitted') {
      throw queueNotAdmitted(admission.revokedAt ? 'revoked' : entry.status === 'admitted' ? 'expired' : entry.status);
    }
    const token = await this.tokens.sign({
      queueId: id,
      requestId: entry.requestId,
      jti: admission.jti,
      issuedAt: admission.issuedAt,
      expiresAt: admission.expiresAt,
    });
    return { token, expires_at: admission.expiresAt.toISOString(), units_left: admission.unitLimit - admission.unitsUsed };
  }

  /** Revokes an entry's admission (deny-lists its jti) and ends its turn; managers only. */
  async revokeAdmission(id: number, requestId: string, context: SignedInContext): Promise<QueueEntryResponse> {
    const queue = await this.managedQueue(id, context);
    const now = this.clock.now();
    const entry = await this.queues.findEntry(id, requestId);
    if (!entry) throw queueEntryNotFound();
    await this.tx.run(async () => {
      const admission = await this.queues.findAdmissionOfEntry(entry.id);
      if (admission) await this.queues.revokeAdmission(admission.jti, now);
      await this.queues.finishEntry(entry.id, 'revoked', now);
    });
    return toEntryResponse(queue, (await this.queues.findEntryById(entry.id)) as QueueEntry, now);
  }

  async metrics(id: number, context: SignedInContext): Promise<QueueMetricsResponse> {
    const queue = await this.managedQueue(id, context);
    const now = this.clock.now();
    const counts = await this.queues.statusCounts(id);
    const count = (status: QueueEntry['status']) => counts.get(status) ?? 0;
    const completed = count('completed');
    const abandoned = count('expired');
    return {
      waiting: queueSize(queue),
      active: count('admitted'),
      admitted_per_minute: admittedLastMinute(parseSamples(queue.rateSamples), now),
      completed,
      abandoned,
      abandonment_rate: completed + abandoned === 0 ? 0 : Math.round((abandoned / (completed + abandoned)) * 1000) / 1000,
      revoked: count('revoked'),
      joined: queue.joinedCount,
    };
  }

  // ---------------------------------------------------------------- the background round (QueueTicker)

  /** One round over every open queue: open, close, expire lapsed turns, advance the counter. */
  async tickAll(): Promise<void> {
    for (const queue of await this.queues.openQueues()) await this.tick(queue.id);
  }

  async tick(id: number): Promise<void> {
    try {
      await this.tickQueue(id);
    } finally {
      this.snapshots.forget(id);
    }
  }

  private async tickQueue(id: number): Promise<void> {
    const now = this.clock.now();
    let queue = await this.queues.findQueue(id);
    if (!queue || queue.closedAt) return;
    if (queue.closesAt && now >= queue.closesAt) {
      await this.tx.run(() => this.close(queue as Queue, 'closed', now));
      this.live.invalidate();
      return;
    }
    if (now < queue.opensAt) return;
    if (!queue.openedAt) queue = (await this.open(id, now)) ?? queue;
    const cutoff = new Date(now.getTime() - queue.admissionMinutes * 60_000);
    await this.tx.run(() => this.queues.expireAdmittedBefore(id, cutoff, now), TICK_ROUND).catch(lostRound(0));
    if (queue.paused) return;
    const autoRate = queue.maxAdmitPerMinute === null ? await this.followCheckouts(queue, now) : null;
    const round = this.tx.run(async () => {
      const active = await this.queues.countActive(id);
      const advance = advanceCounter({
        servingCounter: queue.servingCounter,
        lastPosition: queue.lastPosition,
        counterAt: queue.counterAt,
        ratePerMinute: queue.maxAdmitPerMinute ?? autoRate,
        maxActive: queue.maxActive,
        active,
        now,
      });
      const samples = withSample(parseSamples(queue.rateSamples), now, advance.admitted, active + advance.admitted);
      const written = await this.queues.advanceCounter(id, queue.counterVersion, {
        servingCounter: advance.servingCounter,
        counterAt: advance.counterAt,
        rateSamples: JSON.stringify(samples),
        ...(autoRate === null ? {} : { autoRate }),
      });
      if (!written || advance.admitted === 0) return [];
      const predictions = await this.queues.predictionsOf(id, queue.servingCounter, advance.servingCounter);
      await this.queues.admitPositions(id, queue.servingCounter, advance.servingCounter, now);
      await this.announce(queue, 'admitted', now, {
        fromPosition: queue.servingCounter,
        toPosition: advance.servingCounter,
        servingCounter: advance.servingCounter,
      });
      return predictions;
    }, TICK_ROUND);
    const admitted = await round.catch(lostRound([]));
    this.observeEtaErrors(queue, admitted, now);
  }

  /**
   * The opening at opens_at, once whichever instance or request gets there first: under the queue
   * row's lock (the one joins take), the pre-queue's entries get positions 1..N from the seeded
   * shuffle and become waiting; joins from then on are FIFO after them.
   */
  async open(id: number, now: Date): Promise<Queue | null> {
    return this.tx.run(async () => {
      const locked = await this.queues.lockQueue(id);
      if (!locked || locked.openedAt) return locked;
      const order = shuffledOrder(locked.shuffleSeed, await this.queues.prequeueIds(id));
      await this.queues.assignPositions(order, locked.lastPosition + 1, (position) => predictedAdmission(locked, position, now));
      const lastPosition = locked.lastPosition + order.length;
      await this.queues.updateQueue(id, { lastPosition, counterAt: now, updatedAt: now });
      await this.queues.markOpened(id, now);
      await this.announce(locked, 'opened', now, { prequeueSize: order.length });
      return Object.assign(locked, { lastPosition, counterAt: now, openedAt: now });
    });
  }

  /** Closes the queue as sold out, in the current transaction (QueueSoldOut, from the sale that took the last unit). */
  closeSoldOut(queue: Queue, now: Date): Promise<boolean> {
    return this.close(queue, 'sold_out', now);
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The `auto` rate for this tick (queue-auto-rate.ts): the checkouts of the queue's admissions over
   * the last minutes (all instances: read from the database), and this instance's lock conflicts and
   * 503s since its last tick (each instance sees its own; the one whose advance wins sets the rate).
   */
  private async followCheckouts(queue: Queue, now: Date): Promise<number> {
    const tally = lockConflictsOf(this.tx.dataSource);
    const last = this.lastTallies.get(queue.id);
    this.lastTallies.set(queue.id, { retried: tally.retried, gaveUp: tally.gaveUp, at: now.getTime() });
    const checkouts = await this.queues.countCheckoutsSince(queue.id, new Date(now.getTime() - CHECKOUT_WINDOW_MS));
    return nextAutoRate({
      previousRate: queue.autoRate,
      checkoutsPerMinute: (checkouts * 60_000) / CHECKOUT_WINDOW_MS,
      lockConflicts: last ? tally.retried - last.retried : 0,
      busyAnswers: last ? tally.gaveUp - last.gaveUp : 0,
      elapsedMs: last ? now.getTime() - last.at : this.config.tickets.queueTickMs,
      maxActive: queue.maxActive,
    });
  }

  /** The ETA's error for entries being admitted: how far the wait predicted when they got their place was from the real one. */
  private observeEtaErrors(queue: Queue, predictions: Array<Pick<QueueEntry, 'joinedAt' | 'etaAt'>>, now: Date): void {
    for (const { joinedAt, etaAt } of predictions) {
      if (!etaAt) continue;
      const placedAt = Math.max(joinedAt.getTime(), (queue.openedAt ?? joinedAt).getTime());
      const predicted = etaAt.getTime() - placedAt;
      const actual = now.getTime() - placedAt;
      this.prometheus.queueEtaError(predicted, actual);
    }
  }

  /** Closes the queue once (a conditional UPDATE) and announces it (webhook queue.closed). */
  private async close(queue: Queue, reason: 'closed' | 'sold_out', now: Date): Promise<boolean> {
    if (!(await this.queues.markClosed(queue.id, reason, now))) return false;
    await this.announce(queue, 'closed', now, { reason });
    return true;
  }

  /** Publishes what happened to the queue in the current transaction (the outbox writes its webhook). */
  private announce(
    queue: Queue,
    change: QueueChanged['change'],
    at: Date,
    facts: Omit<QueueChanged, 'kind' | 'change' | 'queue' | 'at'> = {},
  ): Promise<void> {
    return this.domainEvents.publish({
      kind: 'QueueChanged',
      change,
      queue: { id: queue.id, eventId: queue.eventId },
      at,
      ...facts,
    });
  }

  private async issue(queue: Queue, entry: QueueEntry, now: Date): Promise<QueueAdmission> {
    const admission = Object.assign(new QueueAdmission(), {
      jti: randomBytes(16).toString('hex'),
      queueId: queue.id,
      entryId: entry.id,
      issuedAt: new Date(Math.floor(now.getTime() / 1000) * 1000),
      expiresAt: new Date(Math.floor(((entry.admittedAt as Date).getTime() + queue.admissionMinutes * 60_000) / 1000) * 1000),
      unitLimit: queue.unitsPerAdmission,
      unitsUsed: 0,
      revokedAt: null,
    });
    try {
      await this.tx.run(() => this.queues.insertAdmission(admission));
      return admission;
    } catch (error) {
      // A concurrent claim of the same entry won: both answer with its token.
      const raced = isUniqueViolation(error) ? await this.queues.findAdmissionOfEntry(entry.id) : null;
      if (!raced) throw error;
      return raced;
    }
  }

  /** With queue_all off, a joiner who finds nobody waiting and room among the active is admitted at once (the counter moves past them). */
  private async admitsAtOnce(queue: Queue, position: number, now: Date): Promise<boolean> {
    if (queue.queueAll || queue.paused || queue.servingCounter !== position - 1) return false;
    const active = await this.queues.countActive(queue.id);
    if (active >= queue.maxActive) return false;
    const written = await this.queues.advanceCounter(queue.id, queue.counterVersion, {
      servingCounter: position,
      counterAt: queue.counterAt ?? now,
      rateSamples: JSON.stringify(withSample(parseSamples(queue.rateSamples), now, 1, active + 1)),
    });
    if (written) Object.assign(queue, { servingCounter: position, counterVersion: queue.counterVersion + 1 });
    return written;
  }

  private assertJoinable(queue: Queue, now: Date): void {
    if (queue.closedAt) throw queueClosed(queue.closedReason ?? 'closed');
    if (queue.closesAt && now >= queue.closesAt) throw queueClosed('closed');
    const joinFrom = queue.prequeueOpensAt ?? queue.opensAt;
    if (now < joinFrom) throw queueNotOpen(joinFrom);
  }

  private async checkJoinLimits(id: number, context: RequestContext): Promise<void> {
    const { queueJoinsPerAddress, queueJoinsPerAccount } = this.config.tickets;
    if (context.user && (await this.queues.countByUser(id, context.user.id)) >= queueJoinsPerAccount) {
      throw queueJoinLimit('account', queueJoinsPerAccount);
    }
    if (context.clientAddress && (await this.queues.countByAddress(id, context.clientAddress)) >= queueJoinsPerAddress) {
      throw queueJoinLimit('address', queueJoinsPerAddress);
    }
  }

  private async findQueue(id: number): Promise<Queue> {
    const queue = await this.queues.findQueue(id);
    if (!queue) throw queueNotFound();
    return queue;
  }

  private async managedQueue(id: number, context: SignedInContext): Promise<Queue> {
    const queue = await this.findQueue(id);
    const event = await this.queues.eventOwner(queue.eventId);
    if (!canManageEvent(context.user, { id: queue.eventId, authorId: event?.authorId ?? null })) throw forbidden(false);
    return queue;
  }

  private async checkTickets(eventId: number, ticketIds: number[] | undefined): Promise<number[] | null> {
    if (!ticketIds || ticketIds.length === 0) return null;
    const unique = [...new Set(ticketIds)].sort((a, b) => a - b);
    const found = await this.queues.ticketsOfEvent(eventId, unique);
    const missing = unique.filter((ticketId) => !found.has(ticketId));
    if (missing.length > 0) throw queueTicketsInvalid(missing);
    return unique;
  }

  private readRateOrThrow(raw: unknown): number | null | undefined {
    const reasons: Record<string, string> = {};
    const rate = readRate(raw, reasons);
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
    return rate;
  }

  /** The three dates in the site time zone (or ISO 8601 with an offset), checked in order: prequeue ≤ opens < closes. */
  private readWindow(
    body: Pick<CreateQueueDto, 'prequeue_opens_at' | 'opens_at' | 'closes_at'> | Partial<CreateQueueDto>,
    existing: Queue | null,
    context: RequestContext,
  ): Partial<Pick<Queue, 'prequeueOpensAt' | 'opensAt' | 'closesAt'>> {
    const zone = resolveTimeZone(context.siteTimezone) ?? resolveTimeZone('UTC')!;
    const reasons: Record<string, string> = {};
    const read = (field: 'prequeue_opens_at' | 'opens_at' | 'closes_at', nullable: boolean): Date | null | undefined => {
      const raw = body[field];
      if (raw === undefined) return undefined;
      if (raw === null || (typeof raw === 'string' && raw.trim() === '')) {
        if (nullable) return null;
        reasons[field] = `${field} must be a date`;
        return undefined;
      }
      const parsed = parseDateInput(raw, zone);
      if (!parsed) reasons[field] = `${field} must be a date (ISO 8601 with an offset, or YYYY-MM-DD HH:MM:SS)`;
      return parsed?.instant;
    };
    const prequeueOpensAt = read('prequeue_opens_at', true);
    const opensAt = read('opens_at', false);
    const closesAt = read('closes_at', true);
    const prequeue = prequeueOpensAt === undefined ? existing?.prequeueOpensAt : prequeueOpensAt;
    const opens = opensAt === undefined ? existing?.opensAt : opensAt;
    const closes = closesAt === undefined ? existing?.closesAt : closesAt;
    if (!reasons.prequeue_opens_at && prequeue && opens && prequeue > opens)
      reasons.prequeue_opens_at = 'prequeue_opens_at must not be after opens_at';
    if (!reasons.closes_at && closes && opens && closes <= opens) reasons.closes_at = 'closes_at must be after opens_at';
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
    const window: Partial<Pick<Queue, 'prequeueOpensAt' | 'opensAt' | 'closesAt'>> = {};
    if (prequeueOpensAt !== undefined) window.prequeueOpensAt = prequeueOpensAt;
    if (opensAt) window.opensAt = opensAt;
    if (closesAt !== undefined) window.closesAt = closesAt;
    return window;
  }
}
