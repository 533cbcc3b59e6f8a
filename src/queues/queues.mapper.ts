import type { RequestContext } from '../auth/request-context';
import { guardedTicketIds } from './live-queues';
import { Queue, QueueEntry } from './queue.entity';
import { admittedLastMinute, configuredRate, parseSamples, queueWait } from './queue-eta';
import { QueueEntryResponse, QueueResponse, QueueSharedStatusResponse, QueueState } from './dto/queue.response';

const MIN_REFRESH_SECONDS = 2;
const MAX_REFRESH_SECONDS = 20;

export function queueState(queue: Queue, now: Date): QueueState {
  if (queue.closedAt || (queue.closesAt && now >= queue.closesAt)) return queue.closedReason === 'sold_out' ? 'sold_out' : 'closed';
  if (now < (queue.prequeueOpensAt ?? queue.opensAt)) return 'scheduled';
  if (now < queue.opensAt || !queue.openedAt) return 'prequeue';
  return queue.paused ? 'paused' : 'open';
}

/** Entries not admitted yet: the pre-queue before the opening, the positions past the counter after it. */
export function queueSize(queue: Queue): number {
  return queue.openedAt ? Math.max(0, queue.lastPosition - queue.servingCounter) : queue.joinedCount;
}

export function toQueueResponse(queue: Queue, now: Date, context: RequestContext): QueueResponse {
  return {
    id: queue.id,
    post_id: queue.eventId,
    ticket_ids: guardedTicketIds(queue),
    prequeue_opens_at: queue.prequeueOpensAt?.toISOString() ?? null,
    opens_at: queue.opensAt.toISOString(),
    closes_at: queue.closesAt?.toISOString() ?? null,
    max_active: queue.maxActive,
    max_admit_per_minute: queue.maxAdmitPerMinute ?? 'auto',
    admission_rate: configuredRate(queue),
    admission_minutes: queue.admissionMinutes,
    units_per_admission: queue.unitsPerAdmission,
    queue_all: queue.queueAll,
    paused: queue.paused,
    challenge_bits: queue.challengeBits,
    status: queueState(queue, now),
    serving_counter: queue.servingCounter,
    queue_size: queueSize(queue),
    page_url: `${context.origin}/queue/${queue.id}/`,
  };
}

export function toSharedStatus(queue: Queue, now: Date): QueueSharedStatusResponse {
  return {
    id: queue.id,
    status: queueState(queue, now),
    serving_counter: queue.servingCounter,
    queue_size: queueSize(queue),
    admitted_per_minute: admittedLastMinute(parseSamples(queue.rateSamples), now),
    opens_at: queue.opensAt.toISOString(),
    last_updated: now.toISOString(),
  };
}

function clampRefresh(seconds: number): number {
  return Math.min(MAX_REFRESH_SECONDS, Math.max(MIN_REFRESH_SECONDS, Math.round(seconds)));
}

/**
 * A number in [0, 1) of the entry's own, the same at every poll (FNV-1a of its request id): it
 * spreads the crowd's polls. Entries placed together (the pre-queue at the opening) would
 * otherwise be told the same waits and come back in waves of thousands at the same second, and
 * every admitted buyer's cart write and checkout would wait behind each wave.
 */
export function pollSpread(requestId: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < requestId.length; index += 1) hash = Math.imul(hash ^ requestId.charCodeAt(index), 0x01000193);
  return (hash >>> 0) / 2 ** 32;
}

/** Seconds spread over after the opening: the pre-queue's first polls once it opened (the opening takes a tick). */
const OPENING_SPREAD_SECONDS = 5;

/** An entry's place as its client sees it: position, entries ahead, the ETA and when to ask again. */
export function toEntryResponse(queue: Queue, entry: QueueEntry, now: Date): QueueEntryResponse {
  const state = queueState(queue, now);
  const base = {
    request_id: entry.requestId,
    position: entry.position,
    serving_counter: queue.servingCounter,
    queue_size: queueSize(queue),
    opens_at: queue.opensAt.toISOString(),
    admission_expires_at: null as string | null,
  };
  if (entry.status === 'admitted') {
    const expiresAt = new Date((entry.admittedAt as Date).getTime() + queue.admissionMinutes * 60_000);
    return {
      ...base,
      status: 'admitted',
      ahead: 0,
      eta_seconds: { p50: 0, p90: 0 },
      refresh_after_seconds: 5,
      admission_expires_at: expiresAt.toISOString(),
    };
  }
  const closed = state === 'closed' || state === 'sold_out';
  if (closed && (entry.status === 'prequeue' || entry.status === 'waiting')) {
    return { ...base, status: state, ahead: null, eta_seconds: null, refresh_after_seconds: 60 };
  }
  if (entry.status === 'prequeue') {
    // Back a second or more after opens_at (the opening takes a tick), the crowd spread over five.
    const untilOpen = Math.max(0, (queue.opensAt.getTime() - now.getTime()) / 1000);
    const refresh = untilOpen + 1 + OPENING_SPREAD_SECONDS * pollSpread(entry.requestId);
    return { ...base, status: 'prequeue', ahead: null, eta_seconds: null, refresh_after_seconds: clampRefresh(refresh) };
  }
  if (entry.status === 'waiting') {
    const ahead = Math.max(0, (entry.position as number) - queue.servingCounter - 1);
    const eta = state === 'paused' ? null : queueWait(queue, ahead + 1, now);
    // A quarter of the wait, give or take a quarter of that (the entry's own spread).
    const refresh = (eta ? eta.p50 / 4 : 10) * (0.75 + 0.5 * pollSpread(entry.requestId));
    return { ...base, status: 'waiting', ahead, eta_seconds: eta, refresh_after_seconds: clampRefresh(refresh) };
  }
  return { ...base, status: entry.status, ahead: null, eta_seconds: null, refresh_after_seconds: 60 };
}
