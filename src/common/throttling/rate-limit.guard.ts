import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { normalizeIp } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { appConfig } from '../../config/app.config';
import { tooManyRequests } from './rate-limit-errors';
import { RATE_LIMIT_STORE, type RateLimitStore, type RequestCount } from './rate-limit-store';

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

/**
 * The request limits: a signed-in user gets RATE_LIMIT_AUTHENTICATED_PER_MINUTE wherever their
 * requests come from; anyone else RATE_LIMIT_PER_MINUTE per IP address (IPv6 per /64, as a host
 * usually owns the whole block). Costly routes have a smaller budget of their own besides. One
 * fixed one-minute window per caller across all routes; once it is used up the caller is refused
 * for a minute. Only the API is limited: operations routes outside it (health) answer
 * orchestrators and load balancers whatever their rate. The two budgets are counted in this
 * order, each under a throttler's name (the keys @nestjs/throttler's guard used: `requests:default:ip:…`).
 */
const DEFAULT = 'default';
const COSTLY = 'costly';

/**
 * The request limits, applied as @nestjs/throttler's guard applied them (the
 * same keys, windows, blocks, `X-RateLimit-*` headers and 429 with `Retry-After`), without its
 * per-request machinery: it resolved each option of each throttler through the reflector and a
 * promise, built a key string and a result object per throttler and awaited each step. Here a
 * route's weight is looked up once per handler, and with the store in this process's memory
 * (the default) a request's count is one synchronous call writing into a kept record: no promise,
 * key or object is made for a request within its limit. A shared store (Redis) is asked as before.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly anonymousPerMinute: number;
  private readonly authenticatedPerMinute: number;
  private readonly apiBase: string;
  /** Whether each handler is a costly route (metadata does not change). */
  private readonly costly = new WeakMap<object, boolean>();
  /** Filled by the in-memory store's countRequest and read at once: one record for every request. */
  private readonly count: RequestCount = { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    ({ anonymousPerMinute: this.anonymousPerMinute, authenticatedPerMinute: this.authenticatedPerMinute } = config.rateLimits);
    this.apiBase = `${config.apiRoot}/${config.apiPrefix}/`;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    return this.limit(http.getRequest<LimitedRequest>(), http.getResponse<Response>(), context.getHandler());
  }

  /**
   * Counts the request against its caller's budgets (and the costly routes' budget, for a handler
   * marked CostlyRoute); throws the 429 once a budget is spent. Also for routes answered before
   * Nest's router (AnonymousEventReadMiddleware), with the routed handler whose metadata applies.
   */
  limit(request: LimitedRequest, response: Response, handler: object): boolean | Promise<boolean> {
    const user = request.user;
    const perMinute = user ? this.authenticatedPerMinute : this.anonymousPerMinute;
    if (perMinute === 0 || !request.path.startsWith(this.apiBase)) return true;
    let costly = this.costly.get(handler);
    if (costly === undefined) {
      costly = Reflect.getMetadata(COSTLY_ROUTE, handler) === true;
      this.costly.set(handler, costly);
    }
    const costlyLimit = costly ? Math.max(1, Math.floor(perMinute / COSTLY_ROUTE_WEIGHT)) : 0;
    const caller = user ? user.id : normalizeIp(request.ip ?? 'unknown');
    if (this.store.countRequest) {
      this.store.countRequest(DEFAULT, caller, WINDOW_MS, perMinute, WINDOW_MS, this.count);
      this.answer(response, perMinute, true);
      if (costly) {
        this.store.countRequest(COSTLY, caller, WINDOW_MS, costlyLimit, WINDOW_MS, this.count);
        this.answer(response, costlyLimit, false);
      }
      return true;
    }
    return this.limitShared(response, user ? `user:${caller}` : `ip:${caller}`, perMinute, costlyLimit);
  }

  private async limitShared(response: Response, tracker: string, perMinute: number, costlyLimit: number): Promise<boolean> {
    Object.assign(this.count, await this.store.increment(`requests:${DEFAULT}:${tracker}`, WINDOW_MS, perMinute, WINDOW_MS, DEFAULT));
    this.answer(response, perMinute, true);
    if (costlyLimit > 0) {
      Object.assign(this.count, await this.store.increment(`requests:${COSTLY}:${tracker}`, WINDOW_MS, costlyLimit, WINDOW_MS, COSTLY));
      this.answer(response, costlyLimit, false);
    }
    return true;
  }

  /** The throttler's headers for the count just made (the default throttler's only), or its 429. */
  private answer(response: Response, limit: number, withHeaders: boolean): void {
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = this.count;
    if (isBlocked) {
      if (withHeaders) response.setHeader('Retry-After', String(timeToBlockExpire));
      throw tooManyRequests(timeToBlockExpire);
    }
    if (!withHeaders) return;
    response.setHeader('X-RateLimit-Limit', String(limit));
    response.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - totalHits)));
    response.setHeader('X-RateLimit-Reset', String(timeToExpire));
  }
}
