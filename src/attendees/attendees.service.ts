import { CountCache } from '../common/caching/count-cache';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { FixedOffsetZone } from 'luxon';
import { Brackets, DataSource, EntityManager, In, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import { AuthenticatedUser, hasCapability } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { parseDateInput } from '../common/dates/date-input';
import { forbidden, invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { centsToMoney, moneyToCents } from '../common/money';
import { assertPageInRange, countPages, parsePageRequest, totalWithOffset, QueryPairs } from '../common/pagination/pagination';
import { escapeLike } from '../posts/post-query';
import { isPostStatus, POST_STATUSES } from '../posts/post-status';
import { appConfig } from '../config/app.config';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { canManageEvent } from '../tickets/ticket-permissions';
import { OutboxService } from '../outbox/outbox.service';
import { Attendee } from './attendee.entity';
import { toAttendeeResponse } from './attendees.mapper';
import type { AttendeeResponse } from './dto/attendee.response';
import { ListAttendeesQuery } from './dto/list-attendees.query';
import { attendeeAlreadyCheckedIn, attendeeInvalidCheckIn, attendeeNotAccessible, attendeeNotFound } from './attendee-errors';

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
/** Attendees whose order counts as done: shown publicly and allowed to check in. */
export const PUBLIC_ORDER_STATUSES = ['completed', 'yes'] as const;
const PRIVATE_ORDER_STATUSES = ATTENDEE_ORDER_STATUSES.filter((status) => !(PUBLIC_ORDER_STATUSES as readonly string[]).includes(status));

const PROVIDER_ALIASES: Record<string, string> = { rsvp: 'rsvp', tc: 'tc', 'tribe-commerce': 'tc', tpp: 'tc' };

/** The event facts the attendee rules need. */
type EventFacts = Pick<Event, 'id' | 'authorId' | 'status' | 'showAttendeeList' | 'timezone'>;

const EVENT_FACT_COLUMNS = { id: true, authorId: true, status: true, showAttendeeList: true, timezone: true } as const;

/**
 * Attendee lists, single reads and check-ins. Who sees what: managers of an event (editors and
 * administrators for all events, authors for their own) see all its attendees with every field;
 * everyone else sees only the public ones (`isPubliclyVisible`) with public fields. Lists mix both,
 * decided per attendee in SQL.
 */
@Injectable()
export class AttendeesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly counts: CountCache,
    private readonly outbox: OutboxService,
  ) {}

  // ---------------------------------------------------------------- reading

  async list(query: ListAttendeesQuery, context: RequestContext): Promise<AttendeePage> {
    const paging = parsePageRequest(query, 'tickets');
    const manager = this.dataSource.manager;
    const builder = manager.createQueryBuilder(Attendee, 'attendee').innerJoin(Event, 'event', 'event.id = attendee.eventId');
    builder.where(
      new Brackets((visible) => {
        visible
          .where(this.managedCondition(context.user, builder))
          .orWhere(new Brackets((open) => this.applyPublicVisibility(open, builder)));
      }),
    );
    await this.applyFilters(manager, builder, query, context.user);
    this.applyOrder(builder, query);

    const skipped = query.offset ?? 0;
    const matching = await this.counts.count('attendees', builder, manager);
    const total = totalWithOffset(matching, skipped);
    const totalPages = countPages(total, paging.perPage);
    assertPageInRange(paging.page, totalPages, { kind: 'invalid' });
    const attendees =
      total === 0
        ? []
        : await builder
            .offset(skipped + paging.offset)
            .limit(paging.perPage)
            .getMany();
    return {
      rest_url: this.collectionUrl(context, echoedQuery(query)),
      total,
      total_pages: totalPages,
      attendees: await this.present(manager, attendees, context),
    };
  }

  async get(id: number, context: RequestContext): Promise<AttendeeResponse> {
    const manager = this.dataSource.manager;
    const attendee = await this.findOrFail(manager, { id });
    const event = await this.eventFacts(manager, attendee.eventId);
    if (!canManageEvent(context.user, event) && !isPubliclyVisible(attendee, event)) {
      throw attendeeNotAccessible();
    }
    const [response] = await this.present(manager, [attendee], context);
    return response;
  }

  // ---------------------------------------------------------------- check-in

  /** `check_in: true|false` on POST|PUT|PATCH /attendees/{id}, by a manager of the attendee's event. */
  async setCheckIn(id: number, checkIn: boolean, user: AuthenticatedUser, context: RequestContext): Promise<AttendeeResponse> {
    const attendee = await this.findOrFail(this.dataSource.manager, { id });
    return checkIn ? this.checkIn(attendee, 'site', user, context) : this.undoCheckIn(attendee, user, context);
  }

  /** POST /qr: checks in the attendee holding `securityCode`. */
  async checkInByCode(securityCode: string, user: AuthenticatedUser, context: RequestContext): Promise<AttendeeResponse> {
    const attendee = await this.findOrFail(this.dataSource.manager, { securityCode });
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
    return this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const result = await manager
        .createQueryBuilder()
        .update(Attendee)
        .set({ checkedIn: true, checkedInAt: now, checkinSource: source, checkinUserId: user.id, updatedAt: now })
        .where('id = :attendeeId', { attendeeId: attendee.id })
        .andWhere('checkedIn = :notCheckedIn', { notCheckedIn: false })
        .andWhere('orderStatus IN (:...doneStatuses)', { doneStatuses: [...PUBLIC_ORDER_STATUSES] })
        .execute();
      const current = await this.findOrFail(manager, { id: attendee.id });
      if (!result.affected) {
        if (!(PUBLIC_ORDER_STATUSES as readonly string[]).includes(current.orderStatus)) {
          throw attendeeInvalidCheckIn();
        }
        throw attendeeAlreadyCheckedIn();
      }
      await this.outbox.checkInChanged(manager, current, true);
      const [response] = await this.present(manager, [current], context);
      return response;
    });
  }

  private async undoCheckIn(attendee: Attendee, user: AuthenticatedUser, context: RequestContext): Promise<AttendeeResponse> {
    await this.assertManages(user, attendee);
    return this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const undone = await manager
        .createQueryBuilder()
        .update(Attendee)
        .set({ checkedIn: false, checkedInAt: null, checkinSource: null, checkinUserId: null, updatedAt: now })
        .where('id = :attendeeId', { attendeeId: attendee.id })
        .andWhere('checkedIn = :checkedIn', { checkedIn: true })
        .execute();
      const current = await this.findOrFail(manager, { id: attendee.id });
      if (undone.affected) await this.outbox.checkInChanged(manager, current, false);
      const [response] = await this.present(manager, [current], context);
      return response;
    });
  }

  private async assertManages(user: AuthenticatedUser, attendee: Attendee): Promise<void> {
    const event = await this.eventFacts(this.dataSource.manager, attendee.eventId);
    if (!canManageEvent(user, event)) throw forbidden(false, 'Sorry, you are not allowed to check in attendees of this event.');
  }

  // ---------------------------------------------------------------- helpers

  /** Maps a page of attendees, loading their tickets and events in two queries. */
  private async present(manager: EntityManager, attendees: Attendee[], context: RequestContext): Promise<AttendeeResponse[]> {
    if (attendees.length === 0) return [];
    const ticketIds = [...new Set(attendees.map((attendee) => attendee.ticketId))];
    const eventIds = [...new Set(attendees.map((attendee) => attendee.eventId))];
    const [tickets, events] = await Promise.all([
      manager.find(Ticket, { where: { id: In(ticketIds) } }),
      manager.find(Event, { select: EVENT_FACT_COLUMNS, where: { id: In(eventIds) } }),
    ]);
    const ticketsById = new Map(tickets.map((ticket) => [ticket.id, ticket]));
    const eventsById = new Map(events.map((event) => [event.id, event]));
    return attendees.map((attendee) => {
      const event = eventsById.get(attendee.eventId)!;
      return toAttendeeResponse(attendee, ticketsById.get(attendee.ticketId)!, context, {
        manage: canManageEvent(context.user, event),
        currency: this.config.currency,
        eventTimezone: event.timezone,
      });
    });
  }

  private async findOrFail(manager: EntityManager, where: { id: number } | { securityCode: string }): Promise<Attendee> {
    const attendee = await manager.findOne(Attendee, { where });
    if (!attendee) {
      throw attendeeNotFound('id' in where ? undefined : 'No attendee holds this security code.');
    }
    return attendee;
  }

  private async eventFacts(manager: EntityManager, eventId: number): Promise<EventFacts> {
    return manager.findOneOrFail(Event, { select: EVENT_FACT_COLUMNS, where: { id: eventId } });
  }

  /** SQL for "the caller manages this attendee's event", matching `canManageEvent`. */
  private managedCondition(user: AuthenticatedUser | undefined, builder: SelectQueryBuilder<Attendee>): string {
    if (hasCapability(user, 'manage_attendees')) return '1 = 1';
    if (user && hasCapability(user, 'publish_events')) {
      builder.setParameter('managingAuthorId', user.id);
      return 'event.authorId = :managingAuthorId';
    }
    return '1 = 0';
  }

  /** SQL of `isPubliclyVisible`. */
  private applyPublicVisibility(where: WhereExpressionBuilder, builder: SelectQueryBuilder<Attendee>): void {
    builder.setParameters({
      publicEventStatus: 'publish',
      publicListShown: true,
      publicOptout: false,
      publicAttendeeStatus: 'publish',
      publicRsvpProvider: 'rsvp',
      publicRsvpGoing: true,
      publicOrderStatuses: [...PUBLIC_ORDER_STATUSES],
    });
    where
      .where('event.status = :publicEventStatus')
      .andWhere('event.showAttendeeList = :publicListShown')
      .andWhere('attendee.optout = :publicOptout')
      .andWhere('attendee.status = :publicAttendeeStatus')
      .andWhere('(attendee.provider <> :publicRsvpProvider OR attendee.rsvpGoing = :publicRsvpGoing)')
      .andWhere('attendee.orderStatus IN (:...publicOrderStatuses)');
  }

  private async applyFilters(
    manager: EntityManager,
    builder: SelectQueryBuilder<Attendee>,
    query: ListAttendeesQuery,
    user: AuthenticatedUser | undefined,
  ): Promise<void> {
    this.applyProviderAndSearch(builder, query, user);
    await this.applyEventAndTicketFilters(manager, builder, query);
    this.applyIdAndDateFilters(builder, query);
    this.applyManagedFilters(builder, query, user);
    this.applyStatusFilters(builder, query);
  }

  private applyProviderAndSearch(
    builder: SelectQueryBuilder<Attendee>,
    query: ListAttendeesQuery,
    user: AuthenticatedUser | undefined,
  ): void {
    if (query.provider?.length) {
      const providers = [
        ...new Set(query.provider.map((name) => PROVIDER_ALIASES[name.toLowerCase()]).filter((name) => name !== undefined)),
      ];
      // Unknown providers are dropped, as the original does; naming only unknown ones matches nothing.
      if (providers.length === 0) builder.andWhere('1 = 0');
      else builder.andWhere('attendee.provider IN (:...providers)', { providers });
    }

    if (query.search !== undefined && query.search.trim() !== '') {
      const pattern = `%${escapeLike(query.search.trim().toLowerCase())}%`;
      // Email and security code are manager-only data: matching on them for other callers would leak them.
      const managed = this.managedCondition(user, builder);
      builder.andWhere(
        new Brackets((text) => {
          text
            .where("LOWER(attendee.holderName) LIKE :searchPattern ESCAPE '!'")
            .orWhere(
              `(${managed} AND (LOWER(attendee.holderEmail) LIKE :searchPattern ESCAPE '!' OR LOWER(attendee.securityCode) LIKE :searchPattern ESCAPE '!'))`,
            );
        }),
        { searchPattern: pattern },
      );
    }
  }

  private async applyEventAndTicketFilters(
    manager: EntityManager,
    builder: SelectQueryBuilder<Attendee>,
    query: ListAttendeesQuery,
  ): Promise<void> {
    // An empty list (`include_post=`) filters nothing, as if it were not sent.
    const eventIds = query.include_post?.length ? query.include_post : query.post_id !== undefined ? [query.post_id] : undefined;
    if (eventIds) {
      await this.assertExist(manager, Event, eventIds, query.include_post?.length ? 'include_post' : 'post_id', 'event');
      builder.andWhere('attendee.eventId IN (:...includedEventIds)', { includedEventIds: eventIds });
    }
    if (query.exclude_post?.length) {
      await this.assertExist(manager, Event, query.exclude_post, 'exclude_post', 'event');
      builder.andWhere('attendee.eventId NOT IN (:...excludedEventIds)', { excludedEventIds: query.exclude_post });
    }
    const ticketIds = query.include_ticket?.length ? query.include_ticket : query.ticket_id !== undefined ? [query.ticket_id] : undefined;
    if (ticketIds) {
      await this.assertExist(manager, Ticket, ticketIds, query.include_ticket?.length ? 'include_ticket' : 'ticket_id', 'ticket');
      builder.andWhere('attendee.ticketId IN (:...includedTicketIds)', { includedTicketIds: ticketIds });
    }
    if (query.exclude_ticket?.length) {
      await this.assertExist(manager, Ticket, query.exclude_ticket, 'exclude_ticket', 'ticket');
      builder.andWhere('attendee.ticketId NOT IN (:...excludedTicketIds)', { excludedTicketIds: query.exclude_ticket });
    }
  }

  private applyIdAndDateFilters(builder: SelectQueryBuilder<Attendee>, query: ListAttendeesQuery): void {
    if (query.after !== undefined)
      builder.andWhere('attendee.createdAt >= :createdAfter', { createdAfter: readUtcDate(query.after, 'after', 'start') });
    if (query.before !== undefined)
      builder.andWhere('attendee.createdAt <= :createdBefore', { createdBefore: readUtcDate(query.before, 'before', 'end') });

    if (query.include?.length) builder.andWhere('attendee.id IN (:...includedIds)', { includedIds: query.include });
    if (query.exclude?.length) builder.andWhere('attendee.id NOT IN (:...excludedIds)', { excludedIds: query.exclude });
  }

  private applyManagedFilters(builder: SelectQueryBuilder<Attendee>, query: ListAttendeesQuery, user: AuthenticatedUser | undefined): void {
    // What was paid and who checked in are manager-only data too: only attendees the caller manages
    // can match these filters, so that they cannot be used to sort other attendees by them.
    if (query.price_min !== undefined) {
      const managed = this.managedCondition(user, builder);
      builder.andWhere(`(${managed} AND attendee.pricePaid >= CAST(:priceMin AS DECIMAL(12,2)))`, {
        priceMin: readPrice(query.price_min, 'price_min'),
      });
    }
    if (query.price_max !== undefined) {
      const managed = this.managedCondition(user, builder);
      builder.andWhere(`(${managed} AND attendee.pricePaid <= CAST(:priceMax AS DECIMAL(12,2)))`, {
        priceMax: readPrice(query.price_max, 'price_max'),
      });
    }
    if (query.checkedin !== undefined) {
      builder.andWhere(`(${this.managedCondition(user, builder)} AND attendee.checkedIn = :checkedIn)`, { checkedIn: query.checkedin });
    }
  }

  private applyStatusFilters(builder: SelectQueryBuilder<Attendee>, query: ListAttendeesQuery): void {
    const eventStatuses = readPostStatuses(query.post_status, 'post_status');
    if (eventStatuses) builder.andWhere('event.status IN (:...eventStatuses)', { eventStatuses });
    const attendeeStatuses = readPostStatuses(query.status, 'status');
    if (attendeeStatuses) builder.andWhere('attendee.status IN (:...attendeeStatuses)', { attendeeStatuses });
    const orderStatuses = readOrderStatuses(query.order_status);
    if (orderStatuses) builder.andWhere('attendee.orderStatus IN (:...orderStatuses)', { orderStatuses });

    if (query.rsvp_going_status?.length) {
      const going = [...new Set(query.rsvp_going_status.map((answer) => answer === 'yes'))];
      builder.andWhere(
        new Brackets((rsvp) => {
          rsvp.where('attendee.provider <> :rsvpGoingProvider').orWhere('attendee.rsvpGoing IN (:...rsvpGoingAnswers)');
        }),
        { rsvpGoingProvider: 'rsvp', rsvpGoingAnswers: going },
      );
    }

    if (query.attendee_information_available !== undefined) {
      const tickets = builder
        .subQuery()
        .select('information_ticket.id')
        .from(Ticket, 'information_ticket')
        .where('information_ticket.iac <> :noInformation')
        .getQuery();
      const operator = query.attendee_information_available ? 'IN' : 'NOT IN';
      builder.andWhere(`attendee.ticketId ${operator} ${tickets}`, { noInformation: 'none' });
    }
  }

  private applyOrder(builder: SelectQueryBuilder<Attendee>, query: ListAttendeesQuery): void {
    const direction = query.order ?? 'ASC';
    switch (query.orderby ?? 'id') {
      case 'date':
        builder.orderBy('attendee.createdAt', direction).addOrderBy('attendee.id', direction);
        break;
      case 'title':
        builder.orderBy('attendee.holderName', direction).addOrderBy('attendee.id', direction);
        break;
      case 'include':
        if (query.include?.length) {
          const positions = query.include.map((_id, index) => `WHEN :includePosition${index} THEN ${index}`).join(' ');
          builder
            .addSelect(`CASE attendee.id ${positions} ELSE ${query.include.length} END`, 'include_position')
            .setParameters(Object.fromEntries(query.include.map((id, index) => [`includePosition${index}`, id])))
            .orderBy('include_position', direction)
            .addOrderBy('attendee.id', direction);
          break;
        }
        builder.orderBy('attendee.id', direction);
        break;
      default:
        // `slug` too: attendees have no slug of their own, the original derives it from the id.
        builder.orderBy('attendee.id', direction);
    }
  }

  private async assertExist(
    manager: EntityManager,
    entity: typeof Event | typeof Ticket,
    ids: number[],
    field: string,
    what: string,
  ): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const found = await manager
      .createQueryBuilder(entity, 'existing')
      .where('existing.id IN (:...existingIds)', { existingIds: unique })
      .getCount();
    if (found !== unique.length) throw invalidParam(field, `${field} must hold existing ${what} ids`);
  }

  private collectionUrl(context: RequestContext, pairs: QueryPairs): string {
    const url = context.namespaceUrl('tickets', 'attendees/');
    return pairs.length === 0 ? url : `${url}?${new URLSearchParams(pairs).toString()}`;
  }
}

