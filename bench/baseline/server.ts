import type { AddressInfo } from 'node:net';
import Fastify, { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Authenticator } from './auth';
import { CART_COOKIE, CartRoutes } from './cart';
import { CountCache } from './counts';
import { Database } from './db';
import { ApiFailure, noRoute } from './errors';
import { EventRoutes } from './events';
import { resolveZone } from './format';
import type { RequestContext } from './mapping';
import type { QueryValue } from './paging';
import { TicketRoutes } from './tickets';

/**
 * The baseline of the benchmark: a raw Fastify + mysql2 server answering the measured routes of
 * the service with the same SQL (bench/baseline/queries.ts), status codes, headers and JSON bodies,
 * for anonymous callers (and Basic-authenticated ones on GET /attendees). What the service offers
 * beyond that (other routes, filters, signed-in carts) is not here: other routes are 404.
 */

export interface BaselineOptions {
  databaseUrl: string;
  /** 0 picks a free port. */
  port: number;
  /** DATABASE_POOL_SIZE; the service's default is 10. */
  poolSize?: number;
  /** NONCE_SECRET of the service, which signs the cart tokens both servers accept. */
  nonceSecret: string;
  /** API_ROOT, '' or a path such as '/wp-json'. */
  apiRoot?: string;
  host?: string;
  /** SITE_TIMEZONE (UTC). */
  siteTimezone?: string;
  /** PUBLIC_URL: base of absolute URLs; by default they are built from the Host header. */
  publicUrl?: string;
  /** DATABASE_STATEMENT_TIMEOUT_MS (10000); 0: none. */
  statementTimeoutMs?: number;
  /** COUNT_CACHE_SECONDS (300); 0: list counts are not cached. */
  countCacheSeconds?: number;
  /** MAX_TICKETS_PER_ORDER (100) and ORDER_HOLD_MINUTES (15). */
  maxTicketsPerOrder?: number;
  orderHoldMinutes?: number;
  /** Sees every SQL statement before it is sent: for tests. */
  onQuery?: (sql: string, values: unknown[]) => void;
}

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

const CURRENCY = { code: 'USD', symbol: '$', position: 'prefix' } as const;

/** Codes of framework-level failures (bad JSON, unsupported content type, too large), as the service names them. */
const CODES_BY_STATUS: Record<number, [string, string]> = {
  400: ['rest_bad_request', 'The request is not valid.'],
  413: ['rest_request_too_large', 'The request body is too large.'],
  415: ['rest_unsupported_media_type', 'The request body has a content type or encoding that is not supported.'],
};

type Query = Record<string, QueryValue>;

