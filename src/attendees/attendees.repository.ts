import { Injectable } from '@nestjs/common';
import { Brackets, In, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { findMissingIds } from '../common/list-filters/ids-must-exist';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { Attendee } from './attendee.entity';
import { AttendeeTally } from './attendee-tally.entity';
import type { AttendeeOrderBy } from './dto/list-attendees.query';
import { TransactionHost } from '../common/database/transaction-host';
import { hydrate } from '../common/database/kept-statements';
import { PUBLIC_ORDER_STATUSES, applyAttendeeVisibility } from '../access/attendee-access';
import { managedEventCondition } from '../access/event-access';

/** The event facts the attendee rules need. */
export type EventFacts = Pick<Event, 'id' | 'authorId' | 'status' | 'showAttendeeList' | 'timezone'>;

const EVENT_FACT_COLUMNS = { id: true, authorId: true, status: true, showAttendeeList: true, timezone: true } as const;

/**
 * The filters of an attendee list, checked (AttendeesService reads them from the query). The
 * manager-only ones (`priceMin`, `priceMax`, `checkedIn`, the email and security code of `search`)
 * match only attendees of events `user` manages.
 */
export interface AttendeeFilters {
  user: AuthenticatedUser | undefined;
  /** Providers to match; empty when only unknown ones were named, which matches nothing. */
  providers?: string[];
  /** A LIKE pattern, lower case, `!` escaped. */
  searchPattern?: string;
  /** Event and ticket id lists, in the order include_post, exclude_post, include_ticket, exclude_ticket. */
  idLists: Array<{ field: string; column: 'eventId' | 'ticketId'; include: boolean; ids: number[] }>;
  createdAfter?: Date;
  createdBefore?: Date;
  includedIds?: number[];
  excludedIds?: number[];
  /** Decimal strings ("12.50"). */
  /** Minor units. */
  priceMin?: number;
  priceMax?: number;
  checkedIn?: boolean;
  eventStatuses?: string[];
  attendeeStatuses?: string[];
  orderStatuses?: string[];
  /** RSVP answers to match (true: going); attendees of other providers always match. */
  rsvpGoing?: boolean[];
  /** Whether the attendee's ticket asks attendee questions. */
  informationAvailable?: boolean;
}

/** The ticket columns an attendee's response shows (toAttendeeResponse). */
const TICKET_SUMMARY_COLUMNS = ['id', 'name', 'description', 'priceMinor', 'saleStartUtc', 'saleEndUtc', 'sku'] as const;

/** A page of an attendee list with the tickets and events (their facts) its attendees belong to, by id. */
export interface AttendeePageRows {
  attendees: Attendee[];
  tickets: Map<number, Ticket>;
  events: Map<number, EventFacts>;
  /** The attendee tally (AttendeeTallies.total) read with the page when asked for; undefined for an empty page. */
  tally?: number;
}

export interface AttendeeOrder {
  by: AttendeeOrderBy;
  direction: 'ASC' | 'DESC';
  /** The `include` ids, for ordering by their position. */
  include?: number[];
}

/** Every statement on attendees outside checkout and the door. */
@Injectable()
export class AttendeesRepository {
  constructor(private readonly tx: TransactionHost) {}

  // ---------------------------------------------------------------- single attendees

  findById(id: number): Promise<Attendee | null> {
    const manager = this.tx.manager;
    return manager.findOne(Attendee, { where: { id } });
  }

  findBySecurityCode(securityCode: string): Promise<Attendee | null> {
    const manager = this.tx.manager;
    return manager.findOne(Attendee, { where: { securityCode } });
  }

  findByCheckinSecret(checkinSecret: string): Promise<Attendee | null> {
    const manager = this.tx.manager;
    return manager.findOne(Attendee, { where: { checkinSecret } });
  }

  eventFacts(eventId: number): Promise<EventFacts> {
    const manager = this.tx.manager;
    return manager.findOneOrFail(Event, { select: EVENT_FACT_COLUMNS, where: { id: eventId } });
  }

  /** The tickets and the events (their facts) of a page of attendees, in two queries. */
  async ticketsAndEvents(
    ticketIds: number[],
    eventIds: number[],
  ): Promise<{ tickets: Map<number, Ticket>; events: Map<number, EventFacts> }> {
    const manager = this.tx.manager;
    const [tickets, events] = await Promise.all([
      manager.find(Ticket, { where: { id: In(ticketIds) } }),
      manager.find(Event, { select: EVENT_FACT_COLUMNS, where: { id: In(eventIds) } }),
    ]);
    return { tickets: new Map(tickets.map((ticket) => [ticket.id, ticket])), events: new Map(events.map((event) => [event.id, event])) };
  }

  /** Of `ids`, those naming no event (`Event`) or ticket (`Ticket`), each once, in the order given. */
  missingIds(entity: typeof Event | typeof Ticket, ids: number[]): Promise<number[]> {
    const manager = this.tx.manager;
    return findMissingIds(manager, entity, ids);
  }

  // ---------------------------------------------------------------- check-in flag

  /**
   * Checks the attendee in, in one conditional UPDATE: only while it is not checked in and its
   * order is done. False when it changed nothing.
   */
  async checkIn(attendeeId: number, by: { source: Attendee['checkinSource']; userId: number }, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ checkedIn: true, checkedInAt: now, checkinSource: by.source, checkinUserId: by.userId, updatedAt: now })
      .where('id = :attendeeId', { attendeeId })
      .andWhere('checkedIn = :notCheckedIn', { notCheckedIn: false })
      .andWhere('orderStatus IN (:...doneStatuses)', { doneStatuses: [...PUBLIC_ORDER_STATUSES] })
      .execute();
    return Boolean(result.affected);
  }

  /** Undoes the attendee's check-in if it is checked in; false when it was not. */
  async undoCheckIn(attendeeId: number, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const undone = await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ checkedIn: false, checkedInAt: null, checkinSource: null, checkinUserId: null, updatedAt: now })
      .where('id = :attendeeId', { attendeeId })
      .andWhere('checkedIn = :checkedIn', { checkedIn: true })
      .execute();
    return Boolean(undone.affected);
  }

  // ---------------------------------------------------------------- lists

  /**
   * The attendees the caller may see (all of the events they manage, the public ones of others),
   * filtered and ordered; unpaged, for `page` and the count cache.
   */
  visibleQuery(filters: AttendeeFilters, order: AttendeeOrder): SelectQueryBuilder<Attendee> {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(Attendee, 'attendee').innerJoin(Event, 'event', 'event.id = attendee.eventId');
    applyAttendeeVisibility(builder, filters.user);
    applyFilters(builder, filters);
    applyOrder(builder, order);
    return builder;
  }

  /** The attendees of the events the caller manages, filtered; unordered and unpaged (exports page it). */
  managedQuery(filters: AttendeeFilters): SelectQueryBuilder<Attendee> {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(Attendee, 'attendee').innerJoin(Event, 'event', 'event.id = attendee.eventId');
    builder.where(managedEventCondition(filters.user, builder));
    applyFilters(builder, filters);
    return builder;
  }

  /**
   * `limit` attendees of the list from `offset`, with their tickets' and events' columns that the
   * responses show, in one statement (the list already joins the event); with `withTally`, the
   * attendee tally too, as AttendeeTallies.total reads it, for the list of every attendee.
   */
  async pageWithFacts(
    list: SelectQueryBuilder<Attendee>,
    offset: number,
    limit: number,
    options: { withTally: boolean },
  ): Promise<AttendeePageRows> {
    const manager = this.tx.manager;
    list
      .leftJoin(Ticket, 'page_ticket', 'page_ticket.id = attendee.ticketId')
      .addSelect(TICKET_SUMMARY_COLUMNS.map((column) => `page_ticket.${column}`))
      .addSelect(Object.keys(EVENT_FACT_COLUMNS).map((column) => `event.${column}`));
    if (options.withTally) {
      const tally = list.subQuery().select('COALESCE(SUM(tally.delta), 0)').from(AttendeeTally, 'tally').getQuery();
      list.addSelect(tally, 'attendee_tally');
    }
    const { entities, raw } = await list.offset(offset).limit(limit).getRawAndEntities<Record<string, unknown>>();
    const tickets = new Map<number, Ticket>();
    const events = new Map<number, EventFacts>();
    for (const row of raw) {
      const ticket = hydrate(manager, Ticket, 'page_ticket', row);
      if (ticket.id !== undefined && ticket.id !== null) tickets.set(ticket.id, ticket);
      const event = hydrate(manager, Event, 'event', row);
      events.set(event.id, event);
    }
    const tally = options.withTally && raw.length > 0 ? Number(raw[0].attendee_tally) : undefined;
    return { attendees: entities, tickets, events, tally };
  }
}

