import { Logger } from '@nestjs/common';
import type { RateLimitStore, WindowCount } from './rate-limit-store';

const WARNING_INTERVAL_MS = 30_000;

/**
 * Lets requests through when the shared store cannot answer (Redis down or unreachable): a
 * limiter that failed closed would turn a Redis outage into an API outage. Each failure is counted
 * and a warning logged at most every 30 s, so that the gap in protection is visible.
 */
export class FailOpenRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger('RateLimits');
  private lastWarning = 0;
  private suppressed = 0;

  constructor(private readonly inner: RateLimitStore) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    try {
      return await this.inner.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch (error) {
      this.warn(error);
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }

  async count(key: string): Promise<WindowCount> {
    try {
      return await this.inner.count(key);
    } catch (error) {
      this.warn(error);
      return { count: 0, msLeft: 0 };
    }
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    try {
      return await this.inner.hit(key, windowMs);
    } catch (error) {
      this.warn(error);
      return { count: 0, msLeft: windowMs };
    }
  }

  async hold(key: string, ms: number): Promise<void> {
    try {
      await this.inner.hold(key, ms);
    } catch (error) {
      this.warn(error);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARNING_INTERVAL_MS) {
      this.suppressed += 1;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `rate limit store unavailable, requests are not limited: ${message} (${this.suppressed} more failures since the last warning)`,
    );
    this.lastWarning = now;
    this.suppressed = 0;
  }
}
