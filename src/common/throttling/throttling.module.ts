import { Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../../config/app.config';
import { CodeAttempts } from './code-attempts.service';
import { FailOpenRateLimitStore } from './fail-open-store';
import { LoginAttempts } from './login-attempts.service';
import { MemoryRateLimitStore, RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { RateLimitGuard } from './rate-limit.guard';
import { createRedisClient, RedisRateLimitStore } from './redis-rate-limit-store';

/**
 * In memory unless REDIS_URL is set. A Redis that does not answer at start does not stop the
 * service: the store fails open and ioredis keeps reconnecting.
 */
async function createRateLimitStore(config: ConfigType<typeof appConfig>): Promise<RateLimitStore> {
  const { redisUrl, redisKeyPrefix } = config.rateLimits;
  if (!redisUrl) return new MemoryRateLimitStore();
  const redis = createRedisClient(redisUrl, redisKeyPrefix);
  // Connection errors surface through the commands that fail, which the fail-open store reports.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    new Logger('RateLimits').error(
      `Redis (REDIS_URL) does not answer: requests are not limited until it does (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return new FailOpenRateLimitStore(new RedisRateLimitStore(redis));
}

/** The counters' store, closed only after the HTTP server has drained (application shutdown, not module destroy). */
@Module({
  providers: [{ provide: RATE_LIMIT_STORE, inject: [appConfig.KEY], useFactory: createRateLimitStore }],
  exports: [RATE_LIMIT_STORE],
})
export class RateLimitStoreModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  onApplicationShutdown(): Promise<void> {
    return this.store.close();
  }
}

/**
 * Request limits (RateLimitGuard), failed-login and failed-coupon-code limits, over one store. AuthModule registers
 * the RateLimitGuard among the global guards, right after authentication; a route answered before
 * Nest's router (AnonymousEventReadMiddleware) calls the same instance.
 */
@Module({
  imports: [RateLimitStoreModule],
  providers: [LoginAttempts, CodeAttempts, RateLimitGuard],
  exports: [LoginAttempts, CodeAttempts, RateLimitGuard],
})
export class ThrottlingModule {}
