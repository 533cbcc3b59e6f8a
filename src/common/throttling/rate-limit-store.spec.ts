import { FailOpenRateLimitStore } from './fail-open-store';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit-store';

describe('MemoryRateLimitStore', () => {
  let now = 1_000_000;
  let store: MemoryRateLimitStore;

  beforeEach(() => {
    now = 1_000_000;
    store = new MemoryRateLimitStore(() => now);
  });

  afterEach(() => store.close());

  it('counts hits in a fixed window and blocks the hit past the limit for the block duration', async () => {
    for (let hit = 1; hit <= 3; hit += 1) {
      expect(await store.increment('ip:1', 60_000, 3, 60_000, 'default')).toEqual({
        totalHits: hit,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    }
    now += 10_000;
    expect(await store.increment('ip:1', 60_000, 3, 60_000, 'default')).toEqual({
      totalHits: 4,
      timeToExpire: 50,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    // The block outlives the window it was earned in, then the caller starts afresh.
    now += 55_000;
    expect(await store.increment('ip:1', 60_000, 3, 60_000, 'default')).toMatchObject({
      totalHits: 1,
      isBlocked: true,
      timeToBlockExpire: 5,
    });
    now += 5_000;
    expect(await store.increment('ip:1', 60_000, 3, 60_000, 'default')).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('keeps callers and throttlers apart', async () => {
    await store.increment('ip:1', 60_000, 1, 60_000, 'default');
    expect((await store.increment('ip:1', 60_000, 1, 60_000, 'default')).isBlocked).toBe(true);
    expect((await store.increment('ip:2', 60_000, 1, 60_000, 'default')).isBlocked).toBe(false);
    expect((await store.increment('ip:1', 60_000, 1, 60_000, 'other')).isBlocked).toBe(false);
  });

  it('counts requests in place as increment does: the same windows, blocks and figures, one record reused', async () => {
    const other = new MemoryRateLimitStore(() => now);
    const into = { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
    const steps = [0, 0, 0, 10_000, 55_000, 5_000, 61_000];
    for (const step of steps) {
      now += step;
      other.countRequest('default', '10.0.0.1', 60_000, 3, 60_000, into);
      expect(into).toEqual(await store.increment('ip:10.0.0.1', 60_000, 3, 60_000, 'default'));
    }
    // Users by id, addresses by text, throttlers apart.
    other.countRequest('default', 7, 60_000, 1, 60_000, into);
    other.countRequest('default', 7, 60_000, 1, 60_000, into);
    expect(into.isBlocked).toBe(true);
    other.countRequest('default', '7', 60_000, 1, 60_000, into);
    expect(into.isBlocked).toBe(false);
    other.countRequest('costly', 7, 60_000, 1, 60_000, into);
    expect(into.isBlocked).toBe(false);
    await other.close();
  });

  it('counts failures without adding one when only reading, until a window passes without one', async () => {
    expect(await store.count('login:a')).toEqual({ count: 0, msLeft: 0 });
    await store.hit('login:a', 900_000);
    now += 100_000;
    expect(await store.hit('login:a', 900_000)).toEqual({ count: 2, msLeft: 900_000 });
    now += 800_000;
    expect(await store.count('login:a')).toEqual({ count: 2, msLeft: 100_000 });
    now += 100_000;
    expect(await store.count('login:a')).toEqual({ count: 0, msLeft: 0 });
  });

  it('holds a pause for its duration, replacing any earlier one', async () => {
    await store.hold('pause:a', 60_000);
    expect(await store.count('pause:a')).toEqual({ count: 1, msLeft: 60_000 });
    now += 10_000;
    await store.hold('pause:a', 120_000);
    expect(await store.count('pause:a')).toEqual({ count: 1, msLeft: 120_000 });
    now += 120_000;
    expect(await store.count('pause:a')).toEqual({ count: 0, msLeft: 0 });
  });

  it('costs the same whatever the limit: no list of hits is kept', async () => {
    for (let hit = 0; hit < 10_000; hit += 1) await store.increment('ip:busy', 60_000, 1_000_000, 60_000, 'default');
    expect(await store.increment('ip:busy', 60_000, 1_000_000, 60_000, 'default')).toMatchObject({ totalHits: 10_001, isBlocked: false });
  });
});

describe('FailOpenRateLimitStore', () => {
  const broken: RateLimitStore = {
    increment: () => Promise.reject(new Error('connection is closed')),
    count: () => Promise.reject(new Error('connection is closed')),
    hit: () => Promise.reject(new Error('connection is closed')),
    hold: () => Promise.reject(new Error('connection is closed')),
    close: () => Promise.resolve(),
  };

  it('lets every request through when the store cannot answer', async () => {
    const store = new FailOpenRateLimitStore(broken);
    const warn = jest.spyOn((store as unknown as { logger: { warn: () => void } }).logger, 'warn').mockImplementation(() => undefined);
    expect(await store.increment('ip:1', 60_000, 1, 60_000, 'default')).toMatchObject({ isBlocked: false });
    expect(await store.count('login:a')).toEqual({ count: 0, msLeft: 0 });
    await expect(store.hit('login:a', 1000)).resolves.toMatchObject({ count: 0 });
    await expect(store.hold('login:a:pause', 1000)).resolves.toBeUndefined();
    // One warning for the burst, not one per request.
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
