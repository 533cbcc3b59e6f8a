import type { ThrottlerStorage } from '@nestjs/throttler';

/** Provider token of the store behind the request limits and the failed-login counters. */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** A fixed-window counter: how many hits it holds and how long until it starts again from zero. */
export interface WindowCount {
  count: number;
  msLeft: number;
}

/**
 * Where the counters live. `increment` serves @nestjs/throttler (a fixed window per key, and a
 * block once the limit is passed); `count`, `hit` and `hold` serve the failed-login counters, which must
 * be read before the password is checked and written only when it was wrong.
 */
export interface RateLimitStore extends ThrottlerStorage {
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
    if (this.entries.size >= MEMORY_MAX_ENTRIES) this.sweep();
    this.entries.set(key, { hits: 1, expiresAt: this.now() + ms, blockedUntil: 0 });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  /** The entry of `key`, started afresh when its window is over (a block outlives its window). */
  private liveEntry(key: string, windowMs: number, now: number): MemoryEntry {
    let entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) {
      entry = { hits: 0, expiresAt: now + windowMs, blockedUntil: entry?.blockedUntil ?? 0 };
      if (this.entries.size >= MEMORY_MAX_ENTRIES) this.sweep();
      this.entries.set(key, entry);
    }
    return entry;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now && entry.blockedUntil <= now) this.entries.delete(key);
    }
    // Still full of live entries: drop the oldest, which the Map yields first.
    for (const key of this.entries.keys()) {
      if (this.entries.size < MEMORY_MAX_ENTRIES) break;
      this.entries.delete(key);
    }
  }
}
