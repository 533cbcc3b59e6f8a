import { randomBytes } from 'node:crypto';
import { Queue, QueueEntry } from './queue.entity';
import { pollSpread, toEntryResponse } from './queues.mapper';

describe('pollSpread', () => {
  it("is the entry's own number in [0, 1), the same at every poll, and spreads a crowd evenly", () => {
    const ids = Array.from({ length: 5000 }, () => randomBytes(12).toString('hex'));
    const spreads = ids.map(pollSpread);
    expect(ids.map(pollSpread)).toEqual(spreads);
    expect(spreads.every((spread) => spread >= 0 && spread < 1)).toBe(true);
    const tenths = new Array<number>(10).fill(0);
    for (const spread of spreads) tenths[Math.floor(spread * 10)] += 1;
    for (const count of tenths) expect(count).toBeGreaterThan(400);
  });
});

describe('toEntryResponse', () => {
  const now = new Date('2030-01-01T10:00:00Z');
  const queue = Object.assign(new Queue(), {
    id: 1,
    opensAt: new Date(now.getTime() + 3_000),
    prequeueOpensAt: new Date(now.getTime() - 60_000),
    openedAt: null,
    closedAt: null,
    closesAt: null,
    paused: false,
    servingCounter: 0,
    lastPosition: 0,
    joinedCount: 5000,
    maxActive: 200,
    maxAdmitPerMinute: 600,
    autoRate: null,
    rateSamples: '[]',
    admissionMinutes: 5,
  });

  it("sends the pre-queue back one to six seconds after opens_at, spread by the entries' own numbers", () => {
    const refreshes = Array.from({ length: 1000 }, () => {
      const entry = Object.assign(new QueueEntry(), { requestId: randomBytes(12).toString('hex'), status: 'prequeue', position: null });
      return toEntryResponse(queue, entry, now).refresh_after_seconds;
    });
    expect(Math.min(...refreshes)).toBe(4);
    expect(Math.max(...refreshes)).toBe(9);
  });

  it('tells a waiting entry a quarter of its wait, give or take a quarter of that', () => {
    const opened = Object.assign(new Queue(), { ...queue, openedAt: now, opensAt: now, lastPosition: 5000 });
    const refreshes = Array.from({ length: 1000 }, () => {
      const entry = Object.assign(new QueueEntry(), { requestId: randomBytes(12).toString('hex'), status: 'waiting', position: 400 });
      return toEntryResponse(opened, entry, now).refresh_after_seconds;
    });
    // 400 ahead at 10 a second: 40 s, a quarter is 10 s, spread over 7.5–12.5 s.
    expect(Math.min(...refreshes)).toBe(8);
    expect(Math.max(...refreshes)).toBe(12);
  });
});
