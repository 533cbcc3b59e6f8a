import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DateTime, Zone } from 'luxon';
import { SelectQueryBuilder } from 'typeorm';
import { User } from '../auth/user.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { CategoriesService } from '../categories/categories.service';
import { Category } from '../categories/category.entity';
import { CLOCK, Clock } from '../common/clock';
import { formatInZone, WALL_CLOCK_FORMAT } from '../common/dates/date-format';
import { parseDateInput, wallClockToInstant, withTimeOfDay } from '../common/dates/date-input';
import type { DateFilter } from '../common/list-filters/date-filter';
import { resolveTimeZone } from '../common/dates/timezone';
import { CountCache } from '../common/caching/count-cache';
import { TransactionOptions } from '../common/database/transactions';
import { DomainEvents } from '../common/domain-events/domain-events';
import { invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { assertIdsExist } from '../common/list-filters/ids-must-exist';
import { readDateFilter } from '../common/list-filters/date-filter';
import { QueryEcho } from '../common/list-filters/query-echo';
import { assertPageInRange, buildPageLinks, countPages, PageLinks, parsePageRequest } from '../common/pagination/pagination';
import { assertCanDelete, assertCanEdit, canAssignAuthor, resolveWriteStatus } from '../posts/post-permissions';
import { trashOrRemove } from '../posts/post-lifecycle';
import { parseStatusFilter, singleReadAccess, visibleStatuses } from '../posts/post-visibility';
import type { PostStatus } from '../posts/post-status';
import { sanitizeRichText } from '../posts/rich-text';
import { appConfig } from '../config/app.config';
import { Organizer } from '../organizers/organizer.entity';
import { OrganizersService } from '../organizers/organizers.service';
import { Tag } from '../tags/tag.entity';
import { TagsService } from '../tags/tags.service';
import { Venue } from '../venues/venue.entity';
import { VenuesService } from '../venues/venues.service';
import { CreateEventDto } from './dto/create-event.dto';
import type { EventResponse } from './dto/event.response';
import { ListEventsQuery } from './dto/list-events.query';
import { UpdateEventDto } from './dto/update-event.dto';
import { parseCostInput } from './event-cost';
import { EventDocuments, EventItemsText, ListedEvent } from './event-documents';
import { JsonText } from '../common/http/json-text';
import { EVENT_SERIES, EVENT_TICKETING, EventSeriesReader, EventTicketing, NO_SERIES, NO_TICKETING } from './event-ports';
import { LinkedPostInput, readLinkedPosts, readTermValues } from './event-link-input';
import { EventListingDimension } from './event-listing.entity';
import { EventListingsReader, ListingSelection, MAX_LISTING_RANGES } from './event-listings';
import { EventRelationsLoader } from './event-relations.loader';
import { Event } from './event.entity';
import { EventRelations, toEventResponse } from './events.mapper';
import { cannotEditOthersEvents, eventHasAttendees, eventNoLongerAvailable, eventNotAccessible, eventNotFound } from './event-errors';
import type { EventSelector } from './event-selector';
import type { OwnedPost } from '../posts/post-permissions';
import { EventListFilter, EventsRepository } from './events.repository';
import { TransactionHost } from '../common/database/transaction-host';

export type { EventSelector } from './event-selector';
export { fullTextWords } from './events.repository';

/** One of the events `createManyWithin` creates: its slug as wanted (made unique) and its dates. */
export interface BulkEventOccurrence {
  slug: string;
  start_date: string;
  end_date: string;
}

export interface EventFeedRows {
  events: Event[];
  relations: Map<number, EventRelations>;
  /** Events matching the query, including those beyond the limit. */
  total: number;
}

export interface EventPage {
  /** The page's list items as JSON text, joined by commas (EventDocuments). */
  events: EventItemsText;
  links: PageLinks;
  total: number;
  totalPages: number;
}

/** What an event contributes to its terms' counts of published events. */
interface EventTermState {
  published: boolean;
  categoryIds: number[];
  tagIds: number[];
}

/** Event writes delete and insert link rows next to other events' links: no gap locks (see runInTransaction). */
const EVENT_WRITE: TransactionOptions = { readCommitted: true };

/** Pages of a search with at most this many matches are read through the full-text index. */
const FULLTEXT_PAGE_MATCHES = 2000;

const DATE_FORMATS_HINT = 'YYYY-MM-DD HH:MM:SS, ISO 8601 or a unix timestamp';

@Injectable()
export class EventsService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly relations: EventRelationsLoader,
    @Optional() @Inject(EVENT_TICKETING) private readonly ticketing: EventTicketing = NO_TICKETING,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
    private readonly counts: CountCache,
    private readonly listings: EventListingsReader,
    private readonly domainEvents: DomainEvents,
    @Optional() @Inject(EVENT_SERIES) private readonly series: EventSeriesReader = NO_SERIES,
    private readonly documents: EventDocuments,
    private readonly repository: EventsRepository,
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

  async list(query: ListEventsQuery, context: RequestContext): Promise<EventPage> {
    const paging = parsePageRequest(query, 'events');
    const echo = new QueryEcho().add('per_page', paging.perPage);
    const { builder, narrowed, listing } = await this.listQuery(query, context, echo);

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
  ): Promise<{ builder: SelectQueryBuilder<Event>; narrowed: SelectQueryBuilder<Event>; listing: ListingSelection | null }> {
    const statuses = parseStatusFilter(query.status, context.user);
    if ((query.geoloc_lat === undefined) !== (query.geoloc_lng === undefined)) {
      const missing = query.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
      throw invalidParam(missing, 'geoloc_lat and geoloc_lng must be sent together');
    }
    const filter: EventListFilter = { user: context.user, statuses, ...this.windowOrInclude(query, echo) };
    const dimensions = await this.readFilters(filter, query, echo);
    const { builder, narrowed } = this.repository.listQuery(filter);
    const listing = filter.window && !query.search ? this.listingSelection(dimensions, statuses, context, filter.window) : null;
    if (statuses) echo.add('status', statuses);
    else if (!context.user) echo.add('status', 'publish');
    echo.add('include', query.include);
    return { builder, narrowed, listing };
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

  // ---------------------------------------------------------------- writing

  async create(input: CreateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    // A series is the series module's (event-routes/event-writes.ts routes it there): never a lone event without its rule.
    if (input.recurrence !== undefined && input.recurrence !== null)
      throw new Error('EventsService.create makes one event; a create with recurrence goes through EventWrites');
    const saved = await this.tx.run(() => this.createWithin(input, user), EVENT_WRITE);
    return this.present(saved, context);
  }

  /**
   * The single-event create inside the caller's transaction: what every event write maintains
   * applies. Series create their occurrences through it, each with the first as `postParentId`.
   */
  async createWithin(input: CreateEventDto, user: AuthenticatedUser, postParentId: number | null = null): Promise<Event> {
    const event = this.newEvent(user, postParentId);
    await this.applyInput(event, input, user, true);
    await this.domainEvents.publish({ kind: 'EventWritten', event, previousStatus: null, removed: false });
    return event;
  }

  /**
   * Many new events that share every field but their slug and dates (the occurrences of a series),
   * inside the caller's transaction, in a number of statements that does not grow with their
   * number: what `createWithin` checks is checked once, the slugs are made unique with one read,
   * and the events, their links and their terms' counts are written with multi-row statements
   * (insertInSlices). The read model follows by its row triggers. Publishes no EventWritten: the
   * caller publishes one SeriesOccurrencesCreated for them all. Answers the events in the order of
   * `occurrences`.
   */
  async createManyWithin(
    input: Omit<CreateEventDto, 'start_date' | 'end_date' | 'slug'>,
    occurrences: BulkEventOccurrence[],
    user: AuthenticatedUser,
    postParentId: number | null = null,
  ): Promise<Event[]> {
    if (occurrences.length === 0) return [];
    // The fields they share, as createWithin and applyInput set them, once.
    const shared = this.newEvent(user, postParentId);
    applyContentFields(shared, input);
    const events = occurrences.map((occurrence) => {
      const event = this.repository.newEvent({ ...shared });
      this.applySchedule(event, { ...input, start_date: occurrence.start_date, end_date: occurrence.end_date });
      return event;
    });
    await this.applyAuthorAndPublication(shared, input, user);
    const status = resolveWriteStatus(user, input.status, undefined);
    const categories = readTermValues(input.categories, 'categories');
    const categoryIds = categories?.length ? ascendingIds(await this.categories.resolveForEvent(categories, user)) : [];
    const tags = readTermValues(input.tags, 'tags');
    const tagIds = tags?.length ? ascendingIds(await this.tags.resolveForEvent(tags, user)) : [];
    // Term rows before the inserts that fire the read model's triggers (see lockTerms).
    await this.lockTerms({ categoryIds, tagIds });
    const slugs = await this.repository.uniqueSlugs(occurrences.map((occurrence) => occurrence.slug));
    events.forEach((event, index) =>
      Object.assign(event, { authorId: shared.authorId, publishedAt: shared.publishedAt, status, slug: slugs[index] }),
    );

    await this.repository.insertMany(events);
    const ids = await this.repository.idsBySlug(slugs);
    for (const event of events) event.id = ids.get(event.slug)!;
    const eventIds = events.map((event) => event.id);

    const venues = readLinkedPosts(input.venue, 'venue');
    const venueIds = venues ? await this.linkedPostIds(venues, 'venue', user) : [];
    await this.repository.insertPostLinksOfEvents('venue', eventIds, venueIds);
    const organizers = readLinkedPosts(input.organizer, 'organizer');
    const organizerIds = organizers ? await this.linkedPostIds(organizers, 'organizer', user) : [];
    await this.repository.insertPostLinksOfEvents('organizer', eventIds, organizerIds);
    // One UPDATE per kind adds the number of events.
    if (status === 'publish') {
      const times = (termIds: number[]) => events.flatMap(() => termIds);
      await this.categories.adjustPublishedEvents(times(categoryIds), []);
      await this.tags.adjustPublishedEvents(times(tagIds), []);
    }
    await this.repository.insertTermLinksOfEvents('categories', eventIds, categoryIds);
    await this.repository.insertTermLinksOfEvents('tags', eventIds, tagIds);
    return events;
  }

  /** An event alone; the routes send occurrences of a series to the series module first (event-routes/event-writes.ts). */
  async update(selector: EventSelector, input: UpdateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    const saved = await this.tx.run(() => this.updateWithin(selector, input, user), EVENT_WRITE);
    return this.present(saved, context);
  }

  /** The single-event update inside the caller's transaction. */
  async updateWithin(selector: EventSelector, input: UpdateEventDto, user: AuthenticatedUser): Promise<Event> {
    const event = await this.findOrFail(selector, true);
    assertCanEdit(user, event);
    const previousStatus = event.status;
    await this.applyInput(event, input, user, false);
    await this.domainEvents.publish({ kind: 'EventWritten', event, previousStatus, removed: false });
    return event;
  }

  async remove(selector: EventSelector, force: boolean, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    return this.tx.run(() => this.removeWithin(selector, force, user, context), EVENT_WRITE);
  }

  /** The single-event trash or delete inside the caller's transaction; answers the event as removed. */
  async removeWithin(selector: EventSelector, force: boolean, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    const manager = this.tx.manager;
    const event = await this.findOrFail(selector, true);
    assertCanDelete(user, event);
    if (force && (await this.ticketing.hasAttendees(event.id))) {
      throw eventHasAttendees();
    }
    // The response shows the event as it was removed, links included.
    const related = (await this.relations.load([event.id])).get(event.id)!;
    const terms: EventTermState = {
      published: event.status === 'publish',
      categoryIds: related.categories.map(({ term }) => term.id),
      tagIds: related.tags.map(({ term }) => term.id),
    };
    // The event row, then its term rows (lockTerms), then the counts and the event's own rows.
    await this.lockTerms(terms);
    await this.keepTermCounts(terms, { ...terms, published: false });
    const removed = await trashOrRemove(manager, event, 'event', force);
    await this.domainEvents.publish({ kind: 'EventWritten', event: removed, previousStatus: null, removed: true });
    return toEventResponse(removed, related, context, { jsonLd: false, currency: this.config.currency });
  }

  /** An event just written, as write routes answer it. */
  respond(event: Event, context: RequestContext): Promise<EventResponse> {
    return this.present(event, context);
  }

  // ---------------------------------------------------------------- helpers

  /** Write routes answer what they wrote, built from the rows (the row in hand lacks its new document version). */
  private async present(event: Event, context: RequestContext): Promise<EventResponse> {
    const related = (await this.relations.load([event.id])).get(event.id)!;
    return toEventResponse(event, related, context, { jsonLd: false, currency: this.config.currency });
  }

  private async findReadable(selector: EventSelector, context: RequestContext): Promise<Event> {
    const event = await this.findOrFail(selector);
    this.assertReadable(event, context);
    return event;
  }

  private assertReadable(event: OwnedPost, context: RequestContext): void {
    const access = singleReadAccess(context.user, event);
    if (access === 'trashed') throw eventNoLongerAvailable();
    if (access === 'forbidden') throw eventNotAccessible();
  }

  private async findOrFail(selector: EventSelector, forUpdate = false): Promise<Event> {
    const event = await this.repository.findBySelector(selector, forUpdate);
    if (!event) throw eventNotFound(selector);
    return event;
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

  /** Applies a create or update body to `event` and its links, inside the caller's transaction. */
  private async applyInput(event: Event, input: UpdateEventDto, user: AuthenticatedUser, isNew: boolean): Promise<void> {
    applyContentFields(event, input);
    const termsBefore = isNew ? null : await this.termState(event);
    this.applySchedule(event, input);
    await this.applyAuthorAndPublication(event, input, user);
    event.status = resolveWriteStatus(user, input.status, isNew ? undefined : event.status);
    const termsAfter = await this.resolveTerms(event, input, user, termsBefore);
    await this.lockTerms(termsBefore ?? { categoryIds: [], tagIds: [] }, termsAfter);
    await this.saveWithSlug(event, input, isNew);
    await this.applyPostLinks(event, input, user, isNew);
    await this.applyTerms(event, input, termsBefore, termsAfter);
  }

  /**
   * The lock order of event writes, so that writers sharing terms queue instead of deadlocking:
   * the event row (an update or removal reads it `FOR UPDATE` first), then the rows of every term
   * the write involves, before and after (categories, then tags, each by ascending id), and only
   * then the writes whose triggers keep the read model (event_listings, event_listing_days, whose
   * day counters events sharing a term also share), the document versions and the terms' counts.
   * Taken whether or not the event counts for its terms (drafts too): their link rows' triggers
   * move the same day counters.
   */
  private async lockTerms(...states: Array<Pick<EventTermState, 'categoryIds' | 'tagIds'>>): Promise<void> {
    await this.categories.lockForEventWrite(ascending(states.flatMap((state) => state.categoryIds)));
    await this.tags.lockForEventWrite(ascending(states.flatMap((state) => state.tagIds)));
  }

  /** A new event with the defaults of a create, before its body applies. */
  private newEvent(user: AuthenticatedUser, postParentId: number | null): Event {
    return this.repository.newEvent({
      authorId: user.id,
      timezone: this.config.siteTimezone,
      allDay: false,
      showMap: true,
      showMapLink: true,
      hideFromListings: false,
      sticky: false,
      featured: false,
      cost: null,
      website: null,
      image: null,
      description: null,
      excerpt: null,
      postParentId,
      showAttendeeList: false,
      publishedAt: this.clock.now(),
    });
  }

  /** Saves the event, with a slug made unique from the one sent (or the title) when new or asked for. */
  private async saveWithSlug(event: Event, input: UpdateEventDto, isNew: boolean): Promise<void> {
    if (isNew || input.slug !== undefined) {
      event.slug = await this.repository.uniqueSlug(input.slug ?? event.title, isNew ? undefined : event.id);
    }
    await this.repository.save(event);
  }

  /** The venues and organizers sent replace the event's; those not sent are left as they are. */
  private async applyPostLinks(event: Event, input: UpdateEventDto, user: AuthenticatedUser, isNew: boolean): Promise<void> {
    const venues = readLinkedPosts(input.venue, 'venue');
    if (venues) await this.replacePostLinks(event.id, venues, 'venue', user, isNew);
    const organizers = readLinkedPosts(input.organizer, 'organizer');
    if (organizers) await this.replacePostLinks(event.id, organizers, 'organizer', user, isNew);
  }

  /** The terms the event has after the write: those sent (found or created), else those it had. */
  private async resolveTerms(
    event: Event,
    input: UpdateEventDto,
    user: AuthenticatedUser,
    termsBefore: EventTermState | null,
  ): Promise<EventTermState> {
    const termsAfter: EventTermState = {
      published: event.status === 'publish',
      categoryIds: termsBefore?.categoryIds ?? [],
      tagIds: termsBefore?.tagIds ?? [],
    };
    const categories = readTermValues(input.categories, 'categories');
    if (categories) termsAfter.categoryIds = categories.length ? ascendingIds(await this.categories.resolveForEvent(categories, user)) : [];
    const tags = readTermValues(input.tags, 'tags');
    if (tags) termsAfter.tagIds = tags.length ? ascendingIds(await this.tags.resolveForEvent(tags, user)) : [];
    return termsAfter;
  }

  /** The terms' counts and the event's link rows move from `termsBefore` to `termsAfter` (their rows locked already). */
  private async applyTerms(
    event: Event,
    input: UpdateEventDto,
    termsBefore: EventTermState | null,
    termsAfter: EventTermState,
  ): Promise<void> {
    const categories = readTermValues(input.categories, 'categories');
    const tags = readTermValues(input.tags, 'tags');
    await this.keepTermCounts(termsBefore, termsAfter);
    const before = termsBefore ?? { categoryIds: [], tagIds: [] };
    if (categories) await this.repository.replaceTermLinks('categories', event.id, before.categoryIds, termsAfter.categoryIds);
    if (tags) await this.repository.replaceTermLinks('tags', event.id, before.tagIds, termsAfter.tagIds);
  }

  /** The event's terms and whether it counts for them (published), as stored now. */
  private async termState(event: Event): Promise<EventTermState> {
    return { published: event.status === 'publish', ...(await this.repository.termIdsOf(event.id)) };
  }

  /** Moves the terms' stored counts of published events from what the event was to what it is. */
  private async keepTermCounts(before: EventTermState | null, after: EventTermState): Promise<void> {
    await this.categories.adjustPublishedEvents(after.published ? after.categoryIds : [], before?.published ? before.categoryIds : []);
    await this.tags.adjustPublishedEvents(after.published ? after.tagIds : [], before?.published ? before.tagIds : []);
  }

  /**
   * Time zone, dates and all-day together: a new zone without new dates keeps the wall-clock
   * times; all-day events run from 00:00:00 of their first day to 23:59:59 of their last; the end
   * may not come before the start (the original silently moves it; we refuse).
   */
  private applySchedule(event: Event, input: UpdateEventDto): void {
    if (input.timezone !== undefined) {
      const name = input.timezone.trim() || this.config.siteTimezone;
      if (!resolveTimeZone(name)) throw invalidParam('timezone', 'timezone must be an IANA time zone name (Europe/Paris) or UTC±N');
      event.timezone = name;
    }
    if (input.all_day !== undefined) event.allDay = input.all_day;
    const zone = resolveTimeZone(event.timezone)!;
    const read = (field: 'start_date' | 'end_date', current: string | undefined): string => {
      const raw = input[field];
      if (raw === undefined || raw === null) return current as string;
      const parsed = parseDateInput(raw, zone);
      if (!parsed) throw invalidParam(field, `${field} must be a date: ${DATE_FORMATS_HINT}`);
      return parsed.local;
    };
    let startLocal = read('start_date', event.startLocal);
    let endLocal = read('end_date', event.endLocal);
    if (event.allDay) {
      startLocal = withTimeOfDay(startLocal, '00:00:00');
      endLocal = withTimeOfDay(endLocal, '23:59:59');
    }
    const startUtc = wallClockToInstant(startLocal, zone);
    const endUtc = wallClockToInstant(endLocal, zone);
    if (endUtc.getTime() < startUtc.getTime()) throw invalidParam('end_date', 'end_date must not be before start_date');
    // Wall-clock values that a DST gap skips are stored as the instant they resolve to.
    event.startLocal = formatInZone(startUtc, zone);
    event.endLocal = formatInZone(endUtc, zone);
    event.startUtc = startUtc;
    event.endUtc = endUtc;
  }

  private async applyAuthorAndPublication(event: Event, input: UpdateEventDto, user: AuthenticatedUser): Promise<void> {
    const manager = this.tx.manager;
    if (input.author !== undefined && input.author !== event.authorId) {
      await assertIdsExist(manager, User, [input.author], 'author');
      if (!canAssignAuthor(user, input.author)) {
        throw cannotEditOthersEvents();
      }
      event.authorId = input.author;
    }
    if (input.date_utc !== undefined) {
      const parsed = parseDateInput(input.date_utc, resolveTimeZone('UTC')!);
      if (!parsed) throw invalidParam('date_utc', `date_utc must be a date: ${DATE_FORMATS_HINT}`);
      event.publishedAt = parsed.instant;
    } else if (input.date !== undefined) {
      const parsed = parseDateInput(input.date, resolveTimeZone(this.config.siteTimezone)!);
      if (!parsed) throw invalidParam('date', `date must be a date: ${DATE_FORMATS_HINT}`);
      event.publishedAt = parsed.instant;
    }
  }

  /** The ids of the venues or organizers sent, in order, each once: checked, or found or created from fields. */
  private async linkedPostIds(inputs: LinkedPostInput[], field: 'venue' | 'organizer', user: AuthenticatedUser): Promise<number[]> {
    const ids = inputs.flatMap((input) => ('id' in input ? [input.id] : []));
    if (ids.length) await (field === 'venue' ? this.venues : this.organizers).assertLinkable(ids, field, user);
    const linkedIds: number[] = [];
    for (const input of inputs) {
      if ('id' in input) linkedIds.push(input.id);
      else if (field === 'venue') linkedIds.push((await this.venues.findOrCreateForEvent(input.fields, user)).id);
      else linkedIds.push((await this.organizers.findOrCreateForEvent(input.fields, user)).id);
    }
    return unique(linkedIds);
  }

  /** The venues or organizers sent become the event's, in their order (EventsRepository.replacePostLinks). */
  private async replacePostLinks(
    eventId: number,
    inputs: LinkedPostInput[],
    field: 'venue' | 'organizer',
    user: AuthenticatedUser,
    isNew: boolean,
  ): Promise<void> {
    const ordered = await this.linkedPostIds(inputs, field, user);
    await this.repository.replacePostLinks(field, eventId, ordered, isNew);
  }
}

/** What the read model answers of one filter: a dimension and its values, or null when it cannot. */
type ListingDimension = { dim: EventListingDimension; values: number[] } | null;

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}

/** Lock order of term rows: ascending ids. */
function ascendingIds(terms: Array<{ id: number }>): number[] {
  return ascending(terms.map((term) => term.id));
}

function ascending(ids: number[]): number[] {
  return unique(ids).sort((a, b) => a - b);
}

/** The event's own text and display fields sent in the body; `""` clears the optional ones. */
function applyContentFields(event: Event, input: UpdateEventDto): void {
  if (input.title !== undefined) event.title = input.title.trim();
  if (input.description !== undefined) event.description = input.description === '' ? null : sanitizeRichText(input.description);
  if (input.excerpt !== undefined) event.excerpt = input.excerpt === '' ? null : sanitizeRichText(input.excerpt);
  if (input.image !== undefined) event.image = input.image || null;
  if (input.website !== undefined) event.website = input.website || null;
  if (input.cost !== undefined) event.cost = parseCostInput(input.cost);
  if (input.show_map !== undefined) event.showMap = input.show_map;
  if (input.show_map_link !== undefined) event.showMapLink = input.show_map_link;
  if (input.hide_from_listings !== undefined) event.hideFromListings = input.hide_from_listings;
  if (input.sticky !== undefined) event.sticky = input.sticky;
  if (input.featured !== undefined) event.featured = input.featured;
  if (input.show_attendee_list !== undefined) event.showAttendeeList = input.show_attendee_list;
}