function applyFilters(builder: SelectQueryBuilder<Attendee>, filters: AttendeeFilters): void {
  const { user } = filters;
  if (filters.providers) {
    if (filters.providers.length === 0) builder.andWhere('1 = 0');
    else builder.andWhere('attendee.provider IN (:...providers)', { providers: filters.providers });
  }

  if (filters.searchPattern !== undefined) {
    // Email and security code are manager-only data: matching on them for other callers would leak them.
    const managed = managedEventCondition(user, builder);
    builder.andWhere(
      new Brackets((text) => {
        text
          .where("LOWER(attendee.holderName) LIKE :searchPattern ESCAPE '!'")
          .orWhere(
            `(${managed} AND (LOWER(attendee.holderEmail) LIKE :searchPattern ESCAPE '!' OR LOWER(attendee.securityCode) LIKE :searchPattern ESCAPE '!'))`,
          );
      }),
      { searchPattern: filters.searchPattern },
    );
  }

  for (const list of filters.idLists) {
    const operator = list.include ? 'IN' : 'NOT IN';
    builder.andWhere(`attendee.${list.column} ${operator} (:...${list.field}Ids)`, { [`${list.field}Ids`]: list.ids });
  }

  if (filters.createdAfter) builder.andWhere('attendee.createdAt >= :createdAfter', { createdAfter: filters.createdAfter });
  if (filters.createdBefore) builder.andWhere('attendee.createdAt <= :createdBefore', { createdBefore: filters.createdBefore });
  if (filters.includedIds) builder.andWhere('attendee.id IN (:...includedIds)', { includedIds: filters.includedIds });
  if (filters.excludedIds) builder.andWhere('attendee.id NOT IN (:...excludedIds)', { excludedIds: filters.excludedIds });

  // What was paid and who checked in are manager-only data too: only attendees the caller manages
  // can match these filters, so that they cannot be used to sort other attendees by them.
  if (filters.priceMin !== undefined) {
    const managed = managedEventCondition(user, builder);
    builder.andWhere(`(${managed} AND attendee.pricePaidMinor >= :priceMin)`, { priceMin: filters.priceMin });
  }
  if (filters.priceMax !== undefined) {
    const managed = managedEventCondition(user, builder);
    builder.andWhere(`(${managed} AND attendee.pricePaidMinor <= :priceMax)`, { priceMax: filters.priceMax });
  }
  if (filters.checkedIn !== undefined) {
    builder.andWhere(`(${managedEventCondition(user, builder)} AND attendee.checkedIn = :checkedIn)`, { checkedIn: filters.checkedIn });
  }

  if (filters.eventStatuses) builder.andWhere('event.status IN (:...eventStatuses)', { eventStatuses: filters.eventStatuses });
  if (filters.attendeeStatuses)
    builder.andWhere('attendee.status IN (:...attendeeStatuses)', { attendeeStatuses: filters.attendeeStatuses });
  if (filters.orderStatuses) builder.andWhere('attendee.orderStatus IN (:...orderStatuses)', { orderStatuses: filters.orderStatuses });

  if (filters.rsvpGoing) {
    builder.andWhere(
      new Brackets((rsvp) => {
        rsvp.where('attendee.provider <> :rsvpGoingProvider').orWhere('attendee.rsvpGoing IN (:...rsvpGoingAnswers)');
      }),
      { rsvpGoingProvider: 'rsvp', rsvpGoingAnswers: filters.rsvpGoing },
    );
  }

  if (filters.informationAvailable !== undefined) {
    const tickets = builder
      .subQuery()
      .select('information_ticket.id')
      .from(Ticket, 'information_ticket')
      .where('information_ticket.attendeeInformationFields IS NOT NULL')
      .getQuery();
    const operator = filters.informationAvailable ? 'IN' : 'NOT IN';
    builder.andWhere(`attendee.ticketId ${operator} ${tickets}`);
  }
}

function applyOrder(builder: SelectQueryBuilder<Attendee>, order: AttendeeOrder): void {
  const { direction } = order;
  switch (order.by) {
    case 'date':
      builder.orderBy('attendee.createdAt', direction).addOrderBy('attendee.id', direction);
      break;
    case 'title':
      builder.orderBy('attendee.holderName', direction).addOrderBy('attendee.id', direction);
      break;
    case 'include':
      if (order.include?.length) {
        const positions = order.include.map((_id, index) => `WHEN :includePosition${index} THEN ${index}`).join(' ');
        builder
          .addSelect(`CASE attendee.id ${positions} ELSE ${order.include.length} END`, 'include_position')
          .setParameters(Object.fromEntries(order.include.map((id, index) => [`includePosition${index}`, id])))
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
