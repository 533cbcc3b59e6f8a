import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { PeriodicTask } from '../common/background/periodic-task';
import { appConfig } from '../config/app.config';
import { Queue } from './queue.entity';
import { QueuesRepository } from './queues.repository';

/** A queue as the gate reads it, with its event's author (who manages it). */
export interface LiveQueue {
  queue: Queue;
  authorId: number | null;
  /** The tickets it guards; null: every ticket of its event. */
  ticketIds: ReadonlySet<number> | null;
}

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
 * The queues not closed yet, kept in memory: a cart write or checkout of tickets no queue guards
 * (nearly all of them) costs no statement. Loaded at start, read again in the background every
 * QUEUE_GATE_REFRESH_MS (another instance's new queue gates here within that), and at the next
 * request after this instance's own queue writes (`invalidate`).
 */
@Injectable()
export class LiveQueues implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveQueues.name);
  private loaded: Map<number, LiveQueue[]> | null = null;
  private loading: Promise<Map<number, LiveQueue[]>> | null = null;
  private readonly refreshes = new PeriodicTask('queue gate refresh', () => this.load(), this.logger, 'warn');

  constructor(
    private readonly queues: QueuesRepository,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.load();
    this.refreshes.start(this.config.tickets.queueGateRefreshMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.refreshes.stop();
  }

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
    if (this.loaded) return this.loaded;
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load(): Promise<Map<number, LiveQueue[]>> {
    const open = await this.queues.openQueuesWithAuthors();
    const byEvent = new Map<number, LiveQueue[]>();
    for (const { queue, authorId } of open) {
      const ids = guardedTicketIds(queue);
      const list = byEvent.get(queue.eventId) ?? [];
      list.push({ queue, authorId, ticketIds: ids ? new Set(ids) : null });
      byEvent.set(queue.eventId, list);
    }
    this.loaded = byEvent;
    return byEvent;
  }
}
