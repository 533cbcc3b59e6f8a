import { CountCache } from '../catalogue/caching/count-cache';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { FixedOffsetZone } from 'luxon';
import type { SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { DomainEvents } from '../common/domain-events/domain-events';
import { forbidden, invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { describeMoneyProblem, MoneyRules, parseMoney } from '../common/money';
import { readDateFilter } from '../common/list-filters/date-filter';
import { missingIdsReason } from '../common/list-filters/ids-must-exist';
import { QueryEcho } from '../common/list-filters/query-echo';
import { parseStatusList } from '../common/list-filters/status-list';
import { assertPageInRange, countPages, parsePageRequest, totalWithOffset } from '../common/pagination/pagination';
import { escapeLike } from '../posts/post-query';
import { POST_STATUSES } from '../posts/post-status';
import { appConfig } from '../config/app.config';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { DoorService } from '../checkin/door.service';
import { AttendeeTallies } from './attendee-tallies';
import { Attendee } from './attendee.entity';
import { toAttendeeResponse } from './attendees.mapper';
import { AttendeeFilters, AttendeePageRows, AttendeesRepository, EventFacts } from './attendees.repository';
import type { AttendeeResponse } from './dto/attendee.response';
import { ListAttendeesQuery } from './dto/list-attendees.query';
import { attendeeAlreadyCheckedIn, attendeeInvalidCheckIn, attendeeNotAccessible, attendeeNotFound } from './attendee-errors';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent, managesEveryEvent } from '../access/event-access';
import { PUBLIC_ORDER_STATUSES, isPubliclyVisible } from '../access/attendee-access';

export interface AttendeePage {
  rest_url: string;
  total: number;
  total_pages: number;
  attendees: AttendeeResponse[];
}

/** Where a check-in comes from: the API (`site`) or a QR scan by the check-in app (`app`). */
export type CheckinSource = 'site' | 'app';

/** Order statuses of paid orders, and the RSVP answers that stand in for them. */
export const ATTENDEE_ORDER_STATUSES = ['pending', 'completed', 'cancelled', 'refunded', 'expired', 'yes', 'no'] as const;
const PRIVATE_ORDER_STATUSES = ATTENDEE_ORDER_STATUSES.filter((status) => !(PUBLIC_ORDER_STATUSES as readonly string[]).includes(status));

const PROVIDER_ALIASES: Record<string, string> = { rsvp: 'rsvp', tc: 'tc', 'tribe-commerce': 'tc', tpp: 'tc' };

/**
 * Attendee lists, single reads and check-ins. Who sees what: managers of an event (editors and
 * administrators for all events, authors for their own) see all its attendees with every field;
 * everyone else sees only the public ones (`isPubliclyVisible`) with public fields. Lists mix both,
 * decided per attendee in SQL. The rules are in access/attendee-access.ts.
 */
@Injectable()
export class AttendeesService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly counts: CountCache,
    private readonly domainEvents: DomainEvents,
    private readonly tallies: AttendeeTallies,
    private readonly door: DoorService,
    private readonly attendees: AttendeesRepository,
  ) {}

  // ---------------------------------------------------------------- reading

  async list(query: ListAttendeesQuery, context: RequestContext): Promise<AttendeePage> {
    const paging = parsePageRequest(query, 'tickets');
    const filters = await this.readFilters(query, context.user);
    const builder = this.attendees.visibleQuery(filters, {
      by: query.orderby ?? 'id',
      direction: query.order ?? 'ASC',
      include: query.include,
    });

    const skipped = query.offset ?? 0;
    const offset = skipped + paging.offset;
    let page: AttendeePageRows | undefined;
    let matching: number;
    if (isEveryAttendee(query, context.user)) {
      // The tally is read with the page, in one statement; a page past the end holds no row to carry it.
      page = await this.attendees.pageWithFacts(builder, offset, paging.perPage, { withTally: true });
      matching = page.tally ?? (await this.tallies.total());
    } else {
      matching = await this.counts.count('attendees', builder);
    }
    const total = totalWithOffset(matching, skipped);
    const totalPages = countPages(total, paging.perPage);
    assertPageInRange(paging.page, totalPages, { kind: 'invalid' });
    if (total === 0) page = undefined;
    else page ??= await this.attendees.pageWithFacts(builder, offset, paging.perPage, { withTally: false });
    return {
      rest_url: QueryEcho.of(query, ECHOED_PARAMETERS).url(context.namespaceUrl('tickets', 'attendees/')),
      total,
      total_pages: totalPages,
      attendees: page ? this.presentWith(page.attendees, page, context) : [],
    };
  }

  /**
   * The list's filters over the attendees of events the caller manages only (exports): checked the
   * same way as the list's (400 naming the field), unordered and unpaged, for the caller to page.
   */
  async managedAttendeesQuery(query: ListAttendeesQuery, user: AuthenticatedUser): Promise<SelectQueryBuilder<Attendee>> {
    return this.attendees.managedQuery(await this.readFilters(query, user));
  }

  async get(id: number, context: RequestContext): Promise<AttendeeResponse> {
    const attendee = await this.findOrFail({ id });
    const event = await this.eventFacts(attendee.eventId);
    if (!canManageEvent(context.user, event) && !isPubliclyVisible(attendee, event)) {
      throw attendeeNotAccessible();
    }
    const [response] = await this.present([attendee], context);
    return response;
  }

  // ---------------------------------------------------------------- check-in

  /** `check_in: true|false` on POST|PUT|PATCH /attendees/{id}, by a manager of the attendee's event. */
  async setCheckIn(id: number, checkIn: boolean, user: AuthenticatedUser, context: RequestContext): Promise<AttendeeResponse> {
    const attendee = await this.findOrFail({ id });
    return checkIn ? this.checkIn(attendee, 'site', user, context) : this.undoCheckIn(attendee, user, context);
  }

  /** POST /qr: checks in the attendee holding `securityCode`. */
  async checkInByCode(securityCode: string, user: AuthenticatedUser, context: RequestContext): Promise<AttendeeResponse> {
    // The QR code holds the check-in secret (src/checkin/); the older security code is still accepted.
    const bySecret = await this.attendees.findByCheckinSecret(securityCode);
    const attendee = bySecret ?? (await this.findOrFail({ securityCode }));
    return this.checkIn(attendee, 'app', user, context);
  }

  /**
   * One conditional UPDATE (`... WHERE checked_in = false AND order done`), so that two scanners at
   * the door cannot both check the same person in; when it changes nothing, the row says why.
   */
  private async checkIn(
    attendee: Attendee,
    source: CheckinSource,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<AttendeeResponse> {
    await this.assertManages(user, attendee);
    return this.tx.run(async () => {
      const now = this.clock.now();
      const checkedIn = await this.attendees.checkIn(attendee.id, { source, userId: user.id }, now);
      const current = await this.findOrFail({ id: attendee.id });
      if (!checkedIn) {
        if (!(PUBLIC_ORDER_STATUSES as readonly string[]).includes(current.orderStatus)) {
          throw attendeeInvalidCheckIn();
        }
        throw attendeeAlreadyCheckedIn();
      }
      const scan = await this.door.recordFlag(current, 'entry', user.id, now);
      await this.domainEvents.publish({ kind: 'CheckInChanged', attendee: current, checkedIn: true, scan });
      const [response] = await this.present([current], context);
      return response;
    });
  }

  private async undoCheckIn(attendee: Attendee, user: AuthenticatedUser, context: RequestContext): Promise<AttendeeResponse> {
    await this.assertManages(user, attendee);
    return this.tx.run(async () => {
      const now = this.clock.now();
      const undone = await this.attendees.undoCheckIn(attendee.id, now);
      const current = await this.findOrFail({ id: attendee.id });
      if (undone) {
        const scan = await this.door.recordFlag(current, 'undo', user.id, now);
        await this.domainEvents.publish({ kind: 'CheckInChanged', attendee: current, checkedIn: false, scan });
      }
      const [response] = await this.present([current], context);
      return response;
    });
  }

  private async assertManages(user: AuthenticatedUser, attendee: Attendee): Promise<void> {
    const event = await this.eventFacts(attendee.eventId);
    if (!canManageEvent(user, event)) throw forbidden(false, 'Sorry, you are not allowed to check in attendees of this event.');
  }

  // ---------------------------------------------------------------- helpers

  /** Maps attendees, loading their tickets and events in two queries. */
  private async present(attendees: Attendee[], context: RequestContext): Promise<AttendeeResponse[]> {
    if (attendees.length === 0) return [];
    const ticketIds = [...new Set(attendees.map((attendee) => attendee.ticketId))];
    const eventIds = [...new Set(attendees.map((attendee) => attendee.eventId))];
    return this.presentWith(attendees, await this.attendees.ticketsAndEvents(ticketIds, eventIds), context);
  }

  /** Maps attendees whose tickets and events (their facts) are at hand, by id. */
  private presentWith(
    attendees: Attendee[],
    { tickets: ticketsById, events: eventsById }: Pick<AttendeePageRows, 'tickets' | 'events'>,
    context: RequestContext,
  ): AttendeeResponse[] {
    return attendees.map((attendee) => {
      const event = eventsById.get(attendee.eventId)!;
      return toAttendeeResponse(attendee, ticketsById.get(attendee.ticketId)!, context, {
        manage: canManageEvent(context.user, event),
        currency: this.config.currency,
        eventTimezone: event.timezone,
      });
    });
  }

  private async findOrFail(where: { id: number } | { securityCode: string }): Promise<Attendee> {
    const attendee = 'id' in where ? await this.attendees.findById(where.id) : await this.attendees.findBySecurityCode(where.securityCode);
    if (!attendee) {
      throw attendeeNotFound('id' in where ? undefined : 'No attendee holds this security code.');
    }
    return attendee;
  }

  private async eventFacts(eventId: number): Promise<EventFacts> {
    return this.attendees.eventFacts(eventId);
  }

  /** The list's filters, checked in the order of their parameters: 400 naming the first field that fails. */
  private async readFilters(query: ListAttendeesQuery, user: AuthenticatedUser | undefined): Promise<AttendeeFilters> {
    const filters: AttendeeFilters = { user, idLists: [] };
    if (query.provider?.length) {
      // Unknown providers are dropped, as the original does; naming only unknown ones matches nothing.
      filters.providers = [
        ...new Set(query.provider.map((name) => PROVIDER_ALIASES[name.toLowerCase()]).filter((name) => name !== undefined)),
      ];
    }
    if (query.search !== undefined && query.search.trim() !== '') {
      filters.searchPattern = `%${escapeLike(query.search.trim().toLowerCase())}%`;
    }
    filters.idLists = await this.readIdLists(query);

    const after = readDateFilter(query.after, 'after', FixedOffsetZone.utcInstance, 'from');
    if (after) filters.createdAfter = after.instant;
    const before = readDateFilter(query.before, 'before', FixedOffsetZone.utcInstance, 'until');
    if (before) filters.createdBefore = before.instant;
    if (query.include?.length) filters.includedIds = query.include;
    if (query.exclude?.length) filters.excludedIds = query.exclude;

    // A filter is not charged: the currency's decimals apply, not a payment provider's step.
    const money: MoneyRules = { currency: this.config.currency.code, exponent: this.config.currency.exponent, step: 1 };
    if (query.price_min !== undefined) filters.priceMin = readPrice(query.price_min, 'price_min', money);
    if (query.price_max !== undefined) filters.priceMax = readPrice(query.price_max, 'price_max', money);
    if (query.checkedin !== undefined) filters.checkedIn = query.checkedin;

    const eventStatuses = parseStatusList(query.post_status, 'post_status', POST_STATUS_FILTER);
    if (Array.isArray(eventStatuses)) filters.eventStatuses = eventStatuses;
    const attendeeStatuses = parseStatusList(query.status, 'status', POST_STATUS_FILTER);
    if (Array.isArray(attendeeStatuses)) filters.attendeeStatuses = attendeeStatuses;
    const orderStatuses = parseStatusList(query.order_status, 'order_status', ORDER_STATUS_FILTER);
    if (Array.isArray(orderStatuses)) filters.orderStatuses = orderStatuses;
    if (query.rsvp_going_status?.length) filters.rsvpGoing = [...new Set(query.rsvp_going_status.map((answer) => answer === 'yes'))];
    if (query.attendee_information_available !== undefined) filters.informationAvailable = query.attendee_information_available;
    return filters;
  }

  /** The event and ticket id lists, each id of an existing event or ticket (400 naming the list otherwise). */
  private async readIdLists(query: ListAttendeesQuery): Promise<AttendeeFilters['idLists']> {
    const filters = [
      { field: 'include_post', ids: query.include_post, single: query.post_id, singleField: 'post_id', entity: Event, column: 'eventId' },
      { field: 'exclude_post', ids: query.exclude_post, entity: Event, column: 'eventId' },
      {
        field: 'include_ticket',
        ids: query.include_ticket,
        single: query.ticket_id,
        singleField: 'ticket_id',
        entity: Ticket,
        column: 'ticketId',
      },
      { field: 'exclude_ticket', ids: query.exclude_ticket, entity: Ticket, column: 'ticketId' },
    ] as const;
    const lists: AttendeeFilters['idLists'] = [];
    for (const filter of filters) {
      // An empty list (`include_post=`) filters nothing, as if it were not sent; the list wins over the single id.
      const single = 'single' in filter && filter.single !== undefined ? { field: filter.singleField, ids: [filter.single] } : undefined;
      const named = filter.ids?.length ? { field: filter.field, ids: filter.ids } : single;
      if (!named) continue;
      const missing = await this.attendees.missingIds(filter.entity, named.ids);
      if (missing.length > 0) throw invalidParam(named.field, missingIdsReason(named.field, missing));
      lists.push({ field: filter.field, column: filter.column, include: filter.field.startsWith('include'), ids: named.ids });
    }
    return lists;
  }
}

