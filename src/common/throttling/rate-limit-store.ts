import type { ThrottlerStorage } from '@nestjs/throttler';

/** Provider token of the store behind the request limits and the failed-login counters. */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** A fixed-window counter: how many hits it holds and how long until it starts again from zero. */
export interface WindowCount {
  count: number;
  msLeft: number;
}

/**
 * Where the counters live. `increment` serves the request limits (RateLimitGuard; a fixed window per key, and a
 * block once the limit is passed); `count`, `hit` and `hold` serve the failed-login counters, which must
 * be read before the password is checked and written only when it was wrong.
 */
/** What one more request of a caller did to its window (the throttler's ThrottlerStorageRecord, filled in place). */
export interface RequestCount {
  totalHits: number;
  /** Seconds until the window starts again. */
  timeToExpire: number;
  isBlocked: boolean;
  /** Seconds until the block ends (0 when not blocked). */
  timeToBlockExpire: number;
}

export interface RateLimitStore extends ThrottlerStorage {
  /**
   * `increment` without a promise, a key string or a result object, for the request limits of a
   * store in this process's memory: the caller (a user's id or a normalized address) one more
   * request in `throttler`'s window, written into `into`. Absent on shared stores.
   */
  countRequest?(throttler: string, caller: string | number, ttl: number, limit: number, blockDuration: number, into: RequestCount): void;
  count(key: string): Promise<WindowCount>;
  /** One more hit; the count lasts until `windowMs` pass without one. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** Sets `key` to 1 for `ms` from now, whatever it held: a pause that `count` sees while it lasts. */
  hold(key: string, ms: number): Promise<void>;
  close(): Promise<void>;
}

interface MemoryEntry {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** Entries beyond this many trigger an early sweep, so that a spray of addresses cannot exhaust memory. */
const MEMORY_MAX_ENTRIES = 100_000;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Counters in this process's memory: the default, right for a single instance. The same fixed-window
 * semantics as the Redis store (one counter per key), so that a limit means the same in both; unlike
 * the throttler's own in-memory store it keeps no list of hits, so a high limit costs nothing.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly entries = new Map<string, MemoryEntry>();
  /** The request limits' windows (countRequest), per throttler, keyed by caller: no key strings to build. */
  private readonly requestWindows = new Map<string, Map<string | number, MemoryEntry>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = () => Date.now()) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const now = this.now();
    const entry = this.liveEntry(`${throttlerName}:${key}`, ttl, now);
    entry.hits += 1;
    if (entry.blockedUntil <= now && entry.hits > limit) entry.blockedUntil = now + blockDuration;
    const isBlocked = entry.blockedUntil > now;
    return {
      totalHits: entry.hits,
      timeToExpire: Math.ceil((entry.expiresAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((entry.blockedUntil - now) / 1000) : 0,
    };
  }

  countRequest(throttler: string, caller: string | number, ttl: number, limit: number, blockDuration: number, into: RequestCount): void {
    const now = this.now();
    let windows = this.requestWindows.get(throttler);
    if (windows === undefined) this.requestWindows.set(throttler, (windows = new Map<string | number, MemoryEntry>()));
    let entry = windows.get(caller);
    if (entry === undefined || entry.expiresAt <= now) {
      if (entry === undefined) {
        if (this.size() >= MEMORY_MAX_ENTRIES) this.sweep();
        entry = { hits: 0, expiresAt: 0, blockedUntil: 0 };
        windows.set(caller, entry);
      }
      // A window over starts afresh in place (a block outlives its window).
      entry.hits = 0;
      entry.expiresAt = now + ttl;
    }
    entry.hits += 1;
    if (entry.blockedUntil <= now && entry.hits > limit) entry.blockedUntil = now + blockDuration;
    into.totalHits = entry.hits;
    into.timeToExpire = Math.ceil((entry.expiresAt - now) / 1000);
    into.isBlocked = entry.blockedUntil > now;
    into.timeToBlockExpire = into.isBlocked ? Math.ceil((entry.blockedUntil - now) / 1000) : 0;
  }

  async count(key: string): Promise<WindowCount> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) return { count: 0, msLeft: 0 };
    return { count: entry.hits, msLeft: entry.expiresAt - now };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    const entry = this.liveEntry(key, windowMs, now);
    entry.hits += 1;
    entry.expiresAt = now + windowMs;
    return { count: entry.hits, msLeft: windowMs };
  }

  async hold(key: string, ms: number): Promise<void> {
    if (this.size() >= MEMORY_MAX_ENTRIES) this.sweep();
    this.entries.set(key, { hits: 1, expiresAt: this.now() + ms, blockedUntil: 0 });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    this.requestWindows.clear();
  }

  private size(): number {
    let size = this.entries.size;
    for (const windows of this.requestWindows.values()) size += windows.size;
    return size;
  }

  /** The entry of `key`, started afresh when its window is over (a block outlives its window). */
  private liveEntry(key: string, windowMs: number, now: number): MemoryEntry {
    let entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) {
      entry = { hits: 0, expiresAt: now + windowMs, blockedUntil: entry?.blockedUntil ?? 0 };
      if (this.size() >= MEMORY_MAX_ENTRIES) this.sweep();
      this.entries.set(key, entry);
    }
    return entry;
  }

  private sweep(): void {
    const now = this.now();
    const maps: Array<Map<string | number, MemoryEntry>> = [this.entries, ...this.requestWindows.values()];
    for (const map of maps) {
      for (const [key, entry] of map) {
        if (entry.expiresAt <= now && entry.blockedUntil <= now) map.delete(key);
      }
    }
    // Still full of live entries: drop the oldest, which each Map yields first.
    for (const map of maps) {
      for (const key of map.keys()) {
        if (this.size() < MEMORY_MAX_ENTRIES) return;
        map.delete(key);
      }
    }
  }
}
