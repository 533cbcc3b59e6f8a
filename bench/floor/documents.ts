import { request as httpRequest } from 'node:http';
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

  constructor(serialized: string) {
    let from = 0;
    for (const match of serialized.matchAll(MARKER)) {
      this.parts.push(serialized.slice(from, match.index));
      this.joints.push(match[1] !== undefined);
      from = match.index + match[0].length;
    }
    this.parts.push(serialized.slice(from));
  }

  /** The document for a client; the last one is kept, as every benchmark client has the same. */
  render(client: ClientOrigin): string {
    if (client.origin !== this.lastOrigin) {
      let text = this.parts[0];
      for (let index = 0; index < this.joints.length; index += 1)
        text += (this.joints[index] ? client.origin : client.hostname) + this.parts[index + 1];
      this.lastText = text;
      this.lastOrigin = client.origin;
    }
    return this.lastText;
  }
}

export interface DocumentStore {
  /** List items of events (`events[]` of a list page), by event id. */
  eventItems: Map<number, StoredDocument>;
  /** Single events (GET /events/{id}), by id. */
  events: Map<number, StoredDocument>;
  /** The manager's ticket list items and attendee list items, by id. */
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
 * Reads the plan's documents from the running service. Re-serializing a parsed item gives the
 * service's bytes back: the service writes JSON.stringify's output, which is canonical for the values
 * and key order it holds. A page past the end (404 or 400) just has nothing to keep.
 */
export async function loadDocuments(serviceUrl: string, plan: FloorPlan, concurrency = 4): Promise<DocumentStore> {
  const store: DocumentStore = { eventItems: new Map(), events: new Map(), tickets: new Map(), attendees: new Map() };
  const failures: string[] = [];
  const read = async (path: string, authorization?: string): Promise<any> => {
    const fetched = await fetchFromService(serviceUrl, path, authorization);
    if (fetched.status === 200) return JSON.parse(fetched.text);
    if (fetched.status >= 500) failures.push(`${path}: ${fetched.status} ${fetched.text.slice(0, 200)}`);
    return null;
  };

  const listPages = plan.eventLists.flatMap(({ query, pages }) => pages.map((page) => eventListPath(query, page)));
  await eachLimited(listPages, concurrency, async (path) => {
    const page = await read(path);
    if (page) keepItems(store.eventItems, page.events);
  });
  await eachLimited(plan.eventIds, concurrency, async (id) => {
    const fetched = await fetchFromService(serviceUrl, `/cal/events/v1/events/${id}`);
    if (fetched.status === 200) store.events.set(id, new StoredDocument(fetched.text));
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
  if (failures.length) throw new Error(`The service failed while the floor read its documents:\n${failures.join('\n')}`);
  return store;
}
