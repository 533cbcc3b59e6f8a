import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DateTime, Zone } from 'luxon';
import type { SelectQueryBuilder } from 'typeorm';
import type { RequestContext } from '../auth/request-context';
import { CategoriesService } from '../categories/categories.service';
import { Category } from '../categories/category.entity';
import { CLOCK, Clock } from '../common/clock';
import { WALL_CLOCK_FORMAT } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import { TransactionHost } from '../common/database/transaction-host';
import { invalidParam } from '../common/errors/api-error';
import { JsonText } from '../common/http/json-text';
import type { DateFilter } from '../common/list-filters/date-filter';
import { readDateFilter } from '../common/list-filters/date-filter';
import { assertIdsExist } from '../common/list-filters/ids-must-exist';
import { QueryEcho } from '../common/list-filters/query-echo';
import { assertPageInRange, buildPageLinks, countPages, PageLinks, parsePageRequest } from '../common/pagination/pagination';
import { appConfig } from '../config/app.config';
import { ListEventsQuery } from '../events/dto/list-events.query';
import { eventNoLongerAvailable, eventNotAccessible, eventNotFound } from '../events/event-errors';
import { EVENT_SERIES, EventSeriesReader, NO_SERIES } from '../events/event-ports';
import { EventRelationsLoader } from '../events/event-relations.loader';
import type { EventSelector } from '../events/event-selector';
import { Event } from '../events/event.entity';
import type { EventRelations } from '../events/events.mapper';
import { Organizer } from '../organizers/organizer.entity';
import type { OwnedPost } from '../access/post-access';
import type { PostStatus } from '../posts/post-status';
import { parseStatusFilter, singleReadAccess } from '../access/post-access';
import { visibleStatuses } from '../access/event-access';
import { Tag } from '../tags/tag.entity';
import { Venue } from '../venues/venue.entity';
import { CountCache } from './caching/count-cache';
import { EventDocuments, EventItemsText, ListedEvent } from './documents/event-documents';
import { EventBounds, EventListFilter, EventListOrder, EventReadsRepository } from './event-reads.repository';
import { EventListingDimension } from './listings/event-listing.entity';
import { EventListingsReader, ListingSelection, MAX_LISTING_RANGES } from './listings/event-listings';

export interface EventFeedRows {
  events: Event[];
  relations: Map<number, EventRelations>;
  /** Events matching the query, including those beyond the limit. */
  total: number;
}

/**
 * What a list may ask beyond ListEventsQuery, for other renderings of the list (tec/v1): bounds on
 * the start and the end, and another order, applied only when both `orderby` and `order` are given.
 * The events namespace's own list takes none of these.
 */
export interface EventListExtras {
  starts_before?: unknown;
  starts_after?: unknown;
  ends_before?: unknown;
  ends_after?: unknown;
  orderby?: EventListOrder;
  order?: 'ASC' | 'DESC';
}

export interface EventPage {
  /** The page's list items as JSON text, joined by commas (EventDocuments). */
  events: EventItemsText;
  links: PageLinks;
  total: number;
  totalPages: number;
}

/** What the read model answers of one filter: a dimension and its values, or null when it cannot. */
type ListingDimension = { dim: EventListingDimension; values: number[] } | null;

/** Pages of a search with at most this many matches are read through the full-text index. */
const FULLTEXT_PAGE_MATCHES = 2000;

/**
 * The catalogue's event reads: the single GET (its stored document's bytes), the list (a range of
 * the listings read model, or the events table when the read model cannot answer), and the rows
 * other renderings (iCalendar, a series' calendar) read. The events module keeps the writes.
 */
