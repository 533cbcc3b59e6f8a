import type { CountScope } from '../catalogue/caching/count-cache';
import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { escapeLike } from '../posts/post-query';
import type { PostStatus } from '../posts/post-status';
import type { TicketOrderBy } from './dto/list-tickets.query';
import type { TicketProvider } from './ticket.entity';
import { TicketCapacityCounter } from './ticket-capacity-counter.entity';
import { TicketPool } from './ticket-pool.entity';

/** An inclusive range on a count; either end may be open. */
export interface CountRange {
  min?: number;
  max?: number;
}

/** The filters of GET /tickets once read and checked; absent members filter nothing. */
export interface TicketListFilters {
  search?: string;
  include?: number[];
  exclude?: number[];
  includePost?: number[];
  excludePost?: number[];
  /** Known providers asked for; an empty list matches nothing. */
  providers?: TicketProvider[];
  isAvailable?: boolean;
  createdFrom?: Date;
  /** Created on or before this instant. */
  createdUntil?: Date;
  saleStartsFrom?: Date;
  /** Sale ends on or before this instant. */
  saleEndsUntil?: Date;
  /** Event statuses; null means any but trash. */
  eventStatuses: PostStatus[] | null;
  /** Ticket statuses; null means any but trash. */
  ticketStatuses: PostStatus[] | null;
  /** Whether nothing can match (an unknown currency). */
  matchNothing: boolean;
  /** Whether the ticket asks attendee questions (`attendee_information_available`). */
  attendeeInformation?: boolean;
  attendees?: CountRange;
  checkedIn?: CountRange;
  capacity?: CountRange;
  order: 'ASC' | 'DESC';
  orderBy: TicketOrderBy;
}

/**
 * SQL for the capacity arithmetic of src/tickets/capacity.ts, over `t`, its left-joined counter `c`
 * and pool `p`: the most units a ticket can sell (NULL when unlimited) and the units left.
 */
const POOL_CAPACITY = 'COALESCE(p.capacity, 0)';
const POOL_LEFT = 'COALESCE(p.capacity - p.sold - p.pending, 0)';
const OWN_LEFT = 't.capacity - COALESCE(c.sold, 0) - COALESCE(c.pending, 0)';
const CAP_LEFT = `(CASE WHEN t.capacity IS NULL THEN ${POOL_LEFT} ELSE ${OWN_LEFT} END)`;
const EFFECTIVE_CAPACITY =
  `(CASE WHEN t.capacityMode = :modeOwn THEN t.capacity ` +
  `WHEN t.capacityMode = :modeGlobal THEN ${POOL_CAPACITY} ` +
  `WHEN t.capacityMode = :modeCapped THEN (CASE WHEN t.capacity IS NULL OR t.capacity > ${POOL_CAPACITY} THEN ${POOL_CAPACITY} ELSE t.capacity END) ` +
  `ELSE NULL END)`;
const UNITS_LEFT =
  `(CASE WHEN t.capacityMode = :modeOwn THEN ${OWN_LEFT} ` +
  `WHEN t.capacityMode = :modeGlobal THEN ${POOL_LEFT} ` +
  `ELSE (CASE WHEN ${CAP_LEFT} < ${POOL_LEFT} THEN ${CAP_LEFT} ELSE ${POOL_LEFT} END) END)`;

function joinPool<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, joined: { pool: boolean }): void {
  if (joined.pool) return;
  builder.leftJoin(TicketPool, 'p', 'p.eventId = t.eventId');
  builder.leftJoin(TicketCapacityCounter, 'c', 'c.ticketId = t.id');
  builder.setParameters({ modeOwn: 'own', modeCapped: 'capped', modeGlobal: 'global', modeUnlimited: 'unlimited' });
  joined.pool = true;
}

function applyRange<T extends ObjectLiteral>(
  builder: SelectQueryBuilder<T>,
  expression: string,
  range: CountRange | undefined,
  name: string,
): void {
  if (!range) return;
  if (range.min !== undefined) builder.andWhere(`${expression} >= :${name}Min`, { [`${name}Min`]: range.min });
  if (range.max !== undefined) builder.andWhere(`${expression} <= :${name}Max`, { [`${name}Max`]: range.max });
}

