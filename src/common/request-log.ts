import { hostname } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { DestinationStream, Logger } from 'pino';
import { storage } from 'nestjs-pino/storage';
import { redactRequest } from './security/log-redaction';

/** The request's headers whose values never reach a log (the `req.headers.…` entries of LOG_REDACT_PATHS). */
const REDACTED_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-cart-token',
  'x-signature',
  'stripe-signature',
  'x-wp-nonce',
];

const REDACTED = '[redacted]';

/** pino's numeric levels, as the request line writes them. */
const LEVELS = { info: 30, warn: 40, error: 50 } as const;
type RequestLevel = keyof typeof LEVELS;

/** What the line of a finished request needs, taken when the request arrives (the router changes `params` on its way). */
interface Arrival {
  request: Request;
  response: Response;
  startedAt: number;
  params: unknown;
}

/**
 * What nestjs-pino's loggers read of the request in progress (its Store), with the request's child
 * logger made only when something logs during the request (an error, a warning): app logs then
 * carry the request (`req`) as they did, and the requests during which nothing logs, nearly all,
 * make no child logger. The child shows the request as it arrived (route parameters included).
 */
class LazyRequestStore {
  private child: Logger | undefined;
  readonly responseLogger = undefined;

  constructor(
    private readonly root: Logger,
    private readonly arrival: Arrival,
  ) {}

  get logger(): Logger {
    const { request, params } = this.arrival;
    this.child ??= this.root.child({
      req: {
        id: (request as { id?: unknown }).id,
        method: request.method,
        originalUrl: request.originalUrl || request.url,
        query: request.query,
        params,
        headers: request.headers,
        socket: request.socket,
      },
    });
    return this.child;
  }

  set logger(logger: Logger) {
    this.child = logger;
  }
}

/** The level of a finished request's line, as the request log has always chosen it. */
export function requestLevel(response: ServerResponse, error?: Error): RequestLevel {
  return error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info';
}

/** The headers as the log shows them: the values of credentials and proofs replaced, names and order kept. */
function loggedHeaders(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  let copy: IncomingMessage['headers'] | null = null;
  for (const name of REDACTED_HEADERS) {
    if (headers[name] === undefined) continue;
    copy ??= { ...headers };
    copy[name] = REDACTED;
  }
  return copy ?? headers;
}

/**
 * The request log: one JSON line per request when its answer is finished, with the fields pino-http
 * wrote (`level`, `time`, `pid`, `hostname`, `req` with its id, method, URL and query with their
 * secrets redacted, route parameters, headers with credentials redacted, remote address and port,
 * `res.statusCode`, `responseTime`, `msg`), and the request's id on the answer (X-Request-Id).
 *
 * Written once, at the end, from what the request already holds: pino-http made a child logger per
 * request and serialized the request into it on arrival (5 % of a single event's CPU). A request
 * that failed (5xx, a socket error) is still logged through pino with its error, as before.
 */
export function requestLogMiddleware(
  root: Logger,
  output: DestinationStream,
  assignRequestId: (request: IncomingMessage, response: ServerResponse) => string,
): (request: Request, response: Response, next: NextFunction) => void {
  const prefix = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"req":`;

  const finish = (arrival: Arrival, store: LazyRequestStore, error?: Error) => {
    const { request, response } = arrival;
    const responseTime = Date.now() - arrival.startedAt;
    const level = requestLevel(response, error);
    if (!root.isLevelEnabled(level)) return;
    if (level === 'error') {
      // The rare line: through pino, with the error serialized and redacted as before.
      const failure = error ?? new Error(`failed with status code ${response.statusCode}`);
      store.logger[level]({ res: response, err: failure, responseTime }, 'request errored');
      return;
    }
    const msg = !request.readableAborted && response.writableEnded ? 'request completed' : 'request aborted';
    const serialized = redactRequest({
      id: (request as { id?: unknown }).id,
      method: request.method,
      url: request.originalUrl || request.url,
      query: request.query,
      params: arrival.params,
      headers: loggedHeaders(request.headers),
      remoteAddress: request.socket?.remoteAddress,
      remotePort: request.socket?.remotePort,
    });
    output.write(
      `{"level":${LEVELS[level]},"time":${Date.now()}${prefix}${JSON.stringify(serialized)},"res":{"statusCode":${response.statusCode}},"responseTime":${responseTime},"msg":"${msg}"}\n`,
    );
  };

  return (request, response, next) => {
    (request as { id?: unknown }).id ||= assignRequestId(request, response);
    const arrival: Arrival = { request, response, startedAt: Date.now(), params: request.params };
    const store = new LazyRequestStore(root, arrival);
    const done = (error?: Error) => {
      response.removeListener('close', done);
      response.removeListener('finish', done);
      response.removeListener('error', done);
      finish(arrival, store, error);
    };
    response.on('close', done);
    response.on('finish', done);
    response.on('error', done);
    storage.run(store, next);
  };
}
