import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

import type { RequestContext } from '../../auth/request-context';
import { ApiUrls } from '../../common/http/api-urls.service';
import { appConfig } from '../../config/app.config';
import { declaredFieldsShape } from '../../events/event-fields';
import { TemplateSyntax } from './document-template';
import { storedDocumentDictionary } from './stored-document-dictionary';
import { TransactionHost } from '../../common/database/transaction-host';

/**
 * The format of stored documents, part of their identity with the release's version (package.json):
 * a new release rebuilds each document on its first read, and a change to what toEventResponse
 * builds between releases bumps this number (CONTRIBUTING: "Stored event documents"). A field
 * declared in events/event-fields.ts changes the identity by itself (declaredFieldsShape).
 */
export const EVENT_DOCUMENT_FORMAT = 6;

/** The release (package.json beside dist/ or src/, else in the working folder), read once: stored documents of another release are rebuilt. */
const RELEASE = ((): string => {
  for (const path of [join(__dirname, '..', '..', '..', 'package.json'), join(process.cwd(), 'package.json')]) {
    if (!existsSync(path)) continue;
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === 'cal' && manifest.version) return manifest.version;
  }
  return 'unknown';
})();

/** Documents written back in one statement at most. */
const WRITE_BATCH = 50;

/**
 * What one stored document is: its event, the version it was built at, and its two renderings as
 * their keeper (EventDocuments) serializes them: the single GET's whole body, and its list item apart.
 */
export interface DocumentToStore {
  id: number;
  documentVersion: number;
  body: Buffer;
  listItem: Buffer;
  listKeys: string[];
  ticketed: boolean;
}

/** A stored document's version and identity, and what a conditional GET needs of it without its body. */
export interface StoredDocumentFacts {
  documentVersion: number;
  identity: string;
  /** Null for rows stored before the column: unknown. */
  ticketed: boolean | null;
  keys: string[];
  /** The body as stored (compressed, see StoredEventDocuments.decode), when the head read it (a full GET's). */
  body: Buffer | null;
}

/** A stored list item as its reader parses it, and the surrogate keys of what it shows. */
export interface StoredListItem<T> {
  item: T;
  keys: string[];
}

/** How a reader turns a stored document's bytes (decompressed) into what it keeps; it throws on bytes it cannot read. */
export type StoredParser<T> = (bytes: Buffer) => T;

