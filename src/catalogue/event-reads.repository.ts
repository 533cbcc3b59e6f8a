import { Injectable } from '@nestjs/common';
import { Brackets, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { Category } from '../categories/category.entity';
import { KeptSelects } from '../common/database/kept-statements';
import { TransactionHost } from '../common/database/transaction-host';
import { SqlDialect } from '../database/sql-dialect';
import type { EventSelector } from '../events/event-selector';
import { Event } from '../events/event.entity';
import { escapeLike } from '../posts/post-query';
import type { PostStatus } from '../posts/post-status';
import { applyEventListVisibility } from '../access/event-access';
import { Tag } from '../tags/tag.entity';
import { StoredEventDocument } from './documents/stored-event-document.entity';
import type { StoredDocumentFacts } from './documents/stored-event-documents';
import { parseTermCounts, termCountsSelect } from './listings/event-listings';

const EARTH_RADIUS_KM = 6371;

/** An event as a single GET reads it before its document (EventReadsRepository.findHeadBySelector). */
export interface EventHead {
  id: number;
  status: PostStatus;
  authorId: number | null;
  documentVersion: number;
  timezone: string;
  /** The stored counts of its terms (`category:3`), read with it. */
  termCounts: Map<string, number>;
  /** What the event's stored document says of itself, whatever its version (EventDocuments checks it is current); null when none is stored. */
  stored: StoredDocumentFacts | null;
}

/**
 * The words of a search the full-text index can answer: letters and digits, each at least
 * InnoDB's shortest indexed token (3), at most ten. Otherwise null, and the plain search alone
 * applies. With them, on MySQL, an event matches when it holds the search as before and each word
 * begins a word of its title, description or excerpt (the index finds words by their start).
 */
export function fullTextWords(search: string): string[] | null {
  const words = search.trim().toLowerCase().split(/\s+/u);
  if (words.length === 0 || words.length > 10 || !words.every((word) => /^[\p{L}\p{N}]{3,84}$/u.test(word))) return null;
  return words;
}

/** What the event list selects, its filters checked and resolved to ids by the service. */
export interface EventListFilter {
  user: AuthenticatedUser | undefined;
  statuses: PostStatus[] | undefined;
  /** These events in publication order; otherwise `window`, in date order. */
  include?: number[];
  window?: { start: Date; end: Date };
  search?: string;
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  seriesId?: number;
  postParent?: number;
  /** Events with a venue within `radiusKm` of the point, nearest first. */
  near?: { latitude: number; longitude: number; radiusKm: number };
  /** Events with a venue that has coordinates. */
  withCoordinates?: boolean;
  /** Bounds on the start and the end besides the window (EventListExtras). */
  bounds?: EventBounds;
  /** Another order than the window's (EventListExtras). */
  order?: { by: EventListOrder; direction: 'ASC' | 'DESC' };
}

export interface EventBounds {
  startsBefore?: Date;
  startsAfter?: Date;
  endsBefore?: Date;
  endsAfter?: Date;
}

/** What a list may be ordered by, as TEC names it: publication date, start, title, menu order (none here: start), modification. */
export const EVENT_LIST_ORDERS = ['date', 'event_date', 'title', 'menu_order', 'modified'] as const;
export type EventListOrder = (typeof EVENT_LIST_ORDERS)[number];

const ORDER_COLUMNS: Record<EventListOrder, string> = {
  date: 'event.publishedAt',
  event_date: 'event.startUtc',
  title: 'event.title',
  menu_order: 'event.startUtc',
  modified: 'event.updatedAt',
};

function applyBoundsAndOrder(builder: SelectQueryBuilder<Event>, { bounds, order }: Pick<EventListFilter, 'bounds' | 'order'>): void {
  if (bounds?.startsBefore) builder.andWhere('event.startUtc <= :startsBefore', { startsBefore: bounds.startsBefore });
  if (bounds?.startsAfter) builder.andWhere('event.startUtc >= :startsAfter', { startsAfter: bounds.startsAfter });
  if (bounds?.endsBefore) builder.andWhere('event.endUtc <= :endsBefore', { endsBefore: bounds.endsBefore });
  if (bounds?.endsAfter) builder.andWhere('event.endUtc >= :endsAfter', { endsAfter: bounds.endsAfter });
  if (order) builder.orderBy(ORDER_COLUMNS[order.by], order.direction).addOrderBy('event.id', order.direction);
}

export interface EventListQuery {
  builder: SelectQueryBuilder<Event>;
  /**
   * The same query with the search also matched against the full-text index (MySQL), which
   * selects the same rows but can be counted without reading the whole window; `builder` itself
   * where the index does not answer the search.
   */
  narrowed: SelectQueryBuilder<Event>;
}

/** The statements of the catalogue's event reads: the single GET's head and the list over the events table. */
@Injectable()
export class EventReadsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** findHeadBySelector's statement, by id or by slug, with or without the stored body. */
  private readonly selects = new KeptSelects();

  // ---------------------------------------------------------------- reading

  /** The event by id or slug, as a read finds it (no lock). */
  findBySelector(selector: EventSelector): Promise<Event | null> {
    const query = this.tx.manager.createQueryBuilder(Event, 'event');
    if ('id' in selector) query.where('event.id = :id', { id: selector.id });
    else query.where('event.slug = :slug', { slug: selector.slug });
    return query.getOne();
  }

  /**
   * What a single GET reads before its document, in one statement: who may read the event, the
   * version of its document, its zone (for the JSON-LD offers), its terms' stored counts and what
   * its stored document says of itself (enough for a conditional GET's ETag, without the body);
   * `withStoredBody`, the stored body too, so that a full GET whose document is missing from memory
   * reads it in the same round trip.
   */
  async findHeadBySelector(selector: EventSelector, withStoredBody = false): Promise<EventHead | null> {
    const manager = this.tx.manager;
    const by = 'id' in selector ? 'id' : 'slug';
    // The single GET's one statement: prepared on MySQL/MariaDB (KeptSelects.preparedRows).
    const [row] = await this.selects.preparedRows<{
      id: number | string;
      status: PostStatus;
      authorId: number | string | null;
      documentVersion: number | string;
      timezone: string;
      categoryCounts: string | null;
      tagCounts: string | null;
      storedVersion: number | string | null;
      storedIdentity: string | null;
      storedTicketed: number | string | boolean | null;
      storedKeys: string | null;
      storedBody?: Buffer | null;
    }>(
      manager,
      `head:${by}:${withStoredBody}`,
      () => {
        const query = this.headQuery(by);
        return withStoredBody ? query.addSelect('stored.body', 'storedBody') : query;
      },
      selector,
    );
    if (!row) return null;
    const stored: StoredDocumentFacts | null =
      row.storedVersion === null || row.storedIdentity === null
        ? null
        : {
            documentVersion: Number(row.storedVersion),
            identity: row.storedIdentity,
            ticketed: row.storedTicketed === null ? null : Boolean(Number(row.storedTicketed)),
            keys: row.storedKeys ? row.storedKeys.split(' ') : [],
            body: row.storedBody ?? null,
          };
    return {
      id: Number(row.id),
      status: row.status,
      authorId: row.authorId === null ? null : Number(row.authorId),
      documentVersion: Number(row.documentVersion),
      timezone: row.timezone,
      termCounts: parseTermCounts(row.categoryCounts, row.tagCounts),
      stored,
    };
  }

  /** The statement of findHeadBySelector, by id or by slug: the same text on every request, built once. */
  private headQuery(by: 'id' | 'slug'): SelectQueryBuilder<Event> {
    const manager = this.tx.manager;
    const dialect = SqlDialect.of(manager);
    return manager
      .createQueryBuilder(Event, 'event')
      .select('event.id', 'id')
      .addSelect('event.status', 'status')
      .addSelect('event.authorId', 'authorId')
      .addSelect('event.documentVersion', 'documentVersion')
      .addSelect('event.timezone', 'timezone')
      .addSelect(termCountsSelect(dialect, 'category', 'event.id'), 'categoryCounts')
      .addSelect(termCountsSelect(dialect, 'tag', 'event.id'), 'tagCounts')
      .leftJoin(StoredEventDocument, 'stored', 'stored.eventId = event.id')
      .addSelect('stored.documentVersion', 'storedVersion')
      .addSelect('stored.identity', 'storedIdentity')
      .addSelect('stored.ticketed', 'storedTicketed')
      .addSelect('stored.listKeys', 'storedKeys')
      .where(by === 'id' ? 'event.id = :id' : 'event.slug = :slug');
  }

  /** The terms of one kind named by one of these ids or slugs. */
  termsByIdOrSlug(entity: typeof Category | typeof Tag, ids: number[], slugs: string[]): Promise<Array<{ id: number; slug: string }>> {
    const manager = this.tx.manager;
    return manager
      .createQueryBuilder(entity, 'term')
      .select(['term.id', 'term.slug'])
      .where(
        new Brackets((any) => {
          any.where('1 = 0');
          if (ids.length) any.orWhere('term.id IN (:...termIds)', { termIds: ids });
          if (slugs.length) any.orWhere('term.slug IN (:...termSlugs)', { termSlugs: slugs });
        }),
      )
      .getMany();
  }

  // ---------------------------------------------------------------- the list

  /**
   * The list's query: visibility, date window (or `include`), every filter and the order, and
   * the same narrowed to the full-text index where it answers the search.
   */
  listQuery(filter: EventListFilter): EventListQuery {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(Event, 'event');
    applyEventListVisibility(builder, 'event', filter.user, filter.statuses);
    if (filter.include) {
      builder.andWhere('event.id IN (:...include)', { include: filter.include });
      builder.orderBy('event.publishedAt', 'ASC').addOrderBy('event.id', 'ASC');
    } else if (filter.window) {
      builder
        .andWhere('event.startUtc >= :windowStart', { windowStart: filter.window.start })
        .andWhere('event.endUtc <= :windowEnd', { windowEnd: filter.window.end });
      builder.orderBy('event.startUtc', 'ASC').addOrderBy('event.publishedAt', 'ASC').addOrderBy('event.id', 'ASC');
    }
    if (filter.search) applySearch(builder, filter.search);
    if (filter.categoryIds) {
      builder.andWhere(
        // A category lists its descendants' events too (migration CategoryTreeListings).
        `EXISTS (SELECT 1 FROM event_category_links ecl INNER JOIN event_category_ancestors eca ON eca.category_id = ecl.category_id ` +
          `WHERE ecl.event_id = event.id AND eca.ancestor_id IN (:...categoryIds))`,
        { categoryIds: filter.categoryIds },
      );
    }
    if (filter.tagIds) {
      builder.andWhere(`EXISTS (SELECT 1 FROM event_tag_links etl WHERE etl.event_id = event.id AND etl.tag_id IN (:...tagIds))`, {
        tagIds: filter.tagIds,
      });
    }
    if (filter.venueIds) {
      builder.andWhere(`EXISTS (SELECT 1 FROM event_venue_links evl WHERE evl.event_id = event.id AND evl.venue_id IN (:...venueIds))`, {
        venueIds: filter.venueIds,
      });
    }
    if (filter.organizerIds) {
      builder.andWhere(
        `EXISTS (SELECT 1 FROM event_organizer_links eol WHERE eol.event_id = event.id AND eol.organizer_id IN (:...organizerIds))`,
        { organizerIds: filter.organizerIds },
      );
    }
    if (filter.featured !== undefined) builder.andWhere('event.featured = :featured', { featured: filter.featured });
    if (filter.seriesId !== undefined) {
      builder.andWhere('EXISTS (SELECT 1 FROM event_series_occurrences eso WHERE eso.event_id = event.id AND eso.series_id = :seriesId)', {
        seriesId: filter.seriesId,
      });
    }
    if (filter.postParent !== undefined) builder.andWhere('event.postParentId = :postParent', { postParent: filter.postParent });
    applyBoundsAndOrder(builder, filter);
    if (filter.near) applyDistance(builder, filter.near);
    else if (filter.withCoordinates) {
      builder.andWhere(
        'EXISTS (SELECT 1 FROM event_venue_links gvl INNER JOIN venues gv ON gv.id = gvl.venue_id WHERE gvl.event_id = event.id AND gv.geo_lat IS NOT NULL AND gv.geo_lng IS NOT NULL)',
      );
    }
    const words = filter.search && SqlDialect.of(manager).fullText ? fullTextWords(filter.search) : null;
    if (!words) return { builder, narrowed: builder };
    return { builder, narrowed: narrowToFullTextWords(builder, words) };
  }

  /** `limit` events of a list query, from `offset` when given. */
  listPage(query: SelectQueryBuilder<Event>, offset: number | undefined, limit: number): Promise<Event[]> {
    if (offset !== undefined) query.offset(offset);
    return query.limit(limit).getMany();
  }
}

