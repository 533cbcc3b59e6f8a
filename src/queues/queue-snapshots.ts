import { Injectable } from '@nestjs/common';
import { Queue } from './queue.entity';
import { QueuesRepository } from './queues.repository';

/** How old a copy may be: the serving counter moves once a second (QUEUE_TICK_MS), and the shared status is cached that long. */
export const SNAPSHOT_MAX_AGE_MS = 1_000;
/** Queues kept at most (a copy per queue polled; past this all are dropped, so unknown ids cannot grow it). */
const MAX_SNAPSHOTS = 1_000;

/**
 * Each instance's copy of the queues being polled, read again at most once a second: the crowd's
 * status polls (the shared status, an entry's place) cost no statement for the queue row, and an
 * entry's poll one indexed statement for the entry. Concurrent misses share one read. This
 * instance's own writes drop the copy (`forget`); another instance's show within a second.
 */
@Injectable()
export class QueueSnapshots {
  private readonly snapshots = new Map<number, { queue: Queue; loadedAt: number }>();
  private readonly loading = new Map<number, Promise<Queue | null>>();

  constructor(private readonly queues: QueuesRepository) {}

  async get(id: number): Promise<Queue | null> {
    const cached = this.snapshots.get(id);
    if (cached && performance.now() - cached.loadedAt < SNAPSHOT_MAX_AGE_MS) return cached.queue;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    return pending;
  }

  /** Drops the copy of one queue (this instance wrote it), or of all. */
  forget(id?: number): void {
    if (id === undefined) this.snapshots.clear();
    else this.snapshots.delete(id);
  }

  private async load(id: number): Promise<Queue | null> {
    const startedAt = performance.now();
    const queue = await this.queues.findQueue(id);
    if (!queue) return null;
    if (this.snapshots.size >= MAX_SNAPSHOTS) this.snapshots.clear();
    this.snapshots.set(id, { queue, loadedAt: startedAt });
    return queue;
  }
}