/** A string as it appears inside a JSON string literal. */
function jsonStringContent(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * The `event_documents` table: each event's document built once and kept serialized, for every
 * instance, so that a document missing from an instance's memory is one read of a stored string
 * rather than a build from rows (the event, its venue, organizers, terms).
 *
 * A document shows absolute URLs, which depend on the request (the origin of PUBLIC_URL or of the
 * Host header, and the site id that comes from it). It is built with a placeholder origin, a host
 * name derived from NONCE_SECRET (the same on every instance; content cannot forge it) under the
 * reserved `.invalid` domain, and the request's origin and site id replace it in the text. The
 * rest of what differs between requests (the terms' counts, a ticketed event's offers) has
 * placeholders made from `marker` that EventDocuments fills per request, in the text too.
 *
 * Both documents are stored as EventDocuments serializes them (its byte templates, holes marked,
 * so that a read is a copy), compressed (deflate, with a preset dictionary of what every document
 * shares: storedDocumentDictionary) to a fifth to a seventh of their text, so that a row stays
 * within its page: a million events take 2.6 GB where their text took 22.7 GB.
 *
 * A row is valid for one `document_version` of its event (moved by the triggers of every write to
 * what the document shows) and one `identity` (the format and release above, API_ROOT, API_PREFIX,
 * SITE_TIMEZONE); a read that finds it older or of another identity builds the document from rows
 * and writes it back, never over a newer one. EVENT_DOCUMENT_STORE=false builds from rows on every
 * miss (the tests compare the two byte for byte).
 */
@Injectable()
export class StoredEventDocuments {
  readonly enabled: boolean;
  /** The configuration and format the stored documents of this instance are built under. */
  readonly identity: string;
  /** A token no content can contain: the placeholders of the per-request parts are made from it. */
  readonly marker: string;
  readonly placeholderHost: string;
  readonly placeholderOrigin: string;
  /** The placeholders documents are built with, as their byte templates find them (DocumentTemplate). */
  readonly templateSyntax: TemplateSyntax;
  private readonly dictionary: Buffer;
  private readonly logger = new Logger(StoredEventDocuments.name);

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly urls: ApiUrls,
  ) {
    this.enabled = config.eventDocumentStore;
    const secret = createHmac('sha256', config.nonceSecret).update('cal-event-document-origin').digest('hex').slice(0, 24);
    this.marker = `m${secret}`;
    this.placeholderHost = `x${secret}.invalid`;
    this.placeholderOrigin = `https://${this.placeholderHost}`;
    // Without the store, documents are built in each request's own origin: only the counts and offers have placeholders.
    const origin = this.enabled ? { origin: this.placeholderOrigin, site: this.placeholderHost } : {};
    this.templateSyntax = new TemplateSyntax({ ...origin, countMarker: this.marker, offers: `,"offers":"${this.marker}:offers"` });
    this.dictionary = storedDocumentDictionary(this.placeholderOrigin, this.placeholderHost, this.marker);
    this.identity = createHash('sha256')
      .update(
        JSON.stringify([
          EVENT_DOCUMENT_FORMAT,
          declaredFieldsShape(),
          RELEASE,
          config.apiRoot,
          config.apiPrefix,
          config.siteTimezone,
          this.placeholderHost,
        ]),
      )
      .update(this.dictionary)
      .digest('base64url')
      .slice(0, 32);
  }

  /** The request's context with the placeholder origin: what stored documents are built in. */
  buildContext(context: RequestContext): RequestContext {
    const apiRoot = `${this.placeholderOrigin}${this.config.apiRoot}/`;
    return {
      origin: this.placeholderOrigin,
      siteId: this.placeholderHost,
      apiPrefix: context.apiPrefix,
      siteTimezone: context.siteTimezone,
      namespaceUrl: (name, path) => this.urls.namespaceUrlAt(apiRoot, name, path),
    };
  }

  /** A context for building documents outside a request (the backfill): PUBLIC_URL's origin, else localhost. */
  backfillContext(): RequestContext {
    const origin = this.config.publicUrl ?? 'http://localhost';
    const { hostname, pathname } = new URL(origin);
    const apiRoot = `${origin}${this.config.apiRoot}/`;
    return {
      origin,
      siteId: `${hostname}${pathname === '/' ? '' : pathname}`,
      apiPrefix: this.config.apiPrefix,
      siteTimezone: this.config.siteTimezone,
      namespaceUrl: (name, path) => this.urls.namespaceUrlAt(apiRoot, name, path),
    };
  }

  /** What the request shows in place of the placeholder origin and host, as they stand inside a JSON string. */
  originFills(context: RequestContext): { origin: Buffer; site: Buffer } {
    return { origin: Buffer.from(jsonStringContent(context.origin), 'utf8'), site: Buffer.from(jsonStringContent(context.siteId), 'utf8') };
  }

  /** A URL built in buildContext as the request sees it: its origin and site id in place of the placeholders. */
  renderUrl(url: string, context: RequestContext): string {
    return url.split(this.placeholderOrigin).join(context.origin).split(this.placeholderHost).join(context.siteId);
  }

  /**
   * The stored bodies (the single GET's whole documents) of these events that are current: of the
   * version given and of this identity, as `parse` reads them. `fromPrimary`: read where the
   * event's row was read (a single GET reads the primary, lists a replica).
   */
  async read<T>(
    entries: Array<{ id: number; documentVersion: number }>,
    fromPrimary: boolean,
    parse: StoredParser<T>,
  ): Promise<Map<number, T>> {
    const bodies = new Map<number, T>();
    for (const [id, row] of await this.currentRows<{ body: Buffer }>(entries, fromPrimary, 'body')) {
      const body = this.decode(row.body, id, parse);
      if (body !== null) bodies.set(id, body);
    }
    return bodies;
  }

  /** The stored list items of these events that are current, without the rest of their documents. */
  async readListItems<T>(
    entries: Array<{ id: number; documentVersion: number }>,
    fromPrimary: boolean,
    parse: StoredParser<T>,
  ): Promise<Map<number, StoredListItem<T>>> {
    const rows = await this.currentRows<{ item: Buffer | null; surrogate: string | null }>(
      entries,
      fromPrimary,
      'list_item AS item, list_keys AS surrogate',
    );
    const items = new Map<number, StoredListItem<T>>();
    for (const [id, row] of rows) {
      const item = this.decode(row.item, id, parse);
      if (item !== null) items.set(id, { item, keys: row.surrogate ? row.surrogate.split(' ') : [] });
    }
    return items;
  }

  /** Which of these events have their document stored current, read on versions alone (the backfill skips them). */
  async currentIds(entries: Array<{ id: number; documentVersion: number }>): Promise<Set<number>> {
    return new Set((await this.currentRows<object>(entries, true, 'event_id')).keys());
  }

  /** The rows of these events stored at the version given and of this identity, with the columns asked for. */
  private async currentRows<T>(
    entries: Array<{ id: number; documentVersion: number }>,
    fromPrimary: boolean,
    columns: string,
  ): Promise<Map<number, T>> {
    const current = new Map<number, T>();
    if (entries.length === 0) return current;
    const wanted = new Map(entries.map((entry) => [entry.id, Number(entry.documentVersion)]));
    const runner = this.tx.dataSource.createQueryRunner(fromPrimary ? 'master' : this.tx.dataSource.defaultReplicationModeForReads());
    try {
      const rows = (await runner.query(
        `SELECT event_id AS id, document_version AS version, identity, ${columns} FROM event_documents WHERE event_id IN (${entries.map(() => '?').join(', ')})`,
        entries.map((entry) => entry.id),
      )) as Array<T & { id: number | string; version: number | string; identity: string }>;
      for (const row of rows) {
        const id = Number(row.id);
        if (wanted.get(id) === Number(row.version) && row.identity === this.identity) current.set(id, row);
      }
    } finally {
      await runner.release();
    }
    return current;
  }

  /**
   * Writes documents back, each unless a newer version is stored already. A read writes them: a
   * failure (the event deleted meanwhile, a lock conflict) is logged and the read still answers.
   */
  async write(documents: DocumentToStore[]): Promise<void> {
    for (let start = 0; start < documents.length; start += WRITE_BATCH) {
      const batch = documents.slice(start, start + WRITE_BATCH);
      try {
        await this.tx.dataSource.query(
          this.upsertSql(batch.length),
          batch.flatMap((document) => [
            document.id,
            document.documentVersion,
            this.identity,
            this.encode(document.body),
            this.encode(document.listItem),
            document.listKeys.join(' '),
            document.ticketed ? 1 : 0,
          ]),
        );
      } catch (error) {
        this.logger.warn({ err: error, events: batch.map((document) => document.id) }, 'event documents not stored');
      }
    }
  }

  /** A document's bytes as stored: deflated with the dictionary. */
  encode(bytes: Buffer): Buffer {
    return deflateSync(bytes, { dictionary: this.dictionary });
  }

  /**
   * A stored document as `parse` reads its bytes, or null when there is none or it cannot be read
   * (written by hand, cut short): the reader then builds the document from rows and stores it
   * again, as for a missing one.
   */
  decode<T>(stored: Buffer | null, eventId: number | undefined, parse: StoredParser<T>): T | null {
    if (stored === null) return null;
    try {
      return parse(inflateSync(stored, { dictionary: this.dictionary }));
    } catch (error) {
      this.logger.warn({ err: error, event: eventId }, 'stored event document unreadable: built again');
      return null;
    }
  }

  private upsertSql(rows: number): string {
    const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ');
    const insert = `INSERT INTO event_documents (event_id, document_version, identity, body, list_item, list_keys, ticketed) VALUES ${values}`;
    return `${insert} ${this.tx.dialect.onConflictKeepNewest(
      ['event_id'],
      ['body', 'list_item', 'list_keys', 'ticketed', 'identity'],
      'document_version',
    )}`;
  }
}