/**
 * What the public (and signed-in callers who do not manage the event) may see: attendees of a
 * published event that shows its list, published, not opted out, RSVP going or not RSVP, order done.
 */
export function isPubliclyVisible(attendee: Attendee, event: Pick<Event, 'status' | 'showAttendeeList'>): boolean {
  return (
    event.status === 'publish' &&
    event.showAttendeeList &&
    !attendee.optout &&
    attendee.status === 'publish' &&
    (attendee.provider !== 'rsvp' || attendee.rsvpGoing === true) &&
    (PUBLIC_ORDER_STATUSES as readonly string[]).includes(attendee.orderStatus)
  );
}

function readUtcDate(raw: string, field: string, edge: 'start' | 'end'): Date {
  const parsed = parseDateInput(raw, FixedOffsetZone.utcInstance);
  if (!parsed) throw invalidParam(field, `${field} must be a UTC date (YYYY-MM-DD[ HH:MM:SS], ISO 8601) or a unix timestamp`);
  // A date alone covers its whole day.
  if (parsed.dateOnly && edge === 'end') return new Date(parsed.instant.getTime() + 86_400_000 - 1);
  return parsed.instant;
}

function readPrice(raw: string, field: string): string {
  const cents = moneyToCents(raw);
  if (cents === null) throw invalidParam(field, `${field} must be a non-negative decimal number with at most two decimals`);
  return centsToMoney(cents);
}

