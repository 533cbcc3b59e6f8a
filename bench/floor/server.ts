/**
 * The benchmark's floor: the cheapest server we know how to write for the measured read routes,
 * answering with the service's bytes. It shares no code with src/. At start-up it builds its own
 * ordered tables (bench/floor/read-index.ts) and reads, from the running service, the documents
 * the benchmark's scenarios can reach (bench/floor/plan.ts). A request is then one ordered index
 * read of the page's ids, a kept count, and the kept documents concatenated.
 *
 * Routes: GET /cal/events/v1/events (anonymous; the default window and the categories, tags,
 * venue and organizer filters by id, page, per_page), GET /cal/events/v1/events/{id} (anonymous; its
 * ETag kept with the document, and 304 for a matching If-None-Match),
 * GET /cal/tickets/v1/tickets and /cal/tickets/v1/attendees (a manager's Basic credentials; page,
 * per_page). Anything else is refused with a floor-* error code.
 *
 * Run alone: DATABASE_URL=mysql://… SERVICE_URL=http://… FLOOR_PLAN=plan.json PORT=3001 npm run bench:floor
 */
import { readFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { createPool } from 'mysql2/promise';
import { ClientOrigin, DocumentStore, KeptDocuments, loadDocuments, StoredDocument } from './documents';
import { startFrameworkFloor } from './framework';
import { ManagerCredentials } from './managers';
import type { FloorPlan } from './plan';
import { DIMENSIONS, ListFilter, ReadIndex, Window } from './read-index';
import { runUntilStopped } from './run-until-stopped';

export interface FloorOptions {
  databaseUrl: string;
  /** The running service the documents are read from. */
  serviceUrl: string;
  plan: FloorPlan;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  poolSize?: number;
  /** SITE_TIMEZONE of the service (UTC): the list's default window starts at the start of today there. */
  siteTimezone?: string;
  /** Bytes of documents the floor keeps in memory (the rest is read from its tables by primary key); default 256 MB. */
  documentCacheBytes?: number;
  /** Also serve the same routes through a bare Nest + Express app on this port (0: a free one); none when undefined. */
  frameworkPort?: number;
  /** Told how the documents' read goes. */
  progress?: (line: string) => void;
}

export interface FloorServer {
  url: string;
  /** The framework floor (bench/floor/framework.ts), when asked for. */
  frameworkUrl?: string;
  /** Stops listening and drops the floor's tables. */
  close(): Promise<void>;
}

const DEFAULT_PER_PAGE = 25;
const MAX_PER_PAGE = 100;
const WINDOW_MONTHS = 24;
const JSON_TYPE = 'application/json; charset=utf-8';
const EVENT_QUERY_KEYS = new Set(['page', 'per_page', ...DIMENSIONS.map((dimension) => dimension.parameter)]);
const MANAGER_QUERY_KEYS = new Set(['page', 'per_page']);

type Query = Record<string, string | string[] | undefined>;

class FloorRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the routes read of a request. */
interface FloorRequest {
  headers: IncomingHttpHeaders;
  query: Query;
  params: Record<string, string>;
}

/** The headers a route sets on its answer. */
class FloorReply {
  readonly headers: Record<string, string> = {};
  status = 200;

  header(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  type(contentType: string): this {
    return this.header('Content-Type', contentType);
  }
}

/** Repeated keys give arrays, as the query parsers of web frameworks do. */
function parseQuery(search: URLSearchParams): Query {
  const query: Query = {};
  for (const [name, value] of search) {
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function positiveInteger(query: Query, name: string, fallback: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new FloorRefusal(400, 'floor-bad-parameter', `${name} must be a positive integer`);
  return Number(raw);
}

function assertOnly(query: Query, allowed: Set<string>): void {
  const other = Object.keys(query).find((name) => !allowed.has(name));
  if (other) throw new FloorRefusal(400, 'floor-unsupported', `The floor does not serve the parameter ${other}`);
}

function withQuery(url: string, pairs: Array<[string, string]>): string {
  return pairs.length === 0 ? url : `${url}?${new URLSearchParams(pairs).toString()}`;
}

function client(request: FloorRequest): ClientOrigin {
  const host = request.headers.host ?? 'localhost';
  return { origin: `http://${host}`, hostname: host.replace(/:\d+$/, '') };
}

function missing(kind: string, id: number): FloorRefusal {
  return new FloorRefusal(500, 'floor-document-missing', `The floor holds no ${kind} ${id}: it is outside the plan it was started with`);
}

async function concatenatedKept(documents: KeptDocuments, ids: number[], clientOrigin: ClientOrigin, kind: string): Promise<string> {
  if (ids.length === 0) return '';
  const found = await documents.get(ids);
  let text = '';
  for (let index = 0; index < ids.length; index += 1) {
    const document = found[index];
    if (!document) throw missing(kind, ids[index]);
    text += (index ? ',' : '') + document.render(clientOrigin);
  }
  return text;
}

function concatenated(documents: Map<number, StoredDocument>, ids: number[], clientOrigin: ClientOrigin, kind: string): string {
  return ids
    .map((id) => {
      const document = documents.get(id);
      if (!document)
        throw new FloorRefusal(
          500,
          'floor-document-missing',
          `The floor holds no ${kind} ${id}: it is outside the plan it was started with`,
        );
      return document.render(clientOrigin);
    })
    .join(',');
}

export class FloorRoutes {
  constructor(
    private readonly index: ReadIndex,
    private readonly documents: DocumentStore,
    private readonly managers: ManagerCredentials,
    private readonly siteZone: string,
  ) {}

  /** Today's default window: from the start of today to the end of the day 24 months ahead, site time. */
  window(): Window & { startLabel: string; endLabel: string } {
    const now = DateTime.now().setZone(this.siteZone);
    const startLabel = `${now.toFormat('yyyy-MM-dd')} 00:00:00`;
    const endLabel = `${now.plus({ months: WINDOW_MONTHS }).toFormat('yyyy-MM-dd')} 23:59:59`;
    const utc = (label: string) =>
      DateTime.fromFormat(label, 'yyyy-MM-dd HH:mm:ss', { zone: this.siteZone }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
    return { start: utc(startLabel), end: utc(endLabel), startLabel, endLabel };
  }

  async eventsList(request: FloorRequest, reply: FloorReply): Promise<string> {
    const query = request.query;
    assertOnly(query, EVENT_QUERY_KEYS);
    const page = positiveInteger(query, 'page', 1);
    const perPage = Math.min(positiveInteger(query, 'per_page', DEFAULT_PER_PAGE), MAX_PER_PAGE);
    const filters = DIMENSIONS.filter((dimension) => single(query, dimension.parameter) !== undefined);
    if (filters.length > 1) throw new FloorRefusal(400, 'floor-unsupported', 'The floor serves one filter at a time');
    const filter: ListFilter = { dimension: filters[0], values: [] };
    if (filter.dimension) {
      const raw = single(query, filter.dimension.parameter)!;
      if (!/^\d+(,\d+)*$/.test(raw)) throw new FloorRefusal(400, 'floor-unsupported', 'The floor filters by ids only');
      filter.values = raw.split(',').map(Number);
    }

    const window = this.window();
    const total = await this.index.count(filter, window);
    const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
    if (page > 1 && page > totalPages)
      throw new FloorRefusal(404, 'event-archive-page-not-found', 'The requested event archive page does not exist');
    const ids = total === 0 ? [] : await this.index.pageIds(filter, window, (page - 1) * perPage, perPage);

    const clientOrigin = client(request);
    const others: Array<[string, string]> = [
      ['per_page', String(perPage)],
      ['start_date', window.startLabel],
      ['end_date', window.endLabel],
    ];
    if (filter.dimension) others.push([filter.dimension.parameter, filter.values.join(',')]);
    others.push(['status', 'publish']);
    const collection = `${clientOrigin.origin}/cal/events/v1/events/`;
    let links = `"rest_url":${JSON.stringify(withQuery(collection, [['page', String(page)], ...others]))}`;
    if (page < totalPages) links += `,"next_rest_url":${JSON.stringify(withQuery(collection, [['page', String(page + 1)], ...others]))}`;
    if (page > 1 && totalPages > 0) {
      const previous = Math.min(page - 1, totalPages);
      links += `,"previous_rest_url":${JSON.stringify(withQuery(collection, previous === 1 ? others : [['page', String(previous)], ...others]))}`;
    }
    reply.header('X-TEC-Total', String(total)).header('X-TEC-TotalPages', String(totalPages)).type(JSON_TYPE);
    const items = await concatenatedKept(this.documents.eventItems, ids, clientOrigin, 'events list item');
    return `{"events":[${items}],${links},"total":${total},"total_pages":${totalPages}}`;
  }

  /** One primary-key read (the event's version, as a document cache keyed by it needs), then the kept document. */
  async event(request: FloorRequest, reply: FloorReply): Promise<string> {
    const id = Number((request.params as { id: string }).id);
    reply.type(JSON_TYPE);
    if (!Number.isInteger(id) || (await this.index.eventVersion(id)) === undefined) throw missing('single event', id);
    const [document] = await this.documents.events.get([id]);
    if (!document) throw missing('single event', id);
    // A conditional GET: the ETag kept with the document's rendering, 304 without the body when it matches.
    const clientOrigin = client(request);
    const etag = document.etag(clientOrigin);
    reply.header('ETag', etag);
    if (request.headers['if-none-match'] === etag) {
      reply.status = 304;
      return '';
    }
    return document.render(clientOrigin);
  }

  async managerList(request: FloorRequest, reply: FloorReply, list: 'tickets' | 'attendees'): Promise<string> {
    if (!(await this.managers.isManager(request.headers.authorization))) {
      throw new FloorRefusal(401, 'floor-manager-only', 'The floor serves this list to managers (administrators and editors) only');
    }
    const query = request.query;
    assertOnly(query, MANAGER_QUERY_KEYS);
    const page = positiveInteger(query, 'page', 1);
    const perPage = positiveInteger(query, 'per_page', DEFAULT_PER_PAGE);
    if (perPage > MAX_PER_PAGE) throw new FloorRefusal(400, 'floor-bad-parameter', `per_page must be at most ${MAX_PER_PAGE}`);
    const total = await (list === 'tickets' ? this.index.managerTicketCount() : this.index.managerAttendeeCount());
    const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
    if (page > 1 && page > totalPages) {
      throw new FloorRefusal(400, 'invalid-page-number', 'The page number requested is larger than the number of pages available.');
    }
    const offset = (page - 1) * perPage;
    const ids =
      total === 0
        ? []
        : await (list === 'tickets' ? this.index.managerTicketIds(offset, perPage) : this.index.managerAttendeeIds(offset, perPage));
    const echo: Array<[string, string]> = [];
    if (query.page !== undefined) echo.push(['page', String(page)]);
    if (query.per_page !== undefined) echo.push(['per_page', String(perPage)]);
    const clientOrigin = client(request);
    const restUrl = withQuery(`${clientOrigin.origin}/cal/tickets/v1/${list}/`, echo);
    const items = concatenated(
      list === 'tickets' ? this.documents.tickets : this.documents.attendees,
      ids,
      clientOrigin,
      `${list} list item`,
    );
    reply.header('X-ET-TOTAL', String(total)).header('X-ET-TOTAL-PAGES', String(totalPages)).type(JSON_TYPE);
    return `{"rest_url":${JSON.stringify(restUrl)},"total":${total},"total_pages":${totalPages},"${list}":[${items}]}`;
  }
}

/** A floor answer: status, headers and body. */
export interface FloorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The floor's routing and error envelope, shared by its raw server and the framework floor. */
export function floorAnswerer(
  routes: FloorRoutes,
): (method: string | undefined, rawUrl: string | undefined, headers: IncomingHttpHeaders) => Promise<FloorAnswer> {
  const route = async (request: FloorRequest, reply: FloorReply, method: string | undefined, path: string): Promise<string> => {
    if (method === 'GET' && path === '/floor/ready') {
      reply.type(JSON_TYPE);
      return '{"ready":true}';
    }
    if (method === 'GET' && path === '/cal/events/v1/events') return routes.eventsList(request, reply);
    const eventPath = /^\/cal\/events\/v1\/events\/([^/]+)$/.exec(path);
    if (method === 'GET' && eventPath) return routes.event({ ...request, params: { id: decodeURIComponent(eventPath[1]) } }, reply);
    if (method === 'GET' && path === '/cal/tickets/v1/tickets') return routes.managerList(request, reply, 'tickets');
    if (method === 'GET' && path === '/cal/tickets/v1/attendees') return routes.managerList(request, reply, 'attendees');
    throw new FloorRefusal(404, 'floor-no-route', `The floor does not serve ${method ?? ''} ${path}`);
  };
  return async (method, rawUrl, headers) => {
    const url = new URL(rawUrl ?? '/', 'http://floor');
    const reply = new FloorReply();
    try {
      const body = await route({ headers, query: parseQuery(url.searchParams), params: {} }, reply, method, url.pathname);
      return { status: reply.status, headers: reply.headers, body };
    } catch (error) {
      const refusal =
        error instanceof FloorRefusal
          ? error
          : new FloorRefusal(500, 'floor-error', error instanceof Error ? error.message : String(error));
      return {
        status: refusal.status,
        headers: { 'Content-Type': JSON_TYPE },
        body: JSON.stringify({ code: refusal.code, message: refusal.message, data: { status: refusal.status } }),
      };
    }
  };
}

export async function startFloor(options: FloorOptions): Promise<FloorServer> {
  const siteZone = options.siteTimezone ?? 'UTC';
  if (!DateTime.now().setZone(siteZone).isValid) throw new Error(`SITE_TIMEZONE ${siteZone} is not a zone`);
  // Dates as 'YYYY-MM-DD HH:MM:SS' strings: they sort like the instants and merge without parsing.
  const pool = createPool({
    uri: options.databaseUrl,
    connectionLimit: options.poolSize ?? 10,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    dateStrings: true,
  });
  const index = new ReadIndex(pool);
  try {
    await index.build();
    const documents = await loadDocuments(options.serviceUrl, options.plan, pool, {
      cacheBytes: options.documentCacheBytes ?? 256 * 1024 * 1024,
      progress: options.progress,
    });
    const routes = new FloorRoutes(index, documents, new ManagerCredentials(pool), siteZone);
    const framework =
      options.frameworkPort === undefined
        ? undefined
        : await startFrameworkFloor(floorAnswerer(routes), options.frameworkPort, options.host ?? '127.0.0.1');

    const answer = floorAnswerer(routes);
    const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
      const { status, headers, body } = await answer(incoming.method, incoming.url, incoming.headers);
      response.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
      response.end(body);
    };
    const server = createServer((incoming, response) => void handle(incoming, response));
    // Kept-alive connections live as long as under the web framework the floor used before (72 s).
    server.keepAliveTimeout = 72_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
    });
    const address = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${address.port}`,
      frameworkUrl: framework?.url,
      close: async () => {
        await framework?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await index.drop();
        await pool.end();
      },
    };
  } catch (error) {
    await index.drop().catch(() => undefined);
    await pool.end();
    throw error;
  }
}

function requiredEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

if (require.main === module) {
  runUntilStopped(
    startFloor({
      databaseUrl: requiredEnvironment('DATABASE_URL'),
      serviceUrl: requiredEnvironment('SERVICE_URL'),
      plan: JSON.parse(readFileSync(requiredEnvironment('FLOOR_PLAN'), 'utf8')) as FloorPlan,
      port: Number(process.env.PORT ?? 0),
      poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      siteTimezone: process.env.SITE_TIMEZONE,
      documentCacheBytes: process.env.FLOOR_DOCUMENT_CACHE_MB ? Number(process.env.FLOOR_DOCUMENT_CACHE_MB) * 1024 * 1024 : undefined,
      frameworkPort: process.env.FRAMEWORK_PORT ? Number(process.env.FRAMEWORK_PORT) : undefined,
      progress: (line) => process.stderr.write(`${line}\n`),
    }),
  );
}
