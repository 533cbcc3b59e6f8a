import { Injectable } from '@nestjs/common';
import { Queue, QueueEntry } from './queue.entity';

/** Entries remembered at most, over all queues (past this all are dropped, so unknown ids cannot grow it). */
const MAX_PLACES = 200_000;

/**
 * Each instance's memory of the entries that are still waiting for their turn, so that their polls
 * cost no statement. A waiting entry's place cannot change but by the serving counter passing its
 * position (QueuesService's tick admits it), and a pre-queue entry's but by the opening (which
 * gives it a position): until the queue's copy (QueueSnapshots, at most a second old) shows either,
 * the entry read earlier answers as the database would. Entries the counter reached, and any entry
 * after the opening that was read before it, are read again (and forgotten).
 */
@Injectable()
export class QueueEntryPlaces {
  private readonly places = new Map<number, Map<string, QueueEntry>>();
  private size = 0;

  /** The entry as read earlier, when its answer cannot have changed by what `queue` shows; else null. */
  stillWaiting(queue: Queue, requestId: string): QueueEntry | null {
    const entry = this.places.get(queue.id)?.get(requestId);
    if (!entry) return null;
    if (entry.status === 'prequeue' ? queue.openedAt === null : (entry.position as number) > queue.servingCounter) return entry;
    this.places.get(queue.id)?.delete(requestId);
    this.size -= 1;
    return null;
  }

  /** Keeps an entry just read from the database, when it waits for the opening or for its turn. */
  remember(queue: Queue, entry: QueueEntry): void {
    const waiting =
      (entry.status === 'prequeue' && queue.openedAt === null) ||
      (entry.status === 'waiting' && entry.position !== null && entry.position > queue.servingCounter);
    if (!waiting) return;
    if (this.size >= MAX_PLACES) this.forget();
    let ofQueue = this.places.get(queue.id);
    if (!ofQueue) this.places.set(queue.id, (ofQueue = new Map<string, QueueEntry>()));
    if (!ofQueue.has(entry.requestId)) this.size += 1;
    ofQueue.set(entry.requestId, entry);
  }

  /** Forgets one queue's entries (it closed), or all. */
  forget(queueId?: number): void {
    if (queueId === undefined) {
      this.places.clear();
      this.size = 0;
      return;
    }
    this.size -= this.places.get(queueId)?.size ?? 0;
    this.places.delete(queueId);
  }
}