function readPostStatuses(raw: string[] | undefined, field: string): string[] | undefined {
  if (!raw || raw.length === 0) return undefined;
  if (raw.includes('any')) return undefined;
  for (const status of raw) {
    if (!isPostStatus(status)) throw invalidParam(field, `${field} must hold ${[...POST_STATUSES, 'any'].join(', ')}`);
  }
  return [...new Set(raw)];
}

function readOrderStatuses(raw: string[] | undefined): string[] | undefined {
  if (!raw || raw.length === 0) return undefined;
  const statuses = new Set<string>();
  for (const value of raw) {
    if (value === 'any') return undefined;
    if (value === 'public') PUBLIC_ORDER_STATUSES.forEach((status) => statuses.add(status));
    else if (value === 'private') PRIVATE_ORDER_STATUSES.forEach((status) => statuses.add(status));
    else if ((ATTENDEE_ORDER_STATUSES as readonly string[]).includes(value)) statuses.add(value);
    else
      throw invalidParam('order_status', `order_status must hold ${[...ATTENDEE_ORDER_STATUSES, 'public', 'private', 'any'].join(', ')}`);
  }
  return [...statuses];
}

/** The recognised parameters the caller sent, in the interface's order, lists as CSV. */
function echoedQuery(query: ListAttendeesQuery): QueryPairs {
  const pairs: QueryPairs = [];
  const keys: Array<keyof ListAttendeesQuery> = [
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
  for (const key of keys) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    pairs.push([key, Array.isArray(value) ? value.join(',') : String(value)]);
  }
  return pairs;
}
