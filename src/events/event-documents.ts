import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource, MoreThan } from 'typeorm';
import type { RequestContext } from '../auth/request-context';
import { appConfig } from '../config/app.config';
import { MetricsService } from '../metrics/metrics.service';
import type { EmbeddedTermResponse } from '../terms/term-response';
import { EventHooks } from './event-hooks';
import { EventRelationsLoader } from './event-relations.loader';
import { Event } from './event.entity';
import { DocumentToStore, StoredEventDocuments } from './stored-event-documents';
import type { EventResponse } from './dto/event.response';
import { ticketOffersJsonLd, toEventResponse } from './events.mapper';

/** An event a page shows: its id and document version, and its row when the page query read it. */
export interface ListedEvent {
  id: number;
  documentVersion: number;
  event?: Event;
  /** The stored counts of its terms (`category:3`, `tag:5`), when the page query read them. */
  termCounts?: TermCounts;
}

/**
 * An event's response as built once: the single GET's shape (JSON-LD included, without the offers
 * of its tickets, which sales change) and what the per-request parts need.
 */
interface EventDocument {
  response: EventResponse;
  /** The offers the JSON-LD takes from the cost, used when the event has no published ticket. */
  costOffers: unknown;
  /** Whether the embedded terms' counts are to be read again. */
  hasTerms: boolean;
}

/** The terms' stored counts of published events, by kind and id (`category:3`). */
export type TermCounts = Map<string, number>;

/**
 * A document is counted as twice the length of its JSON, an estimate of what the heap holds for
 * it: V8 keeps its strings at one or two bytes a character, and the objects around them.
 */
function documentBytes(document: EventDocument): number {
  return 2 * JSON.stringify(document.response).length + 200;
}

/**
 * Event responses for lists and single GETs, assembled from documents cached per instance (an
 * LRU bounded by EVENT_DOCUMENT_CACHE_MB) and keyed by the event's id, its `document_version`
 * and the URL identity of the request. The version is moved by database triggers in the
 * transaction of any write to what the document shows (migration EventDocumentVersions) and read
 * with the page, so a write committed on any instance changes the key every instance looks up: no
 * instance can serve a stale document, without messages between instances. Per request: the
 * embedded terms' counts (one statement for a page) and, on a single GET of a ticketed event, the
 * JSON-LD offers (their availability).
 */
