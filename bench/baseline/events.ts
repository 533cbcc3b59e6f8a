import type { Zone } from 'luxon';
import { DateTime } from 'luxon';
import type { CountCache, RequestCounts } from './counts';
import type { Database } from './db';
import { ApiFailure, archivePageNotFound, invalidParam } from './errors';
import { moneyColumn, wallClock, wallClockToInstant } from './format';
import { availableUnits, EventRelations, EventRow, OrganizerRow, PoolRow, RequestContext, TermRow, TicketRow, toEvent, toVenue, VenueRow } from './mapping';
import { countPages, pageLinks, QueryPairs, QueryValue, readList, readPage, single } from './paging';
import { EventListFilters, eventQueries, fullTextWords, poolQueries, relationQueries, venueQueries } from './queries';

export interface ListPage {
  body: Record<string, unknown>;
  total: number;
  totalPages: number;
}

interface CountRow {
  cnt: number;
}

interface LinkedRow {
  link_event_id: number;
}

/**
 * The default window of the list: from the start of today to the end of the same day 24 months on,
 * in the site's zone. It depends only on today's date there, so it is worked out once a day.
 */
class DateWindow {
  private day = '';
  private window = { start: new Date(0), end: new Date(0), startLabel: '', endLabel: '' };

  constructor(private readonly siteZone: Zone) {}

  current(now: Date): { start: Date; end: Date; startLabel: string; endLabel: string } {
    const local = wallClock(now, this.siteZone);
    const day = local.slice(0, 10);
    if (day !== this.day) {
      const end = DateTime.fromFormat(local, 'yyyy-MM-dd HH:mm:ss', { zone: this.siteZone }).plus({ months: 24 }).toFormat('yyyy-MM-dd');
      const startLabel = `${day} 00:00:00`;
      const endLabel = `${end} 23:59:59`;
      this.window = { start: wallClockToInstant(startLabel, this.siteZone), end: wallClockToInstant(endLabel, this.siteZone), startLabel, endLabel };
      this.day = day;
    }
    return this.window;
  }
}

function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, '!$&');
}

export class EventRoutes {
  private readonly window: DateWindow;

  constructor(
    private readonly db: Database,
    private readonly counts: CountCache,
    siteZone: Zone,
  ) {
    this.window = new DateWindow(siteZone);
  }

  /** GET /events for anonymous callers: `page`, `per_page`, `search`, `categories` (ids or slugs). */
  async list(query: Record<string, QueryValue>, context: RequestContext): Promise<ListPage> {
    const paging = readPage(query, 'events');
    const window = this.window.current(new Date());
    const echo: QueryPairs = [
      ['per_page', String(paging.perPage)],
      ['start_date', window.startLabel],
      ['end_date', window.endLabel],
    ];
    const filters: EventListFilters = {};
    const search = single(query.search);
    if (search) {
      filters.searchPattern = `%${escapeLike(search.toLowerCase())}%`;
      filters.fullTextWords = fullTextWords(search) ?? undefined;
      echo.push(['search', search]);
    }
    const categories = readList(query.categories);
    if (categories.length) {
      filters.categoryIds = await this.categoryIds(categories);
      echo.push(['categories', categories.join(',')]);
    }
    echo.push(['status', 'publish']);

    const counts = this.counts.forRequest();
    const count = eventQueries.count(filters, window.start, window.end);
    const total = await counts.count('events', count.sql, count.values, async () => Number((await this.db.select<CountRow>(count.sql, count.values))[0].cnt));
    const totalPages = countPages(total, paging.perPage);
    if (paging.page > 1 && paging.page > totalPages) throw archivePageNotFound('event');
    let events: EventRow[] = [];
    if (total > 0) {
      const page = eventQueries.page(filters, window.start, window.end, paging.perPage, paging.offset, total);
      events = await this.db.select<EventRow>(page.sql, page.values);
    }
    const relations = await this.relations(events.map((event) => event.id));
    const body = {
      events: events.map((event) => toEvent(event, relations.get(event.id)!, context, false)),
      ...pageLinks(`${context.eventsBase}events/`, echo, paging.page, totalPages),
      total,
      total_pages: totalPages,
    };
    return { body, total, totalPages };
  }