function applySearch(builder: SelectQueryBuilder<Event>, search: string): void {
  const pattern = `%${escapeLike(search.toLowerCase())}%`;
  builder.andWhere(
    new Brackets((any) =>
      any
        .where("LOWER(event.title) LIKE :search ESCAPE '!'")
        .orWhere("LOWER(event.description) LIKE :search ESCAPE '!'")
        .orWhere("LOWER(event.excerpt) LIKE :search ESCAPE '!'"),
    ),
    { search: pattern },
  );
}

/**
 * The list's query also matched against the full-text index (MySQL), which selects the same rows
 * but can be counted without reading the whole window; `builder` gets the same rule row by row,
 * for pages read in date order: each word begins a word of the text.
 */
function narrowToFullTextWords(builder: SelectQueryBuilder<Event>, words: string[]): SelectQueryBuilder<Event> {
  const fullText = words.map((word) => `+${word}*`).join(' ');
  const narrowed = builder
    .clone()
    .andWhere('MATCH (event.title, event.description, event.excerpt) AGAINST (:fullText IN BOOLEAN MODE)', { fullText });
  words.forEach((word, index) => {
    builder.andWhere(
      `(event.title REGEXP :wordStart${index} OR event.description REGEXP :wordStart${index} OR event.excerpt REGEXP :wordStart${index})`,
      { [`wordStart${index}`]: `\\b${word}` },
    );
  });
  return narrowed;
}

