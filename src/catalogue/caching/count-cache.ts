import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ConfigType } from '@nestjs/config';
import { ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { appConfig } from '../../config/app.config';
import { CLOCK, Clock } from '../../common/clock';
import { TransactionHost } from '../../common/database/transaction-host';
import { currentRequestGenerations } from '../../common/caching/request-generations';

/** What a cached count depends on; a committed write to any of a scope's tables renews its generation. */
export type CountScope = 'events' | 'tickets' | 'ticket_stock' | 'attendees';

export const COUNT_SCOPES: readonly CountScope[] = ['events', 'tickets', 'ticket_stock', 'attendees'];

/** The tables whose writes change each scope's counts (see CountCacheInvalidation). */
export const COUNT_SCOPE_TABLES: Readonly<Record<CountScope, readonly string[]>> = {
  events: [
    'events',
    'event_series_occurrences',
    'event_venue_links',
    'event_organizer_links',
    'event_category_links',
    'event_tag_links',
    'venues',
    'organizers',
    'event_categories',
    'event_tags',
  ],
  // What a checkout moves (sold and pending units) is a scope of its own, so that a sale leaves the
  // cached totals of ticket lists that do not filter on what is left as they are.
  tickets: ['tickets', 'events'],
  ticket_stock: ['ticket_capacity_counters', 'ticket_pools'],
  attendees: ['attendees', 'orders', 'order_items', 'tickets', 'events'],
};

/**
 * Rows per scope in `cache_generations` (migration StripedCountGenerations): a scope's generation is
 * their sum, and a committed write renews one of them at random, so that concurrent writers (the
 * buyers of a sale) do not all queue on one row.
 */
export const COUNT_GENERATION_STRIPES = 16;

/**
 * What one kept count costs in the heap, in bytes: its key (a 27-character SHA-1 digest), the entry
 * object and lru-cache's slots for it (measured with 5 000 kept: 350-440 bytes; a key holding the
 * SQL of an events list cost 1.7 KB and more).
 */
export const COUNT_CACHE_ENTRY_BYTES = 400;

interface Entry {
  /** The generations of the count's scopes, joined. */
  generation: string;
  value: number;
  storedAt: number;
}

/**
 * The key of one count: a SHA-1 digest of its scopes, its SQL with runs of white space made one
 * space, and its parameters. The SQL of an event list is several KB, and keeping it as the key
 * cost 1.7 KB (measured) to 20 KB (issue 12) a count; the digest is 27 characters.
 */
export function countKey(scope: string, sql: string, parameters: unknown[]): string {
  return createHash('sha1')
    .update(scope)
    .update('\0')
    .update(sql.replace(/\s+/g, ' ').trim())
    .update('\0')
    .update(JSON.stringify(parameters))
    .digest('base64')
    .slice(0, 27);
}

/**
 * Counts of large lists (the X-TEC-Total and X-ET-Total headers) are the dearest queries at a
 * million events: each walks every matching index entry. They are kept per instance, tagged with
 * their scope's generation, a number in the database that every committed write to the scope's
 * tables increases (CountCacheInvalidation). A read first fetches the generation (a primary-key read),
 * so a count is never older than the last write any instance made, and at most
 * COUNT_CACHE_SECONDS old against writes made outside the service.
 *
 * Counts inside a transaction are never cached nor served from the cache: they may see
 * uncommitted rows.
 *
 * The cache holds at most COUNT_CACHE_MB of counts (COUNT_CACHE_ENTRY_BYTES each); past that the
 * count read longest ago goes first (lru-cache).
 */
@Injectable()
export class CountCache {
  private readonly entries: LRUCache<string, Entry> | null;
  /** Counts being read, by generation and key: as many as requests counting at once. */
  private readonly inFlight = new Map<string, Promise<number>>();

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    const maxSize = Math.floor(config.countCacheMb * 1024 * 1024);
    this.entries =
      maxSize >= COUNT_CACHE_ENTRY_BYTES ? new LRUCache<string, Entry>({ maxSize, sizeCalculation: () => COUNT_CACHE_ENTRY_BYTES }) : null;
  }

  /** Counts kept, and the bytes they are reckoned to take (for tests and diagnostics). */
  stats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.entries?.size ?? 0, bytes: this.entries?.calculatedSize ?? 0, maxBytes: this.entries?.maxSize ?? 0 };
  }

  /** Forgets every count (the next read of each counts again). */
  clear(): void {
    this.entries?.clear();
  }

  /**
   * `builder.getCount()`, from the cache when nothing in `scopes` (every table the count reads)
   * changed since it was counted. A count inside a transaction (the current one, or the one
   * `builder` was made in) is never cached.
   */
  async count<T extends ObjectLiteral>(scopes: CountScope | readonly CountScope[], builder: SelectQueryBuilder<T>): Promise<number> {
    if (!this.enabled(builder)) return builder.getCount();
    const names = typeof scopes === 'string' ? [scopes] : [...scopes].sort();
    const [sql, parameters] = builder.getQueryAndParameters();
    const key = countKey(names.join('+'), sql, parameters);
    const generation = (await Promise.all(names.map((scope) => this.generation(scope)))).join('.');
    const cached = this.fresh(key, generation);
    if (cached !== undefined) return cached;
    // Requests that miss together share one count: fifty identical counts of a million rows at
    // once would each take seconds.
    const flightKey = `${generation}\n${key}`;
    let flight = this.inFlight.get(flightKey);
    if (!flight) {
      flight = builder.getCount().finally(() => this.inFlight.delete(flightKey));
      this.inFlight.set(flightKey, flight);
    }
    const value = await flight;
    this.store(key, generation, value);
    return value;
  }

  /**
   * `scope`'s generation as a scalar subquery, for a statement that reads it along with its rows
   * (a list's page, read before its total): hand what it read to `knowGeneration`, and the
   * request's counts of that scope read no generation of their own.
   */
  static generationSelect(scope: CountScope): string {
    return `(SELECT SUM(generation_row.generation) FROM cache_generations generation_row WHERE generation_row.name = '${scope}')`;
  }

  /** The generation of `scope` as another statement of this request read it (`generationSelect`); nothing outside a request. */
  knowGeneration(scope: CountScope, generation: number | string | null | undefined): void {
    const known = currentRequestGenerations();
    if (known && !known.has(scope)) known.set(scope, Promise.resolve(Number(generation ?? 0)));
  }

  /** The generation `scope` is at, for other caches of what its tables hold (the iCalendar feeds). */
  generationOf(scope: CountScope): Promise<number> {
    return this.generation(scope);
  }

  private enabled(builder: SelectQueryBuilder<ObjectLiteral>): boolean {
    // The builder's runner is protected in TypeORM's typings; a builder made by a transaction's manager holds it.
    const builderRunner = (builder as unknown as { queryRunner?: QueryRunner }).queryRunner;
    const inTransaction = Boolean(this.tx.manager.queryRunner?.isTransactionActive || builderRunner?.isTransactionActive);
    return this.entries !== null && this.config.countCacheSeconds > 0 && !inTransaction;
  }

  /** Once per request and scope (withRequestGenerations). */
  private generation(scope: CountScope): Promise<number> {
    const known = currentRequestGenerations();
    if (!known) return this.readGeneration(scope);
    let generation = known.get(scope);
    if (!generation) {
      generation = this.readGeneration(scope);
      known.set(scope, generation);
    }
    return generation;
  }

  /** Read the way the counted query reads (replica or primary), so that both see the same state. */
  private async readGeneration(scope: CountScope): Promise<number> {
    const row = await this.tx.dataSource
      .createQueryBuilder()
      .select('SUM(generation.generation)', 'generation')
      .from('cache_generations', 'generation')
      .where('generation.name = :scope', { scope })
      .getRawOne<{ generation: number | string | null }>();
    return Number(row?.generation ?? 0);
  }

  private fresh(key: string, generation: string): number | undefined {
    const entry = this.entries!.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation || this.clock.now().getTime() - entry.storedAt > this.config.countCacheSeconds * 1000) {
      this.entries!.delete(key);
      return undefined;
    }
    return entry.value;
  }

  private store(key: string, generation: string, value: number): void {
    this.entries!.set(key, { generation, value, storedAt: this.clock.now().getTime() });
  }
}