@Injectable()
export class EventReads {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly relations: EventRelationsLoader,
    private readonly categories: CategoriesService,
    private readonly counts: CountCache,
    private readonly listings: EventListingsReader,
    @Optional() @Inject(EVENT_SERIES) private readonly series: EventSeriesReader = NO_SERIES,
    private readonly documents: EventDocuments,
    private readonly repository: EventReadsRepository,
  ) {}

  /** The default date window of the minute it was computed in (defaultWindow). */
  private defaultWindowOf: { minute: number; start: DateFilter; end: DateFilter } | null = null;

  // ---------------------------------------------------------------- reading

  /** The event as the single GET shows it, serialized (the EventResponse OpenAPI documents). */
  /**
   * `conditional`: the caller names a copy it holds (If-None-Match), so the stored body is not read
   * with the head: a matching tag needs none, and a stale copy reads it after.
   */
  async get(selector: EventSelector, context: RequestContext, conditional = false): Promise<JsonText> {
    const head = await this.repository.findHeadBySelector(selector, !conditional);
    if (!head) throw eventNotFound(selector);
    this.assertReadable(head, context);
    const { body, keys } = await this.documents.single(head, context, (ids) => this.listings.events(ids));
    return new JsonText(body, keys);
  }

  /**
   * One event row as `get` would show it (same 404 and 403 answers) with its relations, for other
   * renderings of an event such as its iCalendar file.
   */
  async findReadableWithRelations(selector: EventSelector, context: RequestContext): Promise<{ event: Event; relations: EventRelations }> {
    const event = await this.findReadable(selector, context);
    return { event, relations: (await this.relations.load([event.id])).get(event.id)! };
  }

  /**
   * The rows a feed of the list shows: the list's filters, visibility and order, but no pages: the
   * first `limit` events, with their relations and how many matched in all.
   */
  async findForFeed(query: ListEventsQuery, context: RequestContext, limit: number): Promise<EventFeedRows> {
    const { builder, narrowed, listing } = await this.listQuery(query, context, new QueryEcho());
    const total = listing ? await this.listings.count(listing) : await this.counts.count('events', narrowed);
    let events: Event[] = [];
    if (total > 0)
      events = listing
        ? await this.listings.events((await this.listings.page(listing, 0, limit)).map((listed) => listed.id))
        : await this.repository.listPage(this.pageQuery(builder, narrowed, total), undefined, limit);
    return { events, relations: await this.relations.load(events.map((event) => event.id)), total };
  }

  async list(query: ListEventsQuery, context: RequestContext, extras: EventListExtras = {}): Promise<EventPage> {
    const paging = parsePageRequest(query, 'events');
    const echo = new QueryEcho().add('per_page', paging.perPage);
    const { builder, narrowed, listing } = await this.listQuery(query, context, echo, extras);

    let total: number;
    let listed: ListedEvent[] = [];
    if (listing) {
      ({ total, listed } = await this.listings.countAndPage(listing, paging.offset, paging.perPage));
    } else {
      total = await this.counts.count('events', narrowed);
      if (total > 0 && paging.offset < total)
        listed = (await this.repository.listPage(this.pageQuery(builder, narrowed, total), paging.offset, paging.perPage)).map((event) => ({
          id: event.id,
          documentVersion: event.documentVersion,
          event,
        }));
    }
    const totalPages = countPages(total, paging.perPage);
    assertPageInRange(paging.page, totalPages, { kind: 'not-found', resource: 'event' });
    return {
      events: await this.documents.page(listed, context, (ids) => this.listings.events(ids)),
      links: buildPageLinks(context.namespaceUrl('events', 'events/'), echo.pairs, paging.page, totalPages),
      total,
      totalPages,
    };
  }

  /**
   * With a full-text narrowing (search on MySQL), the page of few matches is read through the
   * full-text index; the page of many is read in date order with the word-start check, which
   * finds its rows within the first few dozen of the window.
   */
  private pageQuery(builder: SelectQueryBuilder<Event>, narrowed: SelectQueryBuilder<Event>, total: number): SelectQueryBuilder<Event> {
    return total <= FULLTEXT_PAGE_MATCHES ? narrowed : builder;
  }

  /**
   * The list's query: visibility, date window (or `include`), every filter and the order; `echo`
   * collects the effective parameters. `narrowed` is the same query with the search also matched
   * against the full-text index (MySQL), which selects the same rows but can be counted without
   * reading the whole window; without a search it is `builder` itself.
   */
  private async listQuery(
    query: ListEventsQuery,
    context: RequestContext,
    echo: QueryEcho,
    extras: EventListExtras = {},
  ): Promise<{ builder: SelectQueryBuilder<Event>; narrowed: SelectQueryBuilder<Event>; listing: ListingSelection | null }> {
    const statuses = parseStatusFilter(query.status, context.user);
    if ((query.geoloc_lat === undefined) !== (query.geoloc_lng === undefined)) {
      const missing = query.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
      throw invalidParam(missing, 'geoloc_lat and geoloc_lng must be sent together');
    }
    const filter: EventListFilter = { user: context.user, statuses, ...this.windowOrInclude(query, echo), ...this.readExtras(extras) };
    const dimensions = await this.readFilters(filter, query, echo);
    const { builder, narrowed } = this.repository.listQuery(filter);
    // The read model answers the window in start order only.
    const readModel = filter.window && !query.search && !filter.bounds && !filter.order;
    const listing = readModel ? this.listingSelection(dimensions, statuses, context, filter.window!) : null;
    if (statuses) echo.add('status', statuses);
    else if (!context.user) echo.add('status', 'publish');
    echo.add('include', query.include);
    return { builder, narrowed, listing };
  }

  private readExtras(extras: EventListExtras): Pick<EventListFilter, 'bounds' | 'order'> {
    const siteZone = resolveTimeZone(this.config.siteTimezone)!;
    // A date alone bounds whole days, as start_date and end_date do.
    const bound = (field: keyof EventListExtras, edge: 'from' | 'until') => readDateFilter(extras[field], field, siteZone, edge)?.instant;
    const bounds: EventBounds = {
      startsBefore: bound('starts_before', 'until'),
      startsAfter: bound('starts_after', 'from'),
      endsBefore: bound('ends_before', 'until'),
      endsAfter: bound('ends_after', 'from'),
    };
    const hasBounds = Object.values(bounds).some((value) => value !== undefined);
    const order = extras.orderby && extras.order ? { by: extras.orderby, direction: extras.order } : undefined;
    return { ...(hasBounds ? { bounds } : {}), ...(order ? { order } : {}) };
  }

  /** `include` lists those events in publication order; otherwise the date window applies, in date order. */
  private windowOrInclude(query: ListEventsQuery, echo: QueryEcho): Pick<EventListFilter, 'include' | 'window'> {
    if (query.include?.length) return { include: query.include };
    const window = this.dateWindow(query);
    echo.add('start_date', window.start.local).add('end_date', window.end.local);
    return { window: { start: window.start.instant, end: window.end.instant } };
  }

  /**
   * The list as a read of the read model (EventListingsReader), when it filters on one dimension
   * at most besides the window and statuses; null when it needs the events table (a search,
   * several dimensions at once, a parent, a distance).
   */
  private listingSelection(
    dimensions: ListingDimension[],
    statuses: PostStatus[] | undefined,
    context: RequestContext,
    window: { start: Date; end: Date },
  ): ListingSelection | null {
    if (dimensions.includes(null) || dimensions.length > 1) return null;
    const [dimension] = dimensions;
    const selection: ListingSelection = {
      dim: dimension?.dim ?? EventListingDimension.All,
      values: dimension?.values ?? [0],
      ...visibleStatuses(context.user, statuses),
      windowStart: window.start,
      windowEnd: window.end,
    };
    return this.listings.rangeCount(selection) <= MAX_LISTING_RANGES ? selection : null;
  }

  // ---------------------------------------------------------------- helpers

  private async findReadable(selector: EventSelector, context: RequestContext): Promise<Event> {
    const event = await this.repository.findBySelector(selector);
    if (!event) throw eventNotFound(selector);
    this.assertReadable(event, context);
    return event;
  }

  private assertReadable(event: OwnedPost & { id: number }, context: RequestContext): void {
    const access = singleReadAccess(context.user, event, event.id);
    if (access === 'trashed') throw eventNoLongerAvailable();
    if (access === 'forbidden') throw eventNotAccessible();
  }

  /**
   * The list's date window. Default: from the start of today to 24 months from now (site time
   * zone). Dates given are read in the site zone and widened to the start and end of their days
   * (the reference's inclusive mode).
   */
  private dateWindow(query: ListEventsQuery): { start: DateFilter; end: DateFilter } {
    const siteZone = resolveTimeZone(this.config.siteTimezone)!;
    const read = (field: 'start_date' | 'end_date'): DateFilter | undefined =>
      readDateFilter(query[field], field, siteZone, field === 'start_date' ? 'from' : 'until', { wholeDays: true });
    const start = read('start_date');
    const end = read('end_date');
    if (start && end) return { start, end };
    const defaults = this.defaultWindow(siteZone);
    return { start: start ?? defaults.start, end: end ?? defaults.end };
  }

  /**
   * The default window's bounds, whole days of the site zone: the same all through a minute (zone
   * offsets are whole minutes), so computed once a minute rather than on every list.
   */
  private defaultWindow(siteZone: Zone): { start: DateFilter; end: DateFilter } {
    const nowMs = this.clock.now().getTime();
    const minute = Math.floor(nowMs / 60_000);
    if (this.defaultWindowOf?.minute === minute) return this.defaultWindowOf;
    const now = DateTime.fromMillis(nowMs, { zone: siteZone });
    const bound = (field: 'start_date' | 'end_date', at: DateTime): DateFilter =>
      readDateFilter(at.toFormat(WALL_CLOCK_FORMAT), field, siteZone, field === 'start_date' ? 'from' : 'until', { wholeDays: true })!;
    this.defaultWindowOf = { minute, start: bound('start_date', now), end: bound('end_date', now.plus({ months: 24 })) };
    return this.defaultWindowOf;
  }

  /**
   * Checks the filters and adds them to `filter`; answers the read model's dimension of each (null
   * for a filter the read model does not answer).
   */
  private async readFilters(filter: EventListFilter, query: ListEventsQuery, echo: QueryEcho): Promise<ListingDimension[]> {
    if (query.search) {
      filter.search = query.search;
      echo.add('search', query.search);
    }
    return [
      ...(await this.readTermFilters(filter, query, echo)),
      ...(await this.readLinkedPostFilters(filter, query, echo)),
      ...(await this.readEventFieldFilters(filter, query, echo)),
      ...this.readGeoFilters(filter, query, echo),
    ];
  }

  private async readTermFilters(filter: EventListFilter, query: ListEventsQuery, echo: QueryEcho): Promise<ListingDimension[]> {
    const dimensions: ListingDimension[] = [];
    if (query.categories?.length) {
      const ids = await this.categories.outermost(await this.termIds(Category, query.categories, 'categories'));
      filter.categoryIds = ids;
      dimensions.push({ dim: EventListingDimension.Category, values: ids });
      echo.add('categories', query.categories);
    }
    if (query.tags?.length) {
      const ids = await this.termIds(Tag, query.tags, 'tags');
      filter.tagIds = ids;
      dimensions.push({ dim: EventListingDimension.Tag, values: ids });
      echo.add('tags', query.tags);
    }
    return dimensions;
  }

  private async readLinkedPostFilters(filter: EventListFilter, query: ListEventsQuery, echo: QueryEcho): Promise<ListingDimension[]> {
    const manager = this.tx.manager;
    const dimensions: ListingDimension[] = [];
    if (query.venue?.length) {
      await assertIdsExist(manager, Venue, query.venue, 'venue');
      filter.venueIds = query.venue;
      dimensions.push({ dim: EventListingDimension.Venue, values: query.venue });
      echo.add('venue', query.venue);
    }
    if (query.organizer?.length) {
      await assertIdsExist(manager, Organizer, query.organizer, 'organizer');
      filter.organizerIds = query.organizer;
      dimensions.push({ dim: EventListingDimension.Organizer, values: query.organizer });
      echo.add('organizer', query.organizer);
    }
    return dimensions;
  }

  /** `featured`, `series` and `post_parent`; the read model has no series or parent dimension. */
  private async readEventFieldFilters(filter: EventListFilter, query: ListEventsQuery, echo: QueryEcho): Promise<ListingDimension[]> {
    const dimensions: ListingDimension[] = [];
    if (query.featured !== undefined) {
      filter.featured = query.featured;
      dimensions.push({ dim: EventListingDimension.Featured, values: [query.featured ? 1 : 0] });
      echo.add('featured', query.featured);
    }
    if (query.series !== undefined) {
      await this.series.assertSeriesExists(query.series);
      filter.seriesId = query.series;
      dimensions.push(null);
      echo.add('series', query.series);
    }
    if (query.post_parent !== undefined) {
      await assertIdsExist(this.tx.manager, Event, [query.post_parent], 'post_parent');
      filter.postParent = query.post_parent;
      dimensions.push(null);
      echo.add('post_parent', query.post_parent);
    }
    return dimensions;
  }

  /**
   * A point keeps events with a venue within GEOLOC_RADIUS_KM of it, nearest first; `geoloc`
   * keeps events with a venue that has coordinates.
   */
  private readGeoFilters(filter: EventListFilter, query: ListEventsQuery, echo: QueryEcho): ListingDimension[] {
    if (query.geoloc_lat !== undefined && query.geoloc_lng !== undefined) {
      filter.near = { latitude: query.geoloc_lat, longitude: query.geoloc_lng, radiusKm: this.config.geolocRadiusKm };
      echo.add('geoloc_lat', query.geoloc_lat).add('geoloc_lng', query.geoloc_lng);
      return [null];
    }
    if (!query.geoloc) return [];
    filter.withCoordinates = true;
    echo.add('geoloc', 'true');
    return [{ dim: EventListingDimension.Geoloc, values: [0] }];
  }

  /** Ids of terms named by id or slug; any that matches nothing is a 400 naming the filter. */
  private async termIds(entity: typeof Category | typeof Tag, values: Array<string | number>, field: string): Promise<number[]> {
    const ids = values.filter((value) => typeof value === 'number' || /^\d+$/.test(String(value))).map(Number);
    const slugs = values.filter((value) => !(typeof value === 'number' || /^\d+$/.test(String(value)))).map(String);
    const found = await this.repository.termsByIdOrSlug(entity, ids, slugs);
    const unknown = [
      ...ids.filter((id) => !found.some((term) => term.id === id)),
      ...slugs.filter((slug) => !found.some((term) => term.slug === slug)),
    ];
    if (unknown.length) throw invalidParam(field, `${field} holds unknown terms: ${unknown.join(', ')}`);
    return found.map((term) => term.id);
  }
}
