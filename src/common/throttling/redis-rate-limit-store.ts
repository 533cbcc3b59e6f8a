import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import type { RateLimitStore, WindowCount } from './rate-limit-store';

/** Failed-login counter: the count and the ms left in its window (0 and 0 when there is none). */
const COUNT_SCRIPT = `
local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

/** One more failure; the count lasts until a window passes without one. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return {count, tonumber(ARGV[1])}
`;

type ScriptedRedis = Redis & {
  rateLimitCount(key: string): Promise<[number, number]>;
  rateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * Connection settings for a store on the request path: commands fail at once while Redis is
 * unreachable instead of queueing (the fail-open wrapper then lets requests through), and the
 * connection is made explicitly at start-up.
 */
export function createRedisClient(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

/**
 * Counters in Redis, shared by every instance pointed at it: the request limits through
 * @nest-lab/throttler-storage-redis (one Lua script per request), the failed-login counters
 * through two small scripts of the same kind. Every key carries REDIS_KEY_PREFIX.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly throttlerStorage: ThrottlerStorageRedisService;
  private readonly redis: ScriptedRedis;

  constructor(redis: Redis) {
    redis.defineCommand('rateLimitCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as ScriptedRedis;
    // Given a client it did not create, the storage leaves closing it to us (see close()).
    this.throttlerStorage = new ThrottlerStorageRedisService(redis);
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    return this.throttlerStorage.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  async count(key: string): Promise<WindowCount> {
    const [count, msLeft] = await this.redis.rateLimitCount(key);
    return { count, msLeft: Math.max(0, msLeft) };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, msLeft] = await this.redis.rateLimitHit(key, windowMs);
    return { count, msLeft };
  }

  async hold(key: string, ms: number): Promise<void> {
    await this.redis.set(key, '1', 'PX', Math.max(1, Math.ceil(ms)));
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
