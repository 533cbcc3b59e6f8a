import type { RateLimitStore } from './rate-limit-store';

/** The first pause once a key has used up its failures; each further failure doubles it. */
export const FAILURE_BACKOFF_FIRST_MS = 30_000;

export interface FailurePausesOptions {
  /** Failures a key may make before each further one pauses it; 0: no limit. */
  limit: number;
  /** The longest pause; counts are forgotten after twice this without a failure. */
  windowMs: number;
}

/**
 * Failures counted per key until twice the window passes without one. Once a key's count reaches
 * the limit, each further failure pauses it: 30 s, then 60 s, 120 s... up to the window. The
 * caller asks `pausedForMs` before the attempt (refusing it unread while paused) and calls
 * `recordFailure` only when the attempt failed. Failed logins and failed coupon codes share it.
 */
export class FailurePauses {
  constructor(
    private readonly store: RateLimitStore,
    private readonly options: FailurePausesOptions,
  ) {}

  get enabled(): boolean {
    return this.options.limit > 0;
  }

  /** The longest pause left among `keys`, in ms; 0 when none is paused. */
  async pausedForMs(keys: string[]): Promise<number> {
    if (!this.enabled) return 0;
    const pauses = await Promise.all(keys.map((key) => this.store.count(pauseKey(key))));
    return Math.max(0, ...pauses.filter((pause) => pause.count > 0).map((pause) => pause.msLeft));
  }

  /** Counts a failure for each key; past the limit it starts a pause that doubles with each further failure. */
  async recordFailure(keys: string[]): Promise<void> {
    if (!this.enabled) return;
    await Promise.all(
      keys.map(async (key) => {
        // Kept for two windows: longer than the longest pause, so that sitting one out starts nothing afresh.
        const failures = await this.store.hit(key, 2 * this.options.windowMs);
        if (failures.count >= this.options.limit) await this.store.hold(pauseKey(key), this.pauseMs(failures.count));
      }),
    );
  }

  private pauseMs(failures: number): number {
    const doublings = Math.min(failures - this.options.limit, 30);
    return Math.min(this.options.windowMs, FAILURE_BACKOFF_FIRST_MS * 2 ** doublings);
  }
}

function pauseKey(key: string): string {
  return `${key}:pause`;
}
