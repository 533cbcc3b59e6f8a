import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { FloorPlan } from './plan';
import { eventListPath } from './plan';

/**
 * Documents kept from the service's own responses, as serialized JSON. The service builds absolute
 * URLs from the request's Host header (`http://host:port/…`) and global ids from its name alone
 * (`host?id=5`), so the floor asks it with a marker host and splits each document where the marker
 * stands: a response for another client is the parts joined with its origin or its host name.
 */
export const MARKER_HOST = 'floor-origin.invalid';
const MARKER = /(http:\/\/)?floor-origin\.invalid/g;

/** Where a client's documents differ: `http://host:port` and `host`. */
export interface ClientOrigin {
  origin: string;
  hostname: string;
}

export class StoredDocument {
  private readonly parts: string[] = [];
  /** Whether the marker between parts[i] and parts[i + 1] was an origin (else a host name). */
  private readonly joints: boolean[] = [];
  private lastOrigin = '';
  private lastText = '';
  private lastEtag = '';

  constructor(serialized: string) {
    let from = 0;
    for (const match of serialized.matchAll(MARKER)) {
      this.parts.push(serialized.slice(from, match.index));
      this.joints.push(match[1] !== undefined);
      from = match.index + match[0].length;
    }
    this.parts.push(serialized.slice(from));
  }

  /** About what it holds in the heap, for the cache's bound (its parts and the last rendering, at most two bytes a character). */
  get size(): number {
    let characters = 0;
    for (const part of this.parts) characters += part.length;
    return 2 * 2 * characters + 100;
  }

  /** The document for a client; the last one is kept, as every benchmark client has the same. */
  render(client: ClientOrigin): string {
    if (client.origin !== this.lastOrigin) {
      let text = this.parts[0];
      for (let index = 0; index < this.joints.length; index += 1)
        text += (this.joints[index] ? client.origin : client.hostname) + this.parts[index + 1];
      this.lastText = text;
      this.lastOrigin = client.origin;
      this.lastEtag = '';
    }
    return this.lastText;
  }

  /** The strong ETag of the document for a client: a hash of its text, worked out once per rendering kept. */
  etag(client: ClientOrigin): string {
    const text = this.render(client);
    if (!this.lastEtag) this.lastEtag = `"${createHash('sha1').update(text).digest('base64url').slice(0, 27)}"`;
    return this.lastEtag;
  }
}

/**
 * Event documents of one kind (list items, single events) kept by the floor for its whole working
 * set within bounded memory: every document in a table of its own (`event_id` its primary key,
 * the body as the service sent it with the marker host), and the most recently used in an LRU of
 * at most `cacheBytes`. A page is then its documents from memory, those missing read in one
 * statement by primary key: what a perfect document cache costs when it fits, and one read of
 * stored strings when it does not.
 */
export class KeptDocuments {
  private readonly cache: LRUCache<number, StoredDocument> | null;
  private readonly stored = new Set<number>();

  constructor(
    private readonly pool: Pool,
    readonly table: string,
    cacheBytes: number,
  ) {
    this.cache = cacheBytes > 0 ? new LRUCache({ maxSize: cacheBytes, sizeCalculation: (document) => document.size }) : null;
  }