@Injectable()
export class EventDocuments {
  private readonly documents: LRUCache<string, EventDocument> | null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly relations: EventRelationsLoader,
    private readonly hooks: EventHooks,
    private readonly metrics: MetricsService,
    private readonly stored: StoredEventDocuments,
  ) {
    const maxSize = Math.floor(config.eventDocumentCacheMb * 1024 * 1024);
    this.documents =
      maxSize > 0
        ? new LRUCache<string, EventDocument>({
            maxSize,
            sizeCalculation: documentBytes,
            dispose: (_document, _key, reason) => {
              if (reason === 'evict') this.metrics.eventDocuments('eviction');
            },
          })
        : null;
  }

  /** What the cached documents are counted as taking, in bytes (at most EVENT_DOCUMENT_CACHE_MB). */
  get cachedBytes(): number {
    return this.documents?.calculatedSize ?? 0;
  }

  /**
   * The list responses of a page's events, in order. Events without their row are read in one
   * statement when their document is not cached; the relations of every missing document in the
   * loader's statements. The page and the rows are two reads: an event deleted in between is left out.
   */
  async page(listed: ListedEvent[], context: RequestContext, loadEvents: (ids: number[]) => Promise<Event[]>): Promise<EventResponse[]> {
    const identity = urlIdentity(context);
    const documents = listed.map((entry) => this.documents?.get(documentKey(entry, identity)));
    const missing = listed.filter((_entry, index) => !documents[index]);
    this.metrics.eventDocuments('hit', listed.length - missing.length);
    this.metrics.eventDocuments('miss', missing.length);
    const { built, fresh } = await this.build(missing, context, identity, loadEvents);
    const resolved = listed.map((entry, index) => documents[index] ?? built.get(entry.id));
    // Documents built from rows just now show the terms' counts as they are; cached and stored ones are recounted.
    const counts = await this.pageTermCounts(
      listed,
      resolved.map((document, index) => (fresh.has(listed[index].id) ? undefined : document)),
    );
    return listed.flatMap((entry, index) => {
      // An event deleted between the page's query and the read of its row is left out of the page.
      const document = resolved[index];
      if (!document) return [];
      const { json_ld: _jsonLd, ...listResponse } = withTermCounts(document.response, counts);
      return [listResponse];
    });
  }

  /** The single GET's response of a readable event: JSON-LD with the offers of its tickets as they are now. */
  async single(event: Event, context: RequestContext): Promise<EventResponse> {
    const identity = urlIdentity(context);
    const listed: ListedEvent = { id: event.id, documentVersion: event.documentVersion, event };
    let document = this.documents?.get(documentKey(listed, identity));
    let counts: TermCounts | null = null;
    if (document) {
      this.metrics.eventDocuments('hit');
      if (document.hasTerms) counts = await this.termCounts([document.response]);
    } else {
      this.metrics.eventDocuments('miss');
      const { built, fresh } = await this.build([listed], context, identity, () => Promise.resolve([]));
      document = built.get(event.id)!;
      if (!fresh.has(event.id) && document.hasTerms) counts = await this.termCounts([document.response]);
    }
    const response = withTermCounts(document.response, counts);
    const tickets = response.ticketed ? await this.hooks.ticketOffers(event.id) : [];
    const offers = tickets.length ? ticketOffersJsonLd(event, tickets, response, this.config.currency) : document.costOffers;
    const { offers: _costOffers, ...jsonLd } = response.json_ld!;
    const { ticketed, series_id, recurrence, json_ld: _jsonLd, ...beforeJsonLd } = response;
    return { ...beforeJsonLd, json_ld: offers ? { ...jsonLd, offers } : jsonLd, ticketed, series_id, recurrence };
  }

  /**
   * Stores the documents of the events after `afterId` (by id, `limit` of them) that are not
   * stored current: one batch of the backfill (`npm run cli -- documents:store`). Returns the last
   * id read (null when none is left) and how many documents were built.
   */
  async storeBatch(afterId: number, limit: number): Promise<{ lastId: number | null; read: number; built: number }> {
    const events = await this.dataSource.manager.find(Event, { where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
    if (events.length === 0) return { lastId: null, read: 0, built: 0 };
    const context = this.stored.backfillContext();
    const listed = events.map((event) => ({ id: event.id, documentVersion: event.documentVersion, event }));
    const { fresh } = await this.build(listed, context, urlIdentity(context), () => Promise.resolve([]));
    return { lastId: events[events.length - 1].id, read: events.length, built: fresh.size };
  }

  /** The counts of the terms the cached documents embed: as the page query read them, else in one statement. */
  private async pageTermCounts(listed: ListedEvent[], documents: Array<EventDocument | undefined>): Promise<TermCounts | null> {
    if (!documents.some((document) => document?.hasTerms)) return null;
    if (listed.every((entry) => entry.termCounts)) return new Map(listed.flatMap((entry) => [...entry.termCounts!]));
    return this.termCounts(documents.flatMap((document) => (document ? [document.response] : [])));
  }

  /**
   * The documents missing from this instance's cache: read as stored where the stored one is
   * current, else built from rows and stored for every instance (StoredEventDocuments).
   */
  private async build(
    missing: ListedEvent[],
    context: RequestContext,
    identity: string,
    loadEvents: (ids: number[]) => Promise<Event[]>,
  ): Promise<{ built: Map<number, EventDocument>; fresh: Set<number> }> {
    const built = new Map<number, EventDocument>();
    const fresh = new Set<number>();
    if (missing.length === 0) return { built, fresh };
    const stored = this.stored.enabled ? await this.stored.read(missing) : new Map<number, string>();
    const toBuild: ListedEvent[] = [];
    for (const entry of missing) {
      const body = stored.get(entry.id);
      if (body === undefined) {
        toBuild.push(entry);
        continue;
      }
      const document = this.stored.render<EventDocument>(body, context);
      built.set(entry.id, document);
      this.documents?.set(documentKey(entry, identity), document);
    }
    this.metrics.eventDocuments('stored', missing.length - toBuild.length);
    this.metrics.eventDocuments('built', toBuild.length);
    if (toBuild.length === 0) return { built, fresh };

    const unread = toBuild.filter((entry) => !entry.event).map((entry) => entry.id);
    const read = new Map((unread.length ? await loadEvents(unread) : []).map((event) => [event.id, event]));
    const related = await this.relations.load(toBuild.map((entry) => entry.id));
    const buildContext = this.stored.enabled ? this.stored.buildContext(context) : context;
    const toStore: DocumentToStore[] = [];
    for (const entry of toBuild) {
      const event = entry.event ?? read.get(entry.id);
      if (!event) continue;
      // Without ticketOffers the JSON-LD takes its offers from the cost: kept for events without published tickets.
      const response = toEventResponse(event, related.get(entry.id)!, buildContext, { jsonLd: true, currency: this.config.currency });
      let document: EventDocument = {
        response,
        costOffers: response.json_ld?.offers,
        hasTerms: response.categories.length + response.tags.length > 0,
      };
      if (this.stored.enabled) {
        const body = JSON.stringify(document);
        toStore.push({ id: entry.id, documentVersion: event.documentVersion, body });
        document = this.stored.render<EventDocument>(body, context);
      }
      built.set(entry.id, document);
      fresh.add(entry.id);
      // The version read with the page: a row read afterwards may be newer, and its document is kept under its own version.
      this.documents?.set(documentKey({ id: entry.id, documentVersion: event.documentVersion }, identity), document);
    }
    await this.stored.write(toStore);
    return { built, fresh };
  }

  /** The stored counts of the terms these responses embed, in one statement. */
  private async termCounts(responses: EventResponse[]): Promise<TermCounts> {
    const categoryIds = new Set<number>();
    const tagIds = new Set<number>();
    for (const response of responses) {
      for (const term of response.categories) categoryIds.add(term.id);
      for (const term of response.tags) tagIds.add(term.id);
    }
    const selects: string[] = [];
    const parameters: number[] = [];
    for (const [kind, table, ids] of [
      ['category', 'event_categories', categoryIds],
      ['tag', 'event_tags', tagIds],
    ] as const) {
      if (ids.size === 0) continue;
      selects.push(
        `SELECT '${kind}' AS kind, id, published_event_count AS count FROM ${table} WHERE id IN (${[...ids].map(() => '?').join(', ')})`,
      );
      parameters.push(...ids);
    }
    const counts: TermCounts = new Map();
    if (selects.length === 0) return counts;
    const runner = this.dataSource.createQueryRunner(this.dataSource.defaultReplicationModeForReads());
    try {
      const rows = (await runner.query(selects.join(' UNION ALL '), parameters)) as Array<{
        kind: string;
        id: number | string;
        count: number | string;
      }>;
      for (const row of rows) counts.set(`${row.kind}:${Number(row.id)}`, Number(row.count));
    } finally {
      await runner.release();
    }
    return counts;
  }
}

/** What a document's URLs and dates depend on in the request: origin, API root and prefix, site time zone. */
function urlIdentity(context: RequestContext): string {
  return `${context.namespaceUrl('events')}|${context.origin}|${context.apiPrefix}|${context.siteTimezone}`;
}

function documentKey(entry: { id: number; documentVersion: number }, identity: string): string {
  return `${entry.id}:${entry.documentVersion}:${identity}`;
}

/** The response with its embedded terms' counts as read now (unchanged without counts). */
function withTermCounts(response: EventResponse, counts: TermCounts | null): EventResponse {
  if (!counts) return response;
  const recount = (kind: string) => (term: EmbeddedTermResponse) => {
    const count = counts.get(`${kind}:${term.id}`);
    return count === undefined || count === term.count ? term : { ...term, count };
  };
  return {
    ...response,
    categories: response.categories.map(recount('category')),
    tags: response.tags.map(recount('tag')),
  };
}