/**
 * Keeps events with a venue within `radiusKm` of the point (haversine distance, with a bounding
 * box first so that the coordinate index narrows the venues), nearest first.
 */
function applyDistance(builder: SelectQueryBuilder<Event>, near: { latitude: number; longitude: number; radiusKm: number }): void {
  const { latitude, longitude, radiusKm: radius } = near;
  const latitudeSpan = (radius / EARTH_RADIUS_KM) * (180 / Math.PI);
  const longitudeSpan = latitudeSpan / Math.max(Math.cos((latitude * Math.PI) / 180), 0.01);
  const haversine =
    `${EARTH_RADIUS_KM} * 2 * ASIN(SQRT(POWER(SIN(RADIANS(dv.geo_lat - :pointLat) / 2), 2) + ` +
    `COS(RADIANS(:pointLat)) * COS(RADIANS(dv.geo_lat)) * POWER(SIN(RADIANS(dv.geo_lng - :pointLng) / 2), 2)))`;
  const nearest =
    `(SELECT MIN(${haversine}) FROM event_venue_links dvl INNER JOIN venues dv ON dv.id = dvl.venue_id ` +
    `WHERE dvl.event_id = event.id AND dv.geo_lat BETWEEN :latMin AND :latMax AND dv.geo_lng BETWEEN :lngMin AND :lngMax)`;
  builder
    .setParameters({
      pointLat: latitude,
      pointLng: longitude,
      latMin: latitude - latitudeSpan,
      latMax: latitude + latitudeSpan,
      lngMin: longitude - longitudeSpan,
      lngMax: longitude + longitudeSpan,
      radius,
    })
    .addSelect(nearest, 'event_distance')
    .andWhere(`${nearest} <= :radius`)
    .orderBy('event_distance', 'ASC')
    .addOrderBy('event.startUtc', 'ASC')
    .addOrderBy('event.id', 'ASC');
}
