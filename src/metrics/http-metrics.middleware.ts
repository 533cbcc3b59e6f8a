import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MetricsService } from './metrics.service';

/**
 * Label of requests no route handled: unknown paths, and requests refused before routing (a
 * malformed or oversized body). Raw URLs would give a series per URL anyone cares to send.
 */
export const UNMATCHED_ROUTE = 'unmatched';
/** Status label of requests whose client went away before the response was complete (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The pattern of the route that handled the request. Express leaves the last route it matched in
 * `request.route`. Nest mounts module middleware (the request logger's) as catch-all routes such
 * as `/cal/{*path}`, matched before the real ones: a wildcard there means no real route matched.
 */
function routeLabel(request: Request): string {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.includes('*') ? path : UNMATCHED_ROUTE;
}

/**
 * Times every request and counts it by method, route pattern (`/cal/events/v1/events/:id`, as
 * Express matched it) and status. Mounted first (app.setup.ts), so that it sees the requests the
 * body parsers refuse too.
 */
@Injectable()
export class HttpMetricsMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  readonly handle: RequestHandler = (request: Request, response: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    response.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = response.writableFinished ? response.statusCode : CLIENT_CLOSED_REQUEST;
      this.metrics.recordRequest(request.method, routeLabel(request), status, seconds);
    });
    next();
  };
}
