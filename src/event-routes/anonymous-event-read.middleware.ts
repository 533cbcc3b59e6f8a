import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { buildRequestContext } from '../auth/request-context';
import { ApiUrls } from '../common/http/api-urls.service';
import { HttpCaching } from '../common/http/http-caching';
import { answerJsonText, sendAnswer } from '../common/http/json-text';
import { routeIdOf } from '../common/http/route-params';
import { RateLimitGuard } from '../common/throttling/rate-limit.guard';
import { EventsController } from './events.controller';
import { EventReads } from '../catalogue/event-reads.service';

/** The route this middleware answers, relative to the API's prefix (EventRoutesModule mounts it there). */
export const ANONYMOUS_EVENT_READ_ROUTE = 'events/v1/events/:id';

/** The routed handler, whose metadata (costly or not) the rate-limit guard reads; never called here. */
// eslint-disable-next-line @typescript-eslint/unbound-method
const ROUTED_HANDLER = EventsController.prototype.get;

/**
 * The anonymous `GET /events/{id}` without the trip through Nest's router: the most frequent read
 * of a calendar (crawlers, event pages, a CDN revalidating) pays for none of the guards, pipes,
 * interceptor and rxjs it does not need (docs/performance.md). It runs as a route middleware,
 * after the request logger, metrics, security headers and limits every request goes through, and
 * does what the routed handler does for an anonymous caller, with the same parts:
 *
 * - the request limit: the RateLimitGuard instance itself (the other global guards let an
 *   anonymous read of a public route through without looking at it: no capability, nonce or
 *   device is needed);
 * - HttpCaching's headers (private first, public with the surrogate keys once there is an answer);
 * - EventReads.get (its 404 and 403 are answered by the global exception filter, as Nest calls
 *   it for a middleware; its head read is a prepared statement on MariaDB) and answerJsonText
 *   (ETag, 304), whose answer sendAnswer writes without Express's `send`: a 304 is decided from
 *   the head row and the ETag alone, before any byte of the document is assembled.
 *
 * Anything else (a caller with credentials, a query string, an id that is not digits, a route such
 * as `events/ics`) goes on to the routed handler. test/anonymous-event-read.e2e-spec.ts compares
 * both paths' answers, headers included.
 */
@Injectable()
export class AnonymousEventReadMiddleware implements NestMiddleware {
  constructor(
    private readonly events: EventReads,
    private readonly urls: ApiUrls,
    private readonly caching: HttpCaching,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    const segment = request.params.id;
    const id = typeof segment === 'string' ? routeIdOf(segment) : null;
    if (id === null || request.headers.authorization !== undefined || request.url.includes('?')) {
      next();
      return;
    }
    // Throws the 429 once the caller's budget is spent, after counting this request against it.
    await this.rateLimit.limit(request, response, ROUTED_HANDLER);
    const publicRead = this.caching.beginRead(request, response, 'event');
    // No memo of count generations (the routed handler's interceptor sets one): a single event counts nothing.
    const text = await this.events.get({ id }, buildRequestContext(this.urls, request), request.headers['if-none-match'] !== undefined);
    publicRead?.(text);
    // A JsonText's answer is always bytes: a 304's none, else the body.
    sendAnswer(request, response, (await answerJsonText(request, response, text)) as Buffer);
  }
}
