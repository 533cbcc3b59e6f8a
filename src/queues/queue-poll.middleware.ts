import { Injectable, NestMiddleware } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NextFunction, Request, Response } from 'express';
import { HttpCaching } from '../common/http/http-caching';
import { routeIdOf } from '../common/http/route-params';
import { RateLimitGuard } from '../common/throttling/rate-limit.guard';
import { REQUEST_ID_PATTERN } from './dto/join-queue.dto';
import { entryPollHeaders, QueuesController, sharedStatusHeaders } from './queues.controller';
import { QueuesService } from './queues.service';

/** The routes this middleware answers, relative to the API's prefix (QueuesModule mounts it there). */
export const QUEUE_STATUS_ROUTE = 'tickets/v1/queues/:id/status';
export const QUEUE_ENTRY_ROUTE = 'tickets/v1/queues/:id/entries/:request_id';

/** The routed handlers, whose metadata (per-route limits) the rate-limit guard reads; never called here. */
/* eslint-disable @typescript-eslint/unbound-method */
const STATUS_HANDLER = QueuesController.prototype.sharedStatus;
const ENTRY_HANDLER = QueuesController.prototype.entry;
/* eslint-enable @typescript-eslint/unbound-method */

/**
 * The waiting room's status polls without the trip through Nest's router: every waiting buyer asks
 * `GET /queues/{id}/entries/{request_id}` (and the queue page the shared `/status`) every few
 * seconds, and neither needs a guard, pipe or interceptor for an anonymous caller. As
 * AnonymousEventReadMiddleware does for the single event, it runs after the request logger and the
 * middleware every request goes through, and does what the routed handler does with the same parts:
 * the RateLimitGuard instance itself, HttpCaching's private Cache-Control first, the service's
 * answer, the controller's headers (entryPollHeaders, sharedStatusHeaders), Express's JSON and ETag;
 * its errors (404 queue-not-found, queue-entry-not-found) are answered by the global exception
 * filter. Anything else (credentials, a query string, an id or request_id the pipes would refuse)
 * goes on to the router. test/queue-polls.e2e-spec.ts asks every case both ways and compares.
 */
@Injectable()
export class QueuePollMiddleware implements NestMiddleware {
  constructor(
    private readonly queues: QueuesService,
    private readonly caching: HttpCaching,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    const segment = request.params.id;
    const id = typeof segment === 'string' ? routeIdOf(segment) : null;
    const requestId = request.params.request_id;
    const entry = requestId !== undefined;
    if (
      id === null ||
      (entry && (typeof requestId !== 'string' || !REQUEST_ID_PATTERN.test(requestId))) ||
      request.headers.authorization !== undefined ||
      request.url.includes('?')
    ) {
      next();
      return;
    }
    // Throws the 429 once the caller's budget is spent, after counting this request against it.
    await this.rateLimit.canActivate(
      new ExecutionContextHost([request, response, next], QueuesController, entry ? ENTRY_HANDLER : STATUS_HANDLER),
    );
    this.caching.beginRead(request, response, undefined);
    if (entry) {
      const body = await this.queues.entryStatus(id, requestId);
      entryPollHeaders(response, id);
      response.status(200).json(body);
      return;
    }
    const body = await this.queues.sharedStatus(id);
    sharedStatusHeaders(response, id);
    response.status(200).json(body);
  }
}