export async function startBaseline(options: BaselineOptions): Promise<BaselineServer> {
  const siteZone = resolveZone(options.siteTimezone ?? 'UTC');
  if (!siteZone) throw new Error(`SITE_TIMEZONE names no time zone: ${options.siteTimezone}`);
  const apiRoot = (options.apiRoot ?? '').replace(/\/+$/, '');
  const db = new Database({
    databaseUrl: options.databaseUrl,
    poolSize: options.poolSize ?? 10,
    statementTimeoutMs: options.statementTimeoutMs ?? 10_000,
    onQuery: options.onQuery,
  });
  const authenticator = new Authenticator(db);
  const counts = new CountCache(db, options.countCacheSeconds ?? 300);
  const events = new EventRoutes(db, counts, siteZone);
  const tickets = new TicketRoutes(db, counts);
  const carts = new CartRoutes(db, {
    nonceSecret: options.nonceSecret,
    maxTicketsPerOrder: options.maxTicketsPerOrder ?? 100,
    orderHoldMinutes: options.orderHoldMinutes ?? 15,
    currencyCode: CURRENCY.code,
  });

  const contexts = new Map<string, RequestContext>();
  /** URLs in responses start with the origin the client used (or PUBLIC_URL); one context per origin. */
  const contextOf = (request: FastifyRequest): RequestContext => {
    const origin = options.publicUrl?.replace(/\/+$/, '') ?? `http://${request.headers.host ?? 'localhost'}`;
    let context = contexts.get(origin);
    if (!context) {
      const { hostname, pathname } = new URL(origin);
      context = {
        origin,
        siteId: `${hostname}${pathname === '/' ? '' : pathname}`,
        eventsBase: `${origin}${apiRoot}/cal/events/v1/`,
        ticketsBase: `${origin}${apiRoot}/cal/tickets/v1/`,
        siteZone,
        currency: CURRENCY,
      };
      if (contexts.size < 100) contexts.set(origin, context);
    }
    return context;
  };

  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  const prefix = `${apiRoot}/cal`;

  app.get(`${prefix}/events/v1/events`, async (request, reply) => {
    const page = await events.list(request.query as Query, contextOf(request));
    reply.header('X-TEC-Total', String(page.total)).header('X-TEC-TotalPages', String(page.totalPages));
    return page.body;
  });

  app.get(`${prefix}/events/v1/events/:id`, async (request) => {
    const { id } = request.params as { id: string };
    if (!/^\d{1,10}$/.test(id) || Number(id) > 2_147_483_647) throw noRoute();
    return events.single(Number(id), contextOf(request));
  });

  app.get(`${prefix}/events/v1/venues`, async (request, reply) => {
    const page = await events.venues(request.query as Query, contextOf(request));
    reply.header('X-TEC-Total', String(page.total)).header('X-TEC-TotalPages', String(page.totalPages));
    return page.body;
  });

  app.get(`${prefix}/tickets/v1/tickets`, async (request, reply) => {
    const page = await tickets.tickets(request.query as Query, contextOf(request));
    reply.header('X-ET-TOTAL', String(page.total)).header('X-ET-TOTAL-PAGES', String(page.totalPages));
    return page.body;
  });

  app.get(`${prefix}/tickets/v1/attendees`, async (request, reply) => {
    const user = await authenticator.authenticate(request.headers.authorization);
    const page = await tickets.attendees(request.query as Query, user, contextOf(request));
    reply.header('X-ET-TOTAL', String(page.total)).header('X-ET-TOTAL-PAGES', String(page.totalPages));
    return page.body;
  });

  app.post(`${prefix}/tickets/v1/cart`, async (request, reply) => {
    const { cart, token } = await carts.write(request.body, carts.requestToken(request.headers));
    reply.header('X-Cart-Token', token).header('Set-Cookie', `${CART_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax`);
    return cart;
  });

  app.post(`${prefix}/tickets/v1/cart/checkout`, async (request, reply) => {
    const context = contextOf(request);
    const order = await carts.checkout(request.body, carts.requestToken(request.headers), context);
    reply.code(201).header('Location', `${context.ticketsBase}orders/${String(order.id)}`);
    return order;
  });

  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send(noRoute().body());
  });

  app.setErrorHandler((error: FastifyError | ApiFailure, _request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiFailure) {
      if (typeof error.extra.retry_after === 'number') void reply.header('Retry-After', String(error.extra.retry_after));
      return reply.code(error.status).send(error.body());
    }
    const known = error.statusCode === undefined ? undefined : CODES_BY_STATUS[error.statusCode];
    if (known && error.statusCode !== undefined) return reply.code(error.statusCode).send({ code: known[0], message: known[1], data: { status: error.statusCode } });
    return reply.code(500).send({ code: 'internal_server_error', message: 'An unexpected error occurred.', data: { status: 500 } });
  });

  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ port: options.port, host });
  } catch (error) {
    await db.close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number`);
  return Number(raw);
}

/** `node -r ts-node/register/transpile-only bench/baseline/server.ts` with the service's environment variables. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const nonceSecret = process.env.NONCE_SECRET;
  if (!databaseUrl || !/^(mysql|mariadb):\/\//.test(databaseUrl)) throw new Error('DATABASE_URL must be a mysql:// URL');
  if (!nonceSecret) throw new Error('NONCE_SECRET is required: the cart tokens of the service are signed with it');
  const server = await startBaseline({
    databaseUrl: databaseUrl.replace(/^mariadb:/, 'mysql:'),
    port: positiveIntegerFromEnv('PORT', 3001),
    host: process.env.HOST || '127.0.0.1',
    poolSize: positiveIntegerFromEnv('DATABASE_POOL_SIZE', 10),
    nonceSecret,
    apiRoot: process.env.API_ROOT ?? '',
    siteTimezone: process.env.SITE_TIMEZONE || 'UTC',
    publicUrl: process.env.PUBLIC_URL || undefined,
    statementTimeoutMs: positiveIntegerFromEnv('DATABASE_STATEMENT_TIMEOUT_MS', 10_000),
    maxTicketsPerOrder: positiveIntegerFromEnv('MAX_TICKETS_PER_ORDER', 100),
    orderHoldMinutes: positiveIntegerFromEnv('ORDER_HOLD_MINUTES', 15),
    countCacheSeconds: positiveIntegerFromEnv('COUNT_CACHE_SECONDS', 300),
  });
  process.stdout.write(`baseline listening on ${server.url}\n`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
