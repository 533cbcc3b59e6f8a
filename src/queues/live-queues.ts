import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { Queue } from './queue.entity';
import { QueuesRepository } from './queues.repository';

/** A queue as the gate reads it, with its event's author (who manages it). */
export interface LiveQueue {
  queue: Queue;
  authorId: number | null;
  /** The tickets it guards; null: every ticket of its event. */
  ticketIds: ReadonlySet<number> | null;
}

/** How long this instance trusts its list of open queues; writes made here drop it at once. */
const REFRESH_MS = 1_000;

/** Whether the queue gates its tickets at `now`: from the pre-queue's opening until it closes. */
export function gatesAt(queue: Queue, now: Date): boolean {
  if (queue.closedAt) return false;
  if (now < (queue.prequeueOpensAt ?? queue.opensAt)) return false;
  return !queue.closesAt || now < queue.closesAt;
}

export function guardedTicketIds(queue: Queue): number[] | null {
  return queue.ticketIds === null ? null : (JSON.parse(queue.ticketIds) as number[]);
}

/**
 * The queues not closed yet, kept in memory for a second: a cart write or checkout of tickets no
 * queue guards (nearly all of them) costs no statement. Another instance's new queue is seen within
 * REFRESH_MS; the queues' writes on this instance call `invalidate`.
 */
@Injectable()
export class LiveQueues {
  private loaded: { at: number; byEvent: Map<number, LiveQueue[]> } | null = null;
  private loading: Promise<Map<number, LiveQueue[]>> | null = null;

  constructor(
    private readonly queues: QueuesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  invalidate(): void {
    this.loaded = null;
  }

  /** The open queues guarding any of these tickets (by event). */
  async guarding(lines: ReadonlyArray<{ ticketId: number; eventId: number }>): Promise<LiveQueue[]> {
    const byEvent = await this.byEvent();
    if (byEvent.size === 0) return [];
    const found = new Set<LiveQueue>();
    for (const line of lines) {
      for (const live of byEvent.get(line.eventId) ?? []) {
        if (live.ticketIds === null || live.ticketIds.has(line.ticketId)) found.add(live);
      }
    }
    return [...found];
  }

  private async byEvent(): Promise<Map<number, LiveQueue[]>> {
    const now = Date.now();
    if (this.loaded && now - this.loaded.at < REFRESH_MS) return this.loaded.byEvent;
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load(): Promise<Map<number, LiveQueue[]>> {
    const at = Date.now();
    const open = await this.queues.openQueuesWithAuthors();
    const byEvent = new Map<number, LiveQueue[]>();
    for (const { queue, authorId } of open) {
      const ids = guardedTicketIds(queue);
      const list = byEvent.get(queue.eventId) ?? [];
      list.push({ queue, authorId, ticketIds: ids ? new Set(ids) : null });
      byEvent.set(queue.eventId, list);
    }
    this.loaded = { at, byEvent };
    return byEvent;
  }

  /** The clock the gate judges windows by (the app's, which tests move). */
  now(): Date {
    return this.clock.now();
  }
}