/** Applies every filter to a query over tickets `t` joined with their events `e` (the pool `p` is joined when needed). */
export function applyTicketFilters<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, filters: TicketListFilters): void {
  const joined = { pool: false };
  if (filters.matchNothing) builder.andWhere('1 = 0');
  if (filters.attendeeInformation !== undefined)
    builder.andWhere(`t.attendeeInformationFields IS ${filters.attendeeInformation ? 'NOT NULL' : 'NULL'}`);
  if (filters.search) {
    builder.andWhere(
      new Brackets((any) => any.where("LOWER(t.name) LIKE :search ESCAPE '!'").orWhere("LOWER(t.description) LIKE :search ESCAPE '!'")),
      { search: `%${escapeLike(filters.search.toLowerCase())}%` },
    );
  }
  if (filters.include) builder.andWhere('t.id IN (:...include)', { include: filters.include });
  if (filters.exclude) builder.andWhere('t.id NOT IN (:...exclude)', { exclude: filters.exclude });
  if (filters.includePost) builder.andWhere('t.eventId IN (:...includePost)', { includePost: filters.includePost });
  if (filters.excludePost) builder.andWhere('t.eventId NOT IN (:...excludePost)', { excludePost: filters.excludePost });
  if (filters.providers) {
    if (filters.providers.length === 0) builder.andWhere('1 = 0');
    else builder.andWhere('t.provider IN (:...providers)', { providers: filters.providers });
  }
  if (filters.createdFrom) builder.andWhere('t.createdAt >= :createdFrom', { createdFrom: filters.createdFrom });
  if (filters.createdUntil) builder.andWhere('t.createdAt <= :createdUntil', { createdUntil: filters.createdUntil });
  if (filters.saleStartsFrom)
    builder.andWhere('(t.saleStartUtc IS NULL OR t.saleStartUtc >= :saleStartsFrom)', { saleStartsFrom: filters.saleStartsFrom });
  if (filters.saleEndsUntil)
    builder.andWhere('(t.saleEndUtc IS NULL OR t.saleEndUtc <= :saleEndsUntil)', { saleEndsUntil: filters.saleEndsUntil });

  builder.setParameter('trashStatus', 'trash');
  if (filters.eventStatuses) builder.andWhere('e.status IN (:...eventStatuses)', { eventStatuses: filters.eventStatuses });
  else builder.andWhere('e.status <> :trashStatus');
  if (filters.ticketStatuses) builder.andWhere('t.status IN (:...ticketStatuses)', { ticketStatuses: filters.ticketStatuses });
  else builder.andWhere('t.status <> :trashStatus');

  if (filters.isAvailable !== undefined) {
    joinPool(builder, joined);
    if (filters.isAvailable) builder.andWhere(`(t.capacityMode = :modeUnlimited OR ${UNITS_LEFT} > 0)`);
    else builder.andWhere(`(t.capacityMode <> :modeUnlimited AND ${UNITS_LEFT} <= 0)`);
  }
  if (filters.attendees || filters.checkedIn) {
    const countAttendees = (checkedInOnly: boolean) => {
      const count = builder.subQuery().select('COUNT(1)').from(Attendee, 'ac').where('ac.ticketId = t.id');
      if (checkedInOnly) count.andWhere('ac.checkedIn = :checkedInFlag');
      return count.getQuery();
    };
    builder.setParameter('checkedInFlag', true);
    applyRange(builder, countAttendees(false), filters.attendees, 'attendees');
    applyRange(builder, countAttendees(true), filters.checkedIn, 'checkedIn');
  }
  if (filters.capacity) {
    joinPool(builder, joined);
    const { min, max } = filters.capacity;
    // One bound: at least `min` (unlimited tickets have more than any number) or at most `max`
    // (unlimited ones never are); both: a range, which unlimited tickets are outside of.
    if (min !== undefined && max === undefined) {
      builder.andWhere(`(t.capacityMode = :modeUnlimited OR ${EFFECTIVE_CAPACITY} >= :capacityMin)`, { capacityMin: min });
    } else {
      applyRange(builder, EFFECTIVE_CAPACITY, filters.capacity, 'capacity');
      builder.andWhere('t.capacityMode <> :modeUnlimited');
    }
  }
}

/**
 * What a list's total reads: the tickets and their events, plus what is left of each (counters and
 * pools) when it filters on availability or capacity, plus the attendees when it filters on their
 * numbers.
 */
export function ticketListScopes(filters: TicketListFilters): CountScope[] {
  const scopes: CountScope[] = ['tickets'];
  if (filters.isAvailable !== undefined || filters.capacity) scopes.push('ticket_stock');
  if (filters.attendees || filters.checkedIn) scopes.push('attendees');
  return scopes;
}

/** The sort of the list, with the id breaking ties the same way. */
export function applyTicketOrder<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, filters: TicketListFilters): void {
  const direction = filters.order;
  if (filters.orderBy === 'include' && filters.include?.length) {
    const positions = filters.include.map((_id, index) => `WHEN :includeOrder${index} THEN ${index}`).join(' ');
    builder.setParameters(Object.fromEntries(filters.include.map((id, index) => [`includeOrder${index}`, id])));
    builder.orderBy(`CASE t.id ${positions} END`, direction);
  } else if (filters.orderBy === 'title' || filters.orderBy === 'slug') {
    builder.orderBy('t.name', direction);
  } else {
    builder.orderBy('t.id', direction);
    return;
  }
  builder.addOrderBy('t.id', direction);
}
