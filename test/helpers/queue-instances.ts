import { createHash, randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { DataSource, In } from 'typeorm';
import { isLockConflict, lockConflictsOf, LockConflictTally } from '../../src/common/database/transactions';
import { OutboxMessage } from '../../src/outbox/outbox-message.entity';
import { advanceCounter } from '../../src/queues/queue-counter';
import { Queue, QueueEntry } from '../../src/queues/queue.entity';
import { QueueTicker } from '../../src/queues/queue-ticker.service';
import { insertEvent } from './fixtures';
import { ADMIN, basicAuth, TestApp } from './test-app';
import { insertTicket, TestClock } from './ticketing-fixtures';

const QUEUES = '/cal/tickets/v1/queues';

/** The instances of the proof: on one database, all given `clock` as their CLOCK. */
export interface OneCounterInstances {
  instances: TestApp[];
  clock: TestClock;
}

/** The on-sale the instances tick. */
export interface OneCounterSettings {
  /** Joins in the pre-queue, spread over the instances. */
  entries: number;
  maxActive: number;
  ratePerMinute: number;
  /** How far the shared clock moves between rounds: not a whole number of admissions, so fractions carry. */
  stepMs: number;
  /** Admitted entries whose turn ends (a checkout) after each step, so that room comes back. */
  finishedPerStep: number;
  /** Rounds each instance runs at every step (QueueTicker.runNow, all instances at once). */
  roundsPerInstance: number;
}

/** The on-sale both runs of the proof tick (one database here, a Galera cluster in test/galera.e2e-spec.ts). */
const ONE_COUNTER_ON_SALE = {
  entries: 40,
  maxActive: 10,
  ratePerMinute: 480,
  stepMs: 700,
  finishedPerStep: 3,
  roundsPerInstance: 3,
} as const satisfies OneCounterSettings;

/**
 * Sets what the instances read at their start (`values`; undefined unsets) and returns what puts the
 * environment back as it was.
 */
export function setEnvironment(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (next: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(next)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  return () => apply(saved);
}

/** What the instances of the proof need: no join limit within reach, and their own timers ticking fast. */
export const ONE_COUNTER_ENVIRONMENT = { QUEUE_JOINS_PER_ADDRESS: '100000', QUEUE_TICK_MS: '100' };

export interface OneCounterSummary {
  queueId: number;
  steps: number;
  rounds: number;
  observations: number;
  admittedMessages: number;
  /** Joins answered 503 and sent again. */
  joinRetries: number;
  /**
   * The lock conflicts each instance's transactions met (lockConflictsOf: what the `auto` rate reads
   * as contention) while the counter advanced, between the opening and the closing.
   */
  conflictsWhileAdmitting: LockConflictTally[];
}

interface Observation {
  servingCounter: number;
  lastPosition: number;
  admittedPositions: number[];
  active: number;
}

/** The queue row and its entries, read in one transaction (one snapshot: the counter and the admissions it made agree). */
async function observe(reader: DataSource, queueId: number): Promise<Observation> {
  return reader.transaction(async (manager) => {
    const queue = await manager.findOneByOrFail(Queue, { id: queueId });
    const entries = await manager.find(QueueEntry, {
      where: { queueId, status: In(['admitted', 'completed']) },
      select: { position: true, status: true },
    });
    return {
      servingCounter: queue.servingCounter,
      lastPosition: queue.lastPosition,
      admittedPositions: entries.map((entry) => entry.position as number).sort((a, b) => a - b),
      active: entries.filter((entry) => entry.status === 'admitted').length,
    };
  });
}

function upTo(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}

async function queueMessages(reader: DataSource, queueId: number): Promise<Array<{ type: string; data: Record<string, any> }>> {
  const messages = await reader.getRepository(OutboxMessage).find({ where: { channel: 'event' }, order: { id: 'ASC' } });
  return messages
    .map((message) => ({ type: message.type, data: JSON.parse(message.payload) as Record<string, any> }))
    .filter((message) => message.type.startsWith('queue.') && message.data.queue_id === queueId);
}

/**
 * Several instances on one database ticking one queue at once (issue 44: "the counter is one row,
 * advanced with a conditional update"). The instances share a test clock, so what one instance alone
 * would do is known exactly: the pre-queue's shuffle once at opens_at, then at each step the counter
 * `advanceCounter` gives from the last step's state (rate × Δt, the room max_active leaves, the fraction
 * carried), however many rounds the instances run at that instant, then the closing once at closes_at.
 * Every step runs `roundsPerInstance` rounds on every instance at once while a reader watches the
 * queue: active never above max_active, the admitted positions always exactly 1..counter. The outbox
 * holds one queue.opened, one queue.admitted per step that admitted (the ranges back to back) and one
 * queue.closed. No round fails (runNow hands a round's failure to its caller), and no timer round of
 * the tickers (QUEUE_TICK_MS) logs a failure.
 */
export async function proveOneCounter(
  { instances, clock }: OneCounterInstances,
  settings: OneCounterSettings = ONE_COUNTER_ON_SALE,
): Promise<OneCounterSummary> {
  const authorization = basicAuth(ADMIN.login, ADMIN.password);
  const reader = instances[0].dataSource;
  const warnings = jest.spyOn(Logger.prototype, 'warn');
  const errors = jest.spyOn(Logger.prototype, 'error');
  try {
    const event = await insertEvent(reader, {});
    const ticket = await insertTicket(reader, { eventId: event.id, price: '10.00', capacityMode: 'own', capacity: 10 * settings.entries });
    const opensAt = new Date(clock.now().getTime() + 60_000);
    const closesAt = new Date(opensAt.getTime() + 10 * 60_000);
    const created = await request(instances[0].server)
      .post(QUEUES)
      .set('Authorization', authorization)
      .send({
        post_id: event.id,
        ticket_ids: [ticket.id],
        prequeue_opens_at: clock.now().toISOString(),
        opens_at: opensAt.toISOString(),
        closes_at: closesAt.toISOString(),
        max_active: settings.maxActive,
        max_admit_per_minute: settings.ratePerMinute,
        admission_minutes: 60,
      });
    expect(created.status).toBe(201);
    const queueId = created.body.id as number;

    // The pre-queue: every client joins through one instance or another, all at once. A join that
    // loses its lock conflicts too many times (on Galera, joins on three nodes at once all write the
    // queue row) answers 503; the client sends the same join again, as the queue page does.
    let joinRetries = 0;
    const joins = await Promise.all(
      upTo(settings.entries).map(async (index) => {
        const secret = randomBytes(16).toString('hex');
        const body = { request_id: randomBytes(12).toString('hex'), secret_hash: createHash('sha256').update(secret).digest('hex') };
        for (let attempt = 1; ; attempt += 1) {
          const joined = await request(instances[(index + attempt) % instances.length].server)
            .post(`${QUEUES}/${queueId}/entries`)
            .send(body);
          if (joined.status !== 503 || attempt === 20) return joined;
          joinRetries += 1;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }),
    );
    expect(joins.map((join) => [join.status, join.body.status])).toEqual(joins.map(() => [202, 'prequeue']));

    let rounds = 0;
    let observations = 0;
    /** Every instance's rounds at once, watched by the reader until they are all done. */
    const together = async () => {
      let done = false;
      const ticking = Promise.all(
        instances.flatMap((instance) => Array.from({ length: settings.roundsPerInstance }, () => instance.app.get(QueueTicker).runNow())),
      ).finally(() => (done = true));
      rounds += instances.length * settings.roundsPerInstance;
      while (!done) {
        const seen = await observe(reader, queueId);
        observations += 1;
        expect(seen.active).toBeLessThanOrEqual(settings.maxActive);
        expect(seen.admittedPositions).toEqual(upTo(seen.servingCounter));
      }
      await ticking;
    };

    // The opening, by whichever instance gets there first: one shuffle of the pre-queue.
    clock.set(opensAt);
    await together();
    const opened = await reader.getRepository(Queue).findOneByOrFail({ id: queueId });
    expect(opened.openedAt).toEqual(opensAt);
    expect(opened.lastPosition).toBe(settings.entries);
    const entries = await reader.getRepository(QueueEntry).find({ where: { queueId }, order: { id: 'ASC' } });
    expect(entries).toHaveLength(settings.entries);
    expect(entries.every((entry) => entry.status === 'waiting')).toBe(true);
    expect(entries.map((entry) => entry.position as number).sort((a, b) => a - b)).toEqual(upTo(settings.entries));
    // A shuffle, not the order of joining (1 chance in entries! to be the identity).
    expect(entries.map((entry) => entry.position)).not.toEqual(upTo(settings.entries));

    const tallies = () => instances.map((instance) => ({ ...lockConflictsOf(instance.dataSource) }));
    const talliesAtOpening = tallies();

    // One instance alone: the counter's state after each step, from advanceCounter.
    let model = { servingCounter: 0, counterAt: opensAt };
    const admittedAt = new Map<number, Date>();
    const expectedRanges: Array<{ from: number; to: number }> = [];
    let now = opensAt;
    let steps = 0;
    while (model.servingCounter < settings.entries) {
      steps += 1;
      if (steps > 10 * settings.entries) throw new Error('the counter stopped short of the last position');
      const before = await observe(reader, queueId);
      now = new Date(now.getTime() + settings.stepMs);
      const alone = advanceCounter({
        servingCounter: model.servingCounter,
        lastPosition: settings.entries,
        counterAt: model.counterAt,
        ratePerMinute: settings.ratePerMinute,
        maxActive: settings.maxActive,
        active: before.active,
        now,
      });
      clock.set(now);
      await together();

      const queue = await reader.getRepository(Queue).findOneByOrFail({ id: queueId });
      expect({ step: steps, servingCounter: queue.servingCounter, counterAt: queue.counterAt }).toEqual({
        step: steps,
        servingCounter: alone.servingCounter,
        counterAt: alone.counterAt,
      });
      // Never more than the rate allows since the opening, whatever the number of instances.
      expect(queue.servingCounter).toBeLessThanOrEqual(Math.floor((settings.ratePerMinute * (now.getTime() - opensAt.getTime())) / 60_000));
      for (let position = model.servingCounter + 1; position <= alone.servingCounter; position += 1) admittedAt.set(position, now);
      if (alone.admitted > 0) expectedRanges.push({ from: model.servingCounter + 1, to: alone.servingCounter });
      model = { servingCounter: alone.servingCounter, counterAt: alone.counterAt };

      // Each entry admitted once, at the step that reached its position; the others still waiting.
      const rows = await reader.getRepository(QueueEntry).find({ where: { queueId } });
      for (const row of rows) {
        const position = row.position as number;
        const at = admittedAt.get(position);
        expect({ position, status: row.status === 'completed' ? 'admitted' : row.status, admittedAt: row.admittedAt }).toEqual({
          position,
          status: at ? 'admitted' : 'waiting',
          admittedAt: at ?? null,
        });
      }

      // Some turns end (their checkouts), so that room comes back for the next step.
      const finishing = rows
        .filter((row) => row.status === 'admitted')
        .sort((a, b) => (a.position as number) - (b.position as number))
        .slice(0, settings.finishedPerStep);
      for (let attempt = 1; finishing.length > 0; attempt += 1) {
        try {
          await reader
            .getRepository(QueueEntry)
            .update({ id: In(finishing.map((row) => row.id)) }, { status: 'completed', finishedAt: now });
          break;
        } catch (error) {
          // On Galera a round of another node may hold these rows' index range: the statement is sent again.
          if (!isLockConflict(error) || attempt === 10) throw error;
        }
      }
    }
    const conflictsWhileAdmitting = tallies().map((tally, index) => ({
      retried: tally.retried - talliesAtOpening[index].retried,
      gaveUp: tally.gaveUp - talliesAtOpening[index].gaveUp,
    }));

    // closes_at: the closing, once.
    clock.set(closesAt);
    await together();
    const closed = await reader.getRepository(Queue).findOneByOrFail({ id: queueId });
    expect({ closedAt: closed.closedAt, closedReason: closed.closedReason, servingCounter: closed.servingCounter }).toEqual({
      closedAt: closesAt,
      closedReason: 'closed',
      servingCounter: settings.entries,
    });

    const messages = await queueMessages(reader, queueId);
    expect(messages.filter((message) => message.type === 'queue.opened').map((message) => message.data.prequeue_size)).toEqual([
      settings.entries,
    ]);
    expect(messages.filter((message) => message.type === 'queue.closed').map((message) => message.data.reason)).toEqual(['closed']);
    const admitted = messages.filter((message) => message.type === 'queue.admitted');
    expect(admitted.map((message) => ({ from: message.data.from_position, to: message.data.to_position }))).toEqual(expectedRanges);
    expect(admitted.map((message) => message.data.admitted)).toEqual(expectedRanges.map((range) => range.to - range.from + 1));

    const failures = [...warnings.mock.calls, ...errors.mock.calls].filter((call) => JSON.stringify(call).includes('queue tick'));
    expect(failures).toEqual([]);
    expect(steps).toBeGreaterThan(5);
    // No round was run again after a lock conflict (on Galera, the rounds that lost gave way), nor
    // counted as contention for the `auto` rate.
    expect(conflictsWhileAdmitting).toEqual(instances.map(() => ({ retried: 0, gaveUp: 0 })));
    return { queueId, steps, rounds, observations, admittedMessages: admitted.length, joinRetries, conflictsWhileAdmitting };
  } finally {
    warnings.mockRestore();
    errors.mockRestore();
  }
}
