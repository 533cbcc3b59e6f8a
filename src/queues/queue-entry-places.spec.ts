import { Queue, QueueEntry } from './queue.entity';
import { QueueEntryPlaces } from './queue-entry-places';

const queue = (changes: Partial<Queue> = {}) =>
  Object.assign(new Queue(), { id: 1, openedAt: new Date(0), servingCounter: 10, ...changes });
const entry = (changes: Partial<QueueEntry>) =>
  Object.assign(new QueueEntry(), { requestId: 'r1', status: 'waiting', position: 15, ...changes });

describe('QueueEntryPlaces', () => {
  it('answers a waiting entry from memory until the counter reaches its position, then forgets it', () => {
    const places = new QueueEntryPlaces();
    const waiting = entry({});
    places.remember(queue(), waiting);
    expect(places.stillWaiting(queue({ servingCounter: 14 }), 'r1')).toBe(waiting);
    expect(places.stillWaiting(queue({ servingCounter: 15 }), 'r1')).toBeNull();
    // Forgotten: even a stale copy of the queue does not bring it back.
    expect(places.stillWaiting(queue({ servingCounter: 14 }), 'r1')).toBeNull();
  });

  it('answers a pre-queue entry from memory only until the queue opened', () => {
    const places = new QueueEntryPlaces();
    const prequeue = entry({ status: 'prequeue', position: null });
    places.remember(queue({ openedAt: null }), prequeue);
    expect(places.stillWaiting(queue({ openedAt: null }), 'r1')).toBe(prequeue);
    expect(places.stillWaiting(queue(), 'r1')).toBeNull();
  });

  it('remembers no entry whose answer may change without the counter or the opening: admitted, finished, or already reached', () => {
    const places = new QueueEntryPlaces();
    for (const [requestId, status] of [
      ['a', 'admitted'],
      ['c', 'completed'],
      ['e', 'expired'],
      ['v', 'revoked'],
    ] as const) {
      places.remember(queue(), entry({ requestId, status, position: 5 }));
      expect(places.stillWaiting(queue(), requestId)).toBeNull();
    }
    places.remember(queue({ servingCounter: 20 }), entry({}));
    expect(places.stillWaiting(queue({ servingCounter: 10 }), 'r1')).toBeNull();
  });

  it("forgets a closed queue's entries", () => {
    const places = new QueueEntryPlaces();
    places.remember(queue(), entry({}));
    places.forget(1);
    expect(places.stillWaiting(queue(), 'r1')).toBeNull();
  });
});
