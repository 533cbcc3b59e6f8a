import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { hash } from 'node:crypto';
import { In, MoreThan } from 'typeorm';
import type { RequestContext } from '../../auth/request-context';
import { surrogateKeysOf } from '../../common/http/surrogate-keys';
import { appConfig } from '../../config/app.config';
import { isReplicated } from '../../database/read-replicas';
import { MetricsService } from '../../metrics/metrics.service';
import type { EmbeddedTermResponse } from '../../terms/term-response';
import { eventNotFound } from '../../events/event-errors';
import { EVENT_TICKETING, EventTicketing, EventTicketOffer, NO_TICKETING } from '../../events/event-ports';
import { EventRelationsLoader } from '../../events/event-relations.loader';
import { Event } from '../../events/event.entity';
import { ByteAssembler } from '../../common/http/byte-assembler';
import type { DeferredBody } from '../../common/http/json-text';
import { DocumentTemplate, HoleValues, UnreadableTemplate } from './document-template';
import { DocumentToStore, StoredDocumentFacts, StoredEventDocuments } from './stored-event-documents';
import type { EventResponse } from '../../events/dto/event.response';
import { ticketOffersJsonLd, toEventResponse } from '../../events/events.mapper';
import { TransactionHost } from '../../common/database/transaction-host';

/** An event a page shows: its id and document version, and its row when the page query read it. */
export interface ListedEvent {
  id: number;
  documentVersion: number;
  event?: Event;
  /** The stored counts of its terms (`category:3`, `tag:5`), when the page query read them. */
  termCounts?: TermCounts;
}

/**
 * An event's response as built once, as JSON text: the list item's and the single GET's, with
 * placeholders for what each request shows its own way (the origin in URLs: StoredEventDocuments;
 * the embedded terms' counts and the JSON-LD offers: here), and what filling them needs.
 */
interface EventDocument {
  /** The list item: the response without `json_ld`. */
  list: string;
  /** The single GET's response, its JSON-LD `offers` a placeholder. */
  single: string;
  /** The event's URL, which the offers of its tickets name. */
  url: string;
  /** The offers the JSON-LD takes from the cost (when the event has no published ticket), as JSON, or null. */
  costOffers: string | null;
  /** Whether the single GET reads its tickets' offers. */
  ticketed: boolean;
  /** The surrogate keys of what it shows (common/http/surrogate-keys.ts). */
  keys: string[];
}

/**
 * What this instance keeps of a document for one of its renderings, as a byte template
 * (DocumentTemplate): lists keep the list item, single GETs the whole response. Kept apart, a page
 * neither encodes nor holds the single response of each of its events.
 */
interface KeptListItem {
  template: DocumentTemplate;
  keys: string[];
}

/** What the stored body holds beside the single GET's template (DocumentTemplate.toStored's extra bytes, as JSON). */
type StoredSingleFacts = Pick<EventDocument, 'url' | 'costOffers' | 'ticketed' | 'keys'>;

/** Documents missing from memory, as read stored or built from rows, with the version each is of; `fresh`: those built from rows just now. */
interface Built<D> {
  built: Map<number, { document: D; documentVersion: number }>;
  fresh: Set<number>;
}

interface KeptSingle extends KeptListItem {
  url: string;
  costOffers: DocumentTemplate | null;
  ticketed: boolean;
}

/** A single document in hand, with the version it is of; `fresh`: built from rows by this request. */
interface LoadedSingle {
  document: KeptSingle;
  documentVersion: number;
  fresh: boolean;
}

/** What the single GET reads of the event before its document (EventsRepository.findHeadBySelector). */
export type SingleHead = ListedEvent & { termCounts: TermCounts; timezone: string; stored: StoredDocumentFacts | null };

/** The single GET's response: its bytes, assembled only if the conditional GET does not name its ETag, and its surrogate keys. */
export interface SingleText {
  body: DeferredBody;
  keys: string[];
}

type Rendering = 'list' | 'single';

/** The terms' stored counts of published events, by kind and id (`category:3`). */
export type TermCounts = Map<string, number>;

/** A page of list items as JSON bytes (the items joined by commas) and the surrogate keys of what they show. */
export interface EventItemsText {
  items: ByteAssembler;
  keys: string[];
}