  /** GET /events/{id} for anonymous callers: published events, with JSON-LD. */
  async single(id: number, context: RequestContext): Promise<Record<string, unknown>> {
    const [event] = await this.db.select<EventRow>(eventQueries.byId, [id]);
    if (!event) throw new ApiFailure('rest-event-not-found', `Event with ID ${id} does not exist.`, 404);
    if (event.status === 'trash') throw new ApiFailure('event-no-longer-available', 'This event is no longer available', 403);
    if (event.status !== 'publish') throw new ApiFailure('event-not-accessible', 'The requested event is not accessible', 403);
    const relations = (await this.relations([event.id])).get(event.id)!;
    if (relations.ticketed) {
      const tickets = await this.db.select<TicketRow>(relationQueries.ticketOffers, [event.id, 'publish']);
      const pool = tickets.length ? (await this.db.select<PoolRow>(poolQueries.byEvents, [[event.id]]))[0] : undefined;
      relations.ticketOffers = tickets.map((ticket) => ({
        price: moneyColumn(ticket.price),
        saleStartUtc: ticket.sale_start_utc,
        saleEndUtc: ticket.sale_end_utc,
        publishedAt: ticket.published_at,
        inStock: availableUnits(ticket, pool) !== 0,
      }));
    }
    return toEvent(event, relations, context, true);
  }

  /** GET /venues for anonymous callers: published venues, newest first. */
  async venues(query: Record<string, QueryValue>, context: RequestContext): Promise<ListPage> {
    const paging = readPage(query, 'events');
    const venues = await this.db.select<VenueRow>(venueQueries.page, [paging.perPage, paging.offset]);
    // As TypeORM's getManyAndCount: a short page (not past the end) tells the total without a count.
    let total = paging.offset + venues.length;
    if (venues.length === paging.perPage || (venues.length === 0 && paging.offset > 0)) {
      total = Number((await this.db.select<CountRow>(venueQueries.count))[0].cnt);
    }
    const totalPages = countPages(total, paging.perPage);
    if (paging.page > 1 && paging.page > totalPages) throw archivePageNotFound('venue');
    const body = {
      venues: venues.map((venue) => toVenue(venue, context, false)),
      ...pageLinks(`${context.eventsBase}venues/`, [['per_page', String(paging.perPage)]], paging.page, totalPages),
      total,
      total_pages: totalPages,
    };
    return { body, total, totalPages };
  }

  /** Term ids of `categories` values (numbers are ids, other values slugs); any unknown one is a 400. */
  private async categoryIds(values: string[]): Promise<number[]> {
    const ids = values.filter((value) => /^\d+$/.test(value)).map(Number);
    const slugs = values.filter((value) => !/^\d+$/.test(value));
    const lookup = eventQueries.categoryLookup(ids, slugs);
    const found = await this.db.select<{ id: number; slug: string }>(lookup.sql, lookup.values);
    const unknown = [...ids.filter((id) => !found.some((term) => term.id === id)), ...slugs.filter((slug) => !found.some((term) => term.slug === slug))];
    if (unknown.length) throw invalidParam('categories', `categories holds unknown terms: ${unknown.join(', ')}`);
    return found.map((term) => term.id);
  }

  /** Venues, organizers, terms (with their stored counts) and ticket providers of a page of events. */
  private async relations(eventIds: number[]): Promise<Map<number, EventRelations>> {
    const relations = new Map<number, EventRelations>(eventIds.map((id) => [id, { venues: [], organizers: [], categories: [], tags: [], ticketed: false }]));
    if (eventIds.length === 0) return relations;
    const [venues, organizers, categories, tags, providers] = await Promise.all([
      this.db.select<VenueRow & LinkedRow>(relationQueries.venues, [eventIds]),
      this.db.select<OrganizerRow & LinkedRow>(relationQueries.organizers, [eventIds]),
      this.db.select<TermRow & LinkedRow>(relationQueries.categories, [eventIds]),
      this.db.select<TermRow & LinkedRow>(relationQueries.tags, [eventIds]),
      this.db.select<{ eventId: number; provider: string }>(relationQueries.ticketProviders, [eventIds]),
    ]);

    for (const venue of venues) relations.get(venue.link_event_id)?.venues.push(venue);
    for (const organizer of organizers) relations.get(organizer.link_event_id)?.organizers.push(organizer);
    for (const term of categories) relations.get(term.link_event_id)?.categories.push({ term, count: Number(term.published_event_count) });
    for (const term of tags) relations.get(term.link_event_id)?.tags.push({ term, count: Number(term.published_event_count) });
    for (const { eventId, provider } of providers) {
      const entry = relations.get(eventId);
      if (entry) entry.ticketed = entry.ticketed ? [...entry.ticketed, provider] : [provider];
    }
    return relations;
  }
}
