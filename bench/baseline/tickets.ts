import { canManageEvent, managesAllEvents, User } from './auth';
import type { CountCache } from './counts';
import type { Database } from './db';
import { invalidPageNumber } from './errors';
import { AttendeeRow, EventRow, PoolRow, RequestContext, TicketRow, toAttendee, toPublicListTicket } from './mapping';
import { countPages, QueryPairs, QueryValue, readPage, single, withQuery } from './paging';
import { attendeeQueries, poolQueries, ticketQueries } from './queries';
import type { ListPage } from './events';

interface CountRow {
  cnt: number;
}

/** Attendees whose order counts as done, shown publicly. */
const PUBLIC_ORDER_STATUSES = ['completed', 'yes'];

/** `page` and `per_page` as the caller sent them, for `rest_url`. */
function sentPaging(query: Record<string, QueryValue>, normalise: boolean, page: number, perPage: number): QueryPairs {
  const pairs: QueryPairs = [];
  if (query.page !== undefined) pairs.push(['page', normalise ? String(page) : String(single(query.page))]);
  if (query.per_page !== undefined) pairs.push(['per_page', normalise ? String(perPage) : String(single(query.per_page))]);
  return pairs;
}

export class TicketRoutes {
  constructor(
    private readonly db: Database,
    private readonly counts: CountCache,
  ) {}

  /** GET /tickets for anonymous callers: published tickets of published events, by name. */
  async tickets(query: Record<string, QueryValue>, context: RequestContext): Promise<ListPage> {
    const paging = readPage(query, 'tickets');
    const visibility = ['publish', 'publish', ['publish'], ['publish']];
    const total = await this.counts
      .forRequest()
      .count('tickets', ticketQueries.count, visibility, async () => Number((await this.db.select<CountRow>(ticketQueries.count, visibility))[0].cnt));
    const totalPages = countPages(total, paging.perPage);
    if (paging.page > 1 && paging.page > totalPages) throw invalidPageNumber();
    const tickets = total > 0 ? await this.db.select<TicketRow>(ticketQueries.page, [...visibility, paging.perPage, paging.offset]) : [];
    const events = tickets.length ? await this.db.select<EventRow>(ticketQueries.events, [[...new Set(tickets.map((ticket) => ticket.event_id))]]) : [];
    const eventsById = new Map(events.map((event) => [event.id, event]));

    let pools = new Map<number, PoolRow>();
    const attendeesByTicket = new Map<number, AttendeeRow[]>();
    if (tickets.length) {
      pools = new Map((await this.db.select<PoolRow>(poolQueries.byEvents, [[...eventsById.keys()]])).map((pool) => [pool.event_id, pool]));
      const publicListIds = tickets
        .filter((ticket) => {
          const event = eventsById.get(ticket.event_id)!;
          return (event.show_attendee_list === 1 || event.show_attendee_list === true) && event.status === 'publish';
        })
        .map((ticket) => ticket.id);
      if (publicListIds.length) {
        const attendees = await this.db.select<AttendeeRow>(ticketQueries.publicAttendees, [publicListIds, 'publish', false, true, PUBLIC_ORDER_STATUSES]);
        for (const attendee of attendees) attendeesByTicket.set(attendee.ticket_id, [...(attendeesByTicket.get(attendee.ticket_id) ?? []), attendee]);
      }
    }
    const body = {
      rest_url: withQuery(`${context.ticketsBase}tickets/`, sentPaging(query, true, paging.page, paging.perPage)),
      total,
      total_pages: totalPages,
      tickets: tickets.map((ticket) =>
        toPublicListTicket(ticket, eventsById.get(ticket.event_id)!.timezone, pools.get(ticket.event_id), attendeesByTicket.get(ticket.id) ?? [], context),
      ),
    };
    return { body, total, totalPages };
  }

  /**
   * GET /attendees: every attendee of the events the caller manages, with all fields, plus the
   * public ones of other events, by id.
   */
  async attendees(query: Record<string, QueryValue>, user: User | undefined, context: RequestContext): Promise<ListPage> {
    const paging = readPage(query, 'tickets');
    let managed = '1 = 0';
    const visibility: unknown[] = [];
    if (managesAllEvents(user)) {
      managed = '1 = 1';
    } else if (user?.role === 'author') {
      managed = 'ev.author_id = ?';
      visibility.push(user.id);
    }
    visibility.push('publish', true, false, 'publish', 'rsvp', true, PUBLIC_ORDER_STATUSES);

    const countSql = attendeeQueries.count(managed);
    const total = await this.counts
      .forRequest()
      .count('attendees', countSql, visibility, async () => Number((await this.db.select<CountRow>(countSql, visibility))[0].cnt));
    const totalPages = countPages(total, paging.perPage);
    if (paging.page > 1 && paging.page > totalPages) throw invalidPageNumber();
    const attendees = total > 0 ? await this.db.select<AttendeeRow>(attendeeQueries.page(managed), [...visibility, paging.perPage, paging.offset]) : [];

    let shown: Array<Record<string, unknown>> = [];
    if (attendees.length) {
      const [tickets, events] = await Promise.all([
        this.db.select<TicketRow>(attendeeQueries.tickets, [[...new Set(attendees.map((attendee) => attendee.ticket_id))]]),
        this.db.select<Pick<EventRow, 'id' | 'author_id' | 'timezone'>>(attendeeQueries.eventFacts, [[...new Set(attendees.map((attendee) => attendee.event_id))]]),
      ]);
      const ticketsById = new Map(tickets.map((ticket) => [ticket.id, ticket]));
      const eventsById = new Map(events.map((event) => [event.id, event]));
      shown = attendees.map((attendee) => {
        const event = eventsById.get(attendee.event_id)!;
        return toAttendee(attendee, ticketsById.get(attendee.ticket_id)!, event.timezone, canManageEvent(user, event), context);
      });
    }
    const body = {
      rest_url: withQuery(`${context.ticketsBase}attendees/`, sentPaging(query, false, paging.page, paging.perPage)),
      total,
      total_pages: totalPages,
      attendees: shown,
    };
    return { body, total, totalPages };
  }
}