/** What memory holds for a kept rendering: its bytes and the objects around it. */
function keptBytes(kept: KeptListItem | KeptSingle): number {
  const single = 'url' in kept ? 2 * kept.url.length + (kept.costOffers?.byteSize ?? 0) : 0;
  return kept.template.byteSize + single + 300;
}

/**
 * Event responses for lists and single GETs, assembled from documents built once and kept as JSON
 * text: per instance in an LRU bounded by EVENT_DOCUMENT_CACHE_MB, and for every instance in the
 * database (StoredEventDocuments), both keyed by the event's id and its `document_version`. The
 * version is moved by database triggers in the transaction of any write to what the document shows
 * (migration EventDocumentVersions) and read with the page, so a write committed on any instance
 * changes the key every instance looks up: no instance can serve a stale document, without messages
 * between instances. Per request, in the text, never parsing it: the origin of its URLs, the
 * embedded terms' counts (one statement for a page) and, on a single GET of a ticketed event, the
 * JSON-LD offers (their availability).
 */
@Injectable()
export class EventDocuments {
  private readonly documents: LRUCache<string, KeptListItem | KeptSingle> | null;

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly relations: EventRelationsLoader,
    @Optional() @Inject(EVENT_TICKETING) private readonly ticketing: EventTicketing = NO_TICKETING,
    private readonly metrics: MetricsService,
    private readonly stored: StoredEventDocuments,
  ) {
    const maxSize = Math.floor(config.eventDocumentCacheMb * 1024 * 1024);
    this.documents =
      maxSize > 0
        ? new LRUCache<string, KeptListItem | KeptSingle>({
            maxSize,
            sizeCalculation: keptBytes,
            dispose: (_document, _key, reason) => {
              if (reason === 'evict') this.metrics.eventDocuments('eviction');
            },
          })
        : null;
    metrics.eventDocumentCache(() => this.cacheContents());
  }

  /** The cache's entries and counted bytes per rendering, for the metrics (walks the cache: read when scraped). */
  private cacheContents(): Array<{ rendering: Rendering; entries: number; bytes: number }> {
    const contents = { list: { entries: 0, bytes: 0 }, single: { entries: 0, bytes: 0 } };
    for (const [key, kept] of this.documents?.entries() ?? []) {
      const of = contents[key.startsWith('list:') ? 'list' : 'single'];
      of.entries += 1;
      of.bytes += keptBytes(kept);
    }
    return (['list', 'single'] as const).map((rendering) => ({ rendering, ...contents[rendering] }));
  }

  /** What the cached documents are counted as taking, in bytes (at most EVENT_DOCUMENT_CACHE_MB). */
  get cachedBytes(): number {
    return this.documents?.calculatedSize ?? 0;
  }

  /**
   * The list items of a page's events, in order, as JSON text. Events without their row are read in
   * one statement when their document is neither cached nor stored current; the relations of every
   * document built in the loader's statements. The page and the rows are two reads: an event deleted
   * in between is left out.
   */
  async page(listed: ListedEvent[], context: RequestContext, loadEvents: (ids: number[]) => Promise<Event[]>): Promise<EventItemsText> {
    // Without replicas TypeORM still names its default mode "slave": every read is the primary's then.
    const fromReplica = isReplicated(this.tx.dataSource) && this.tx.dataSource.defaultReplicationModeForReads() !== 'master';
    const identity = this.cacheIdentity(context, fromReplica);
    const documents = listed.map((entry) => this.documents?.get(documentKey(entry, identity, 'list')));
    const missing = listed.filter((_entry, index) => !documents[index]);
    this.metrics.eventDocuments('hit', listed.length - missing.length);
    this.metrics.eventDocuments('miss', missing.length);
    const { built, fresh } = await this.build(missing, context, loadEvents, !fromReplica, 'list');
    const kept = new Map<number, KeptListItem>();
    for (const [id, { document, documentVersion }] of built) {
      kept.set(id, document);
      this.documents?.set(documentKey({ id, documentVersion }, identity, 'list'), document);
    }
    const resolved = listed.flatMap((entry, index) => {
      // An event deleted between the page's query and the read of its row is left out of the page.
      const document = documents[index] ?? kept.get(entry.id);
      return document ? [{ entry, document }] : [];
    });
    // Documents built from rows just now show the terms' counts as they are; cached and stored ones are recounted.
    const counts = await this.pageTermCounts(
      resolved.map(({ entry }) => entry),
      resolved.flatMap(({ entry, document }) => (fresh.has(entry.id) ? [] : [document])),
    );
    const keys = new Set<string>();
    const values = this.holeValues(context, counts);
    const items = new ByteAssembler();
    resolved.forEach(({ document }, index) => {
      for (const key of document.keys) keys.add(key);
      if (index > 0) items.add(COMMA);
      items.add(document.template.rendered(values));
    });
    return { items, keys: [...keys] };
  }

  /**
   * The single GET's response of a readable event: JSON-LD with the offers of its tickets as they
   * are now. Its ETag is worked out before its bytes, from what they are made of: the document's
   * version and identity, the request's origin, the terms' counts and the offers (singleEtag). What
   * that needs of the document (whether it has offers to read, its surrogate keys) comes from this
   * instance's copy, else from its stored row as the head read it: a conditional GET that names the
   * tag is answered without reading the document. Only a document missing from both is read or
   * built first.
   */
  async single(event: SingleHead, context: RequestContext, loadEvents: (ids: number[]) => Promise<Event[]>): Promise<SingleText> {
    const identity = this.cacheIdentity(context);
    let loaded: LoadedSingle | undefined;
    const cached = this.documents?.get(documentKey(event, identity, 'single')) as KeptSingle | undefined;
    if (cached) {
      this.metrics.eventDocuments('hit');
      loaded = { document: cached, documentVersion: event.documentVersion, fresh: false };
    }
    let facts: Pick<KeptSingle, 'ticketed' | 'keys'> | null = cached ?? this.currentStored(event);
    if (!facts) {
      loaded = await this.loadSingle(event, identity, context, loadEvents);
      facts = loaded.document;
    }
    const tickets = facts.ticketed ? await this.ticketing.ticketOffers(event.id) : null;
    const etag = this.singleEtag(event, identity, context, tickets);
    return {
      keys: facts.keys,
      body: {
        etag,
        assemble: async () => {
          loaded ??= await this.loadSingle(event, identity, context, loadEvents);
          return this.renderSingle(event, loaded, context, tickets, etag);
        },
      },
    };
  }

  /** The event's stored row as the head read it, when it is current (this version and identity) and says whether it has offers. */
  private currentStored(event: SingleHead): (StoredDocumentFacts & { ticketed: boolean }) | null {
    const stored = event.stored;
    if (!this.stored.enabled || !stored || stored.ticketed === null) return null;
    if (stored.documentVersion !== event.documentVersion || stored.identity !== this.stored.identity) return null;
    return { ...stored, ticketed: stored.ticketed };
  }

  /**
   * The single document missing from this instance's memory: as stored (read with the head when it
   * read the body, else now), else built from rows (and stored); kept.
   */
  private async loadSingle(
    event: SingleHead,
    identity: string,
    context: RequestContext,
    loadEvents: (ids: number[]) => Promise<Event[]>,
  ): Promise<LoadedSingle> {
    this.metrics.eventDocuments('miss');
    let found: { document: KeptSingle; documentVersion: number } | undefined;
    let fresh = false;
    const storedSingle = this.stored.decode(this.currentStored(event)?.body ?? null, event.id, this.parseStoredSingle);
    if (storedSingle !== null) {
      this.metrics.eventDocuments('stored');
      found = { document: storedSingle, documentVersion: event.documentVersion };
    } else {
      const built = await this.build([event], context, loadEvents, true, 'single');
      found = built.built.get(event.id);
      fresh = built.fresh.has(event.id);
    }
    // Deleted between the read of its head and of its row.
    if (!found) throw eventNotFound({ id: event.id });
    const { document } = found;
    this.documents?.set(documentKey({ id: event.id, documentVersion: found.documentVersion }, identity, 'single'), document);
    return { document, documentVersion: found.documentVersion, fresh };
  }

  /**
   * The single response's bytes. When the document is of the version the head read and shows the
   * terms whose counts it read, they are what singleEtag described. Otherwise (a write committed
   * between the two reads) the document was built from the newer rows and shows their counts: its
   * tag is then the bytes' own (ByteAssembler.etag), which no conditional GET of the head's tag matches.
   */
  private async renderSingle(
    event: SingleHead,
    loaded: LoadedSingle,
    context: RequestContext,
    tickets: EventTicketOffer[] | null,
    etag: string,
  ): Promise<{ bytes: ByteAssembler; etag: string }> {
    const { document } = loaded;
    const described =
      loaded.documentVersion === event.documentVersion &&
      document.ticketed === (tickets !== null) &&
      document.template.countTerms.every((term) => event.termCounts.has(term));
    const offered = document.ticketed ? (tickets ?? (await this.ticketing.ticketOffers(event.id))) : [];
    const url = this.stored.enabled ? this.stored.renderUrl(document.url, context) : document.url;
    // A document built from rows just now shows the terms' counts it read, unless it is the one the head described.
    const values = this.holeValues(context, described || !loaded.fresh ? event.termCounts : null);
    let offers: Buffer | undefined;
    if (offered.length)
      offers = Buffer.from(`,"offers":${JSON.stringify(ticketOffersJsonLd(event, offered, { url }, this.config.currency))}`, 'utf8');
    else if (document.costOffers)
      offers = new ByteAssembler()
        .addText(',"offers":')
        .add(document.costOffers.rendered({ ...values, count: undefined }))
        .toBuffer();
    const bytes = new ByteAssembler().add(document.template.rendered({ ...values, offers }));
    return { bytes, etag: described ? etag : bytes.etag() };
  }

  /**
   * The single response's strong ETag, from what its bytes are a function of: the document (the
   * event's id and version, the stored documents' identity, and this instance's rendering of it:
   * cacheIdentity), the request's origin and site id, the terms' counts, the currency and the
   * tickets' offers (null: none read, as the document has none).
   */
  private singleEtag(event: SingleHead, identity: string, context: RequestContext, tickets: EventTicketOffer[] | null): string {
    const counts = [...event.termCounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const parts = [
      'single',
      this.stored.identity,
      identity,
      context.origin,
      context.siteId,
      event.id,
      event.documentVersion,
      counts,
      this.config.currency,
      tickets,
    ];
    // One-shot: no Hash object per request (the same digest).
    return `"${hash('sha1', JSON.stringify(parts), 'base64url').slice(0, 27)}"`;
  }

  /**
   * Stores the documents of the events after `afterId` (by id, `limit` of them) that are not
   * stored current: one batch of the backfill (`npm run cli -- documents:store`). Returns the last
   * id read (null when none is left) and how many documents were built.
   */
  async storeBatch(afterId: number, limit: number): Promise<{ lastId: number | null; read: number; built: number }> {
    const heads = await this.tx.manager.find(Event, {
      select: { id: true, documentVersion: true },
      where: { id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
    if (heads.length === 0) return { lastId: null, read: 0, built: 0 };
    // Those stored current are skipped on their versions alone: a resumed backfill reads no document again.
    const current = await this.stored.currentIds(heads);
    const stale = heads.filter((head) => !current.has(head.id)).map((head) => head.id);
    const events = stale.length ? await this.tx.manager.find(Event, { where: { id: In(stale) }, order: { id: 'ASC' } }) : [];
    const context = this.stored.backfillContext();
    const listed = events.map((event) => ({ id: event.id, documentVersion: event.documentVersion, event }));
    const { fresh } = await this.build(listed, context, () => Promise.resolve([]), true, 'single');
    return { lastId: heads[heads.length - 1].id, read: heads.length, built: fresh.size };
  }

  /**
   * Stored documents are built with placeholders for the request's origin, the same for every
   * request; without the store (EVENT_DOCUMENT_STORE=false) they are built in the request's own
   * context, and cached apart for each origin.
   */
  private cacheIdentity(context: RequestContext, fromReplica = false): string {
    const origin = this.stored.enabled
      ? ''
      : `${context.namespaceUrl('events')}|${context.origin}|${context.apiPrefix}|${context.siteTimezone}`;
    // What a replica showed is kept apart from what the primary shows (a replica may be behind).
    return fromReplica ? `${origin}|replica` : origin;
  }

  /** What this request fills the documents' holes with: its origin and site id, and the terms' counts read now where given. */
  private holeValues(context: RequestContext, counts: TermCounts | null): HoleValues {
    return { ...(this.stored.enabled ? this.stored.originFills(context) : {}), count: counts ? (term) => counts.get(term) : undefined };
  }

  /** A built document's list item as this instance keeps it. */
  private keepListItem(document: EventDocument): KeptListItem {
    return { template: DocumentTemplate.compile(document.list, this.stored.templateSyntax), keys: document.keys };
  }

  /** A built document's single response as this instance keeps it. */
  private keepSingle(document: EventDocument): KeptSingle {
    return this.keptSingle(DocumentTemplate.compile(document.single, this.stored.templateSyntax), document);
  }

  private keptSingle(template: DocumentTemplate, facts: StoredSingleFacts): KeptSingle {
    return {
      template,
      url: facts.url,
      costOffers: facts.costOffers === null ? null : DocumentTemplate.compile(facts.costOffers, this.stored.templateSyntax),
      ticketed: facts.ticketed,
      keys: facts.keys,
    };
  }

  /** The single GET's stored body: its template, and the facts about it as JSON in the template's extra bytes. */
  private storedSingle(document: EventDocument, single: KeptSingle): Buffer {
    const facts: StoredSingleFacts = {
      url: document.url,
      costOffers: document.costOffers,
      ticketed: document.ticketed,
      keys: document.keys,
    };
    return single.template.toStored(Buffer.from(JSON.stringify(facts), 'utf8'));
  }

  /** A stored body as storedSingle wrote it; throws on one it did not write (StoredEventDocuments.decode builds it again). */
  private readonly parseStoredSingle = (bytes: Buffer): KeptSingle => {
    const { template, extra } = DocumentTemplate.fromStored(bytes, this.stored.templateSyntax);
    const facts = JSON.parse(extra.toString('utf8')) as Partial<StoredSingleFacts> | null;
    if (
      typeof facts?.url !== 'string' ||
      typeof facts.ticketed !== 'boolean' ||
      !Array.isArray(facts.keys) ||
      (facts.costOffers !== null && typeof facts.costOffers !== 'string')
    )
      throw new UnreadableTemplate('stored single document: its facts are not what storedSingle writes');
    return this.keptSingle(template, facts as StoredSingleFacts);
  };

  /** A stored list item as the template's toStored wrote it. */
  private readonly parseStoredListItem = (bytes: Buffer): DocumentTemplate =>
    DocumentTemplate.fromStored(bytes, this.stored.templateSyntax).template;

  /** The counts of the terms the recounted documents embed: as the page query read them, else in one statement. */
  private async pageTermCounts(listed: ListedEvent[], recounted: KeptListItem[]): Promise<TermCounts | null> {
    if (!recounted.some((document) => document.template.countTerms.length)) return null;
    if (listed.every((entry) => entry.termCounts)) return new Map(listed.flatMap((entry) => [...entry.termCounts!]));
    return this.termCounts(recounted.map((document) => document.template.countTerms));
  }

  /**
   * The documents missing from this instance's cache, with the version each is of: read as stored
   * where the stored one is current (for a page, its list items alone), else built from rows and
   * stored for every instance (StoredEventDocuments).
   */
  private async build(
    missing: ListedEvent[],
    context: RequestContext,
    loadEvents: (ids: number[]) => Promise<Event[]>,
    /** Whether the rows were read from the primary: the stored documents are read there too. */
    fromPrimary: boolean,
    rendering: 'list',
  ): Promise<Built<KeptListItem>>;
  private async build(
    missing: ListedEvent[],
    context: RequestContext,
    loadEvents: (ids: number[]) => Promise<Event[]>,
    fromPrimary: boolean,
    rendering: 'single',
  ): Promise<Built<KeptSingle>>;
  private async build(
    missing: ListedEvent[],
    context: RequestContext,
    loadEvents: (ids: number[]) => Promise<Event[]>,
    fromPrimary: boolean,
    rendering: Rendering,
  ): Promise<Built<KeptListItem | KeptSingle>> {
    const built = new Map<number, { document: KeptListItem | KeptSingle; documentVersion: number }>();
    const fresh = new Set<number>();
    if (missing.length === 0) return { built, fresh };
    const stored = await this.readStored(missing, fromPrimary, rendering);
    const toBuild: ListedEvent[] = [];
    for (const entry of missing) {
      const document = stored.get(entry.id);
      if (document === undefined) toBuild.push(entry);
      else built.set(entry.id, { document, documentVersion: entry.documentVersion });
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
      const document = this.toDocument(response);
      const listItem = rendering === 'list' || this.stored.enabled ? this.keepListItem(document) : null;
      const single = rendering === 'single' || this.stored.enabled ? this.keepSingle(document) : null;
      if (this.stored.enabled) {
        // The list item is stored in its own column, not again inside the body.
        toStore.push({
          id: entry.id,
          documentVersion: event.documentVersion,
          body: this.storedSingle(document, single!),
          listItem: listItem!.template.toStored(),
          listKeys: document.keys,
          ticketed: document.ticketed,
        });
      }
      // Of the row's version: a row read after the page may be newer than the version the page read.
      built.set(entry.id, { document: (rendering === 'list' ? listItem : single)!, documentVersion: event.documentVersion });
      fresh.add(entry.id);
    }
    // Only documents built from the primary's rows are stored: what a replica shows is never written back as the truth.
    if (fromPrimary) await this.stored.write(toStore);
    return { built, fresh };
  }

  /** The stored documents of these events that are current, as a rendering needs them: a page reads its list items alone. */
  private async readStored(
    missing: ListedEvent[],
    fromPrimary: boolean,
    rendering: Rendering,
  ): Promise<Map<number, KeptListItem | KeptSingle>> {
    const documents = new Map<number, KeptListItem | KeptSingle>();
    if (!this.stored.enabled) return documents;
    if (rendering === 'list') {
      for (const [id, { item, keys }] of await this.stored.readListItems(missing, fromPrimary, this.parseStoredListItem))
        documents.set(id, { template: item, keys });
    } else {
      for (const [id, single] of await this.stored.read(missing, fromPrimary, this.parseStoredSingle)) documents.set(id, single);
    }
    return documents;
  }

  /** A built response as a document: its two renderings as text, with the per-request parts as placeholders. */
  private toDocument(response: EventResponse): EventDocument {
    const marker = this.stored.marker;
    const placeholder = (kind: string) => (term: EmbeddedTermResponse) => ({
      ...term,
      count: `${marker}:${kind}:${term.id}:${term.count}`,
    });
    const withPlaceholders = {
      ...response,
      categories: response.categories.map(placeholder('category')),
      tags: response.tags.map(placeholder('tag')),
    };
    const { json_ld: jsonLd, ...listItem } = withPlaceholders;
    const { offers: costOffers, ...jsonLdWithoutOffers } = jsonLd!;
    return {
      list: JSON.stringify(listItem),
      single: JSON.stringify({ ...withPlaceholders, json_ld: { ...jsonLdWithoutOffers, offers: `${marker}:offers` } }),
      url: response.url,
      costOffers: costOffers === undefined ? null : JSON.stringify(costOffers),
      ticketed: Boolean(response.ticketed),
      keys: surrogateKeysOf('event', response),
    };
  }

  /** The stored counts of these terms (`category:3`), in one statement. */
  private async termCounts(termLists: string[][]): Promise<TermCounts> {
    const ids = { category: new Set<number>(), tag: new Set<number>() };
    for (const terms of termLists) {
      for (const term of terms) {
        const [kind, id] = term.split(':');
        ids[kind as 'category' | 'tag'].add(Number(id));
      }
    }
    const selects: string[] = [];
    const parameters: number[] = [];
    for (const [kind, table] of [
      ['category', 'event_categories'],
      ['tag', 'event_tags'],
    ] as const) {
      if (ids[kind].size === 0) continue;
      selects.push(
        `SELECT '${kind}' AS kind, id, published_event_count AS count FROM ${table} WHERE id IN (${[...ids[kind]].map(() => '?').join(', ')})`,
      );
      parameters.push(...ids[kind]);
    }
    const counts: TermCounts = new Map();
    if (selects.length === 0) return counts;
    const runner = this.tx.dataSource.createQueryRunner(this.tx.dataSource.defaultReplicationModeForReads());
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

const COMMA = Buffer.from(',', 'latin1');

function documentKey(entry: { id: number; documentVersion: number }, identity: string, rendering: Rendering): string {
  return `${rendering}:${entry.id}:${entry.documentVersion}:${identity}`;
}