  async create(): Promise<void> {
    await this.pool.query(
      `CREATE TABLE ${this.table} (event_id INT NOT NULL PRIMARY KEY, body MEDIUMTEXT NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  get count(): number {
    return this.stored.size;
  }

  /** Keeps these documents (those kept already are skipped: the service answers one version during the load). */
  async keep(documents: Array<{ id: number; text: string }>): Promise<void> {
    const fresh = documents.filter((document) => !this.stored.has(document.id));
    if (fresh.length === 0) return;
    for (const document of fresh) this.stored.add(document.id);
    await this.pool.query(`INSERT INTO ${this.table} (event_id, body) VALUES ? ON DUPLICATE KEY UPDATE body = VALUES(body)`, [
      fresh.map((document) => [document.id, document.text]),
    ]);
    for (const document of fresh) this.cache?.set(document.id, new StoredDocument(document.text));
  }

  /** The documents of these events, in their order (undefined where the floor holds none). */
  async get(ids: number[]): Promise<Array<StoredDocument | undefined>> {
    const found = ids.map((id) => this.cache?.get(id));
    const missing = ids.filter((_id, index) => !found[index]);
    if (missing.length === 0) return found;
    const [rows] = await this.pool.query<RowDataPacket[]>(`SELECT event_id, body FROM ${this.table} WHERE event_id IN (?)`, [missing]);
    const read = new Map<number, StoredDocument>();
    for (const row of rows) {
      const document = new StoredDocument(String(row.body));
      read.set(Number(row.event_id), document);
      this.cache?.set(Number(row.event_id), document);
    }
    return ids.map((id, index) => found[index] ?? read.get(id));
  }
}

export const FLOOR_DOCUMENT_TABLES = { eventItems: 'floor_item_documents', events: 'floor_single_documents' } as const;

export interface DocumentStore {
  /** List items of events (`events[]` of a list page), by event id. */
  eventItems: KeptDocuments;
  /** Single events (GET /events/{id}), by id. */
  events: KeptDocuments;
  /** The manager's ticket list items and attendee list items, by id (a few pages: in memory). */
  tickets: Map<number, StoredDocument>;
  attendees: Map<number, StoredDocument>;
}

interface Fetched {
  status: number;
  text: string;
}

/** A GET with the marker as Host header (fetch would send the service's own host instead). */
function fetchFromService(serviceUrl: string, path: string, authorization?: string): Promise<Fetched> {
  const { hostname, port } = new URL(serviceUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: hostname, port, path, headers: { host: MARKER_HOST, ...(authorization ? { authorization } : {}) } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function keepItems(into: Map<number, StoredDocument>, items: Array<{ id: number }>): void {
  for (const item of items) into.set(item.id, new StoredDocument(JSON.stringify(item)));
}

/**
 * Reads the plan's documents from the running service into the floor's tables (created here).
 * Re-serializing a parsed item gives the service's bytes back: the service writes JSON.stringify's
 * output, which is canonical for the values and key order it holds. A page past the end (404 or
 * 400) just has nothing to keep. `progress` is told every few thousand pages.
 */
export async function loadDocuments(
  serviceUrl: string,
  plan: FloorPlan,
  pool: Pool,
  options: { cacheBytes: number; concurrency?: number; progress?: (line: string) => void },
): Promise<DocumentStore> {
  const store: DocumentStore = {
    eventItems: new KeptDocuments(pool, FLOOR_DOCUMENT_TABLES.eventItems, Math.floor(options.cacheBytes / 2)),
    events: new KeptDocuments(pool, FLOOR_DOCUMENT_TABLES.events, Math.floor(options.cacheBytes / 2)),
    tickets: new Map(),
    attendees: new Map(),
  };
  await store.eventItems.create();
  await store.events.create();
  const concurrency = options.concurrency ?? 4;
  const failures: string[] = [];
  const read = async (path: string, authorization?: string): Promise<any> => {
    const fetched = await fetchFromService(serviceUrl, path, authorization);
    if (fetched.status === 200) return JSON.parse(fetched.text);
    if (fetched.status >= 500) failures.push(`${path}: ${fetched.status} ${fetched.text.slice(0, 200)}`);
    return null;
  };
  let done = 0;
  const started = Date.now();
  const tick = (total: number) => {
    done += 1;
    if (options.progress && (done % 2000 === 0 || done === total))
      options.progress(`floor documents: ${done}/${total} read in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  };

  const listPages = plan.eventLists.flatMap(({ query, pages }) => pages.map((page) => eventListPath(query, page)));
  const total = listPages.length + plan.eventIds.length;
  await eachLimited(listPages, concurrency, async (path) => {
    const page = await read(path);
    if (page)
      await store.eventItems.keep((page.events as Array<{ id: number }>).map((item) => ({ id: item.id, text: JSON.stringify(item) })));
    tick(total);
  });
  await eachLimited(plan.eventIds, concurrency, async (id) => {
    const fetched = await fetchFromService(serviceUrl, `/cal/events/v1/events/${id}`);
    if (fetched.status === 200) await store.events.keep([{ id, text: fetched.text }]);
    else if (fetched.status >= 500) failures.push(`event ${id}: ${fetched.status} ${fetched.text.slice(0, 200)}`);
    tick(total);
  });
  const manager = plan.manager;
  if (manager) {
    const pages = [
      ...manager.ticketPages.map((page) => ({ path: `/cal/tickets/v1/tickets?page=${page}`, into: store.tickets, key: 'tickets' })),
      ...manager.attendeePages.map((page) => ({ path: `/cal/tickets/v1/attendees?page=${page}`, into: store.attendees, key: 'attendees' })),
    ];
    await eachLimited(pages, concurrency, async ({ path, into, key }) => {
      const page = await read(path, manager.authorization);
      if (page) keepItems(into, page[key]);
    });
  }
  if (failures.length) throw new Error(`The service failed while the floor read its documents:\n${failures.slice(0, 20).join('\n')}`);
  return store;
}