/** A price filter in minor units: no more decimals than the currency has. */
function readPrice(raw: string, field: string, rules: MoneyRules): number {
  const parsed = parseMoney(raw, rules);
  if (parsed.problem) throw invalidParam(field, describeMoneyProblem(field, parsed.problem, rules));
  return parsed.minor;
}

const POST_STATUS_FILTER = { allowed: POST_STATUSES, acceptsAny: true };
const ORDER_STATUS_FILTER = {
  allowed: ATTENDEE_ORDER_STATUSES,
  acceptsAny: true,
  groups: { public: PUBLIC_ORDER_STATUSES, private: PRIVATE_ORDER_STATUSES },
};

/** Parameters that page or order the list without choosing its attendees. */
const PAGING_PARAMETERS: ReadonlySet<string> = new Set<keyof ListAttendeesQuery>(['page', 'per_page', 'offset', 'order', 'orderby']);

/**
 * Whether the list is every attendee: a caller who manages every event's attendees, choosing none
 * (an empty id list chooses none). Its total is the attendee tally, not a count of the table.
 */
function isEveryAttendee(query: ListAttendeesQuery, user: AuthenticatedUser | undefined): boolean {
  if (!managesEveryEvent(user)) return false;
  return Object.entries(query).every(
    ([name, value]) => PAGING_PARAMETERS.has(name) || value === undefined || (Array.isArray(value) && value.length === 0),
  );
}

/** The recognised parameters the caller sent, in the interface's order, lists as CSV. */
const ECHOED_PARAMETERS: Array<keyof ListAttendeesQuery> = [
  'page',
  'per_page',
  'provider',
  'search',
  'offset',
  'order',
  'orderby',
  'post_id',
  'ticket_id',
  'after',
  'before',
  'include',
  'exclude',
  'price_max',
  'price_min',
  'include_post',
  'exclude_post',
  'include_ticket',
  'exclude_ticket',
  'post_status',
  'status',
  'order_status',
  'checkedin',
  'rsvp_going_status',
  'attendee_information_available',
];
