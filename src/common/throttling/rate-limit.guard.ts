import { ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerModuleOptions, normalizeIp } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { Request } from 'express';
import type { AppConfig } from '../../config/app.config';
import { tooManyRequests } from './rate-limit-errors';
import type { RateLimitStore } from './rate-limit-store';

/** The authentication guard, which runs first, has set `user` when the caller signed in. */
type LimitedRequest = Request & { user?: { id: number } };

const WINDOW_MS = 60_000;

/**
 * What one request of a route marked `@CostlyRoute()` weighs against the caller's limit: such a
 * route gets a budget of its own, RATE_LIMIT_PER_MINUTE (or the signed-in limit) divided by this,
 * on top of counting as one request. The iCalendar feed builds up to 500 events, about 1 s of CPU
 * for 300 on a busy machine, where an ordinary request takes 5 to 10 ms: at 10 feeds a second from
 * one address (well within 600 requests a minute) the health check's p99 went past 40 s.
 */
export const COSTLY_ROUTE_WEIGHT = 100;

const COSTLY_ROUTE = Symbol('COSTLY_ROUTE');

/** Marks a handler whose responses cost many times an ordinary request (see COSTLY_ROUTE_WEIGHT). */
export const CostlyRoute = () => SetMetadata(COSTLY_ROUTE, true);

function isCostlyRoute(context: ExecutionContext): boolean {
  return Reflect.getMetadata(COSTLY_ROUTE, context.getHandler()) === true;
}

function requestOf(context: ExecutionContext): LimitedRequest {
  return context.switchToHttp().getRequest<LimitedRequest>();
}

/**
 * The request limits: a signed-in user gets RATE_LIMIT_AUTHENTICATED_PER_MINUTE wherever their
 * requests come from; anyone else RATE_LIMIT_PER_MINUTE per IP address (IPv6 per /64, as a host
 * usually owns the whole block). Costly routes have a smaller budget of their own besides. One fixed one-minute window per caller across all routes; once it
 * is used up the caller is refused for a minute. Only the API is limited: operations routes outside
 * it (health) answer orchestrators and load balancers whatever their rate.
 */
export function throttlerOptions(store: RateLimitStore, config: AppConfig): ThrottlerModuleOptions {
  const { anonymousPerMinute, authenticatedPerMinute } = config.rateLimits;
  const apiBase = `${config.apiRoot}/${config.apiPrefix}/`;
  const limitFor = (context: ExecutionContext) => (requestOf(context).user ? authenticatedPerMinute : anonymousPerMinute);
  const skipIf = (context: ExecutionContext) => limitFor(context) === 0 || !requestOf(context).path.startsWith(apiBase);
  return {
    storage: store,
    throttlers: [
      { name: 'default', ttl: WINDOW_MS, limit: limitFor },
      {
        name: 'costly',
        ttl: WINDOW_MS,
        limit: (context) => Math.max(1, Math.floor(limitFor(context) / COSTLY_ROUTE_WEIGHT)),
        // A throttler's own skipIf replaces the common one.
        skipIf: (context) => !isCostlyRoute(context) || skipIf(context),
        setHeaders: false,
      },
    ],
    skipIf,
    getTracker: (request) => {
      const { user, ip } = request as LimitedRequest;
      return user ? `user:${user.id}` : `ip:${normalizeIp(ip ?? 'unknown')}`;
    },
    // One counter per caller, not per route as the throttler's default key would make it.
    generateKey: (_context, tracker, name) => `requests:${name}:${tracker}`,
  };
}

/**
 * @nestjs/throttler's guard, answering in the API's error envelope. It runs right after
 * authentication (see AuthModule), so it knows whether the caller is a user.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw tooManyRequests(detail.timeToBlockExpire);
  }
}
