import { Injectable } from '@nestjs/common';
import { In, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { CountCache } from '../catalogue/caching/count-cache';
import { insertInSlices, inSlices } from '../common/database/bulk-insert';
import { hydrate, KeptSelects } from '../common/database/kept-statements';
import { findMissingIds } from '../common/list-filters/ids-must-exist';
import { Event } from '../events/event.entity';
import { OrderItem } from '../orders/order.entity';
import { SqlDialect } from '../database/sql-dialect';
import type { PoolCounts } from './capacity';
import { applyTicketFilters, applyTicketOrder, TicketListFilters, ticketListScopes } from './ticket-list';
import { Ticket } from './ticket.entity';
import { TicketCapacityCounter } from './ticket-capacity-counter.entity';
import { TicketPool } from './ticket-pool.entity';
import { TransactionHost } from '../common/database/transaction-host';
import type { CouponScope } from '../access/coupon-access';
import { applyHiddenTicketRule, applyTicketVisibility } from '../access/ticket-access';
import { applyTicketAttendeeVisibility } from '../access/attendee-access';

/** What a ticket list matches: the caller (visibility), the coupon that reveals hidden tickets, and the filters. */
export interface TicketMatch {
  user: AuthenticatedUser | undefined;
  reveal: CouponScope | null;
  filters: TicketListFilters;
}

/** What a ticket's response needs of its event (the mapper, and who manages it and sees its attendees). */
export type TicketEventFacts = Pick<Event, 'id' | 'authorId' | 'status' | 'showAttendeeList' | 'timezone'>;

const TICKET_EVENT_FACTS = ['id', 'authorId', 'status', 'showAttendeeList', 'timezone'] as const satisfies ReadonlyArray<
  keyof TicketEventFacts
>;

/** A page of a ticket list with its tickets' events and their pools (events without one are absent). */
export interface TicketPageRows {
  tickets: Ticket[];
  events: TicketEventFacts[];
  pools: Map<number, PoolCounts>;
}

export type NewCounter = Pick<TicketCapacityCounter, 'ticketId' | 'capacityMode' | 'capacity' | 'sold' | 'pending'>;

/** A ticket row's pool columns (the event's shared capacity; null without one), as the driver returns them. */
interface RawPoolCounts {
  pool_capacity: number | string | null;
  pool_sold: number | string;
  pool_pending: number | string;
}

/** Every statement of the tickets module but the capacity counts' (CapacityRepository). */
@Injectable()
export class TicketsRepository {
  /** The SQL of the hot reads (a ticketed event's single GET reads its offers on every request). */
  private readonly selects = new KeptSelects();

  constructor(
    private readonly tx: TransactionHost,
    private readonly counts: CountCache,
  ) {}

  // ---------------------------------------------------------------- tickets and events

  ticket(id: number): Promise<Ticket | null> {
    const manager = this.tx.manager;
    return manager.findOne(Ticket, { where: { id } });
  }

  ticketOrFail(id: number): Promise<Ticket> {
    const manager = this.tx.manager;
    return manager.findOneOrFail(Ticket, { where: { id } });
  }

  /** The ticket, locked against concurrent writes until the transaction ends (MySQL; SQLite runs one writer). */
  lockTicket(id: number): Promise<Ticket | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(Ticket, 't').where('t.id = :id', { id });
    SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  /** Tickets by id, in one query. */
  tickets(ids: number[]): Promise<Ticket[]> {
    const manager = this.tx.manager;
    return manager.find(Ticket, { where: { id: In(ids) } });
  }

  event(id: number): Promise<Event | null> {
    const manager = this.tx.manager;
    return manager.findOne(Event, { where: { id } });
  }

  eventOrFail(id: number): Promise<Event> {
    const manager = this.tx.manager;
    return manager.findOneOrFail(Event, { where: { id } });
  }

  /** Events by id, in one query (none for no id). */
  async events(ids: number[]): Promise<Event[]> {
    const manager = this.tx.manager;
    if (ids.length === 0) return [];
    return manager.find(Event, { where: { id: In(ids) } });
  }

  /** Events by id, in as many queries as the `IN (...)` lists need. */
  async eventsById(ids: number[]): Promise<Map<number, Event>> {
    const manager = this.tx.manager;
    const events = new Map<number, Event>();
    for (const slice of inSlices(ids)) {
      for (const event of await manager.find(Event, { where: { id: In(slice) } })) events.set(event.id, event);
    }
    return events;
  }

  /** The ids of `ids` that name no event, each once, in the order given. */
  missingEventIds(ids: number[]): Promise<number[]> {
    const manager = this.tx.manager;
    return findMissingIds(manager, Event, ids);
  }

  // ---------------------------------------------------------------- lists

  /** How many tickets the list matches, from the count cache when nothing it reads changed since. */
  countMatching(match: TicketMatch): Promise<number> {
    return this.counts.count(ticketListScopes(match.filters), this.matching(match));
  }

  /**
   * A page of the tickets the list matches, in its order, with what their responses need of their
   * events and pools, in one statement (the list already joins the event). The statement also
   * reads the generations of the scopes the list's total depends on (CountCache.generationSelect):
   * read before the total, a page spares `countMatching` its own read of them.
   */
  async pageMatching(match: TicketMatch, offset: number, limit: number): Promise<TicketPageRows> {
    const manager = this.tx.manager;
    const builder = this.matching(match);
    builder
      .leftJoin(TicketPool, 'page_pool', 'page_pool.eventId = t.eventId')
      .addSelect(TICKET_EVENT_FACTS.map((column) => `e.${column}`))
      .addSelect(['page_pool.eventId', 'page_pool.capacity', 'page_pool.sold', 'page_pool.pending']);
    const scopes = ticketListScopes(match.filters);
    for (const scope of scopes) builder.addSelect(CountCache.generationSelect(scope), `generation_${scope}`);
    applyTicketOrder(builder, match.filters);
    const { entities, raw } = await builder.offset(offset).limit(limit).getRawAndEntities<ObjectLiteral>();
    // An empty page carries no generation: the total then reads its own.
    if (raw.length > 0)
      for (const scope of scopes) this.counts.knowGeneration(scope, raw[0][`generation_${scope}`] as number | string | null);
    const events = new Map<number, TicketEventFacts>();
    const pools = new Map<number, PoolCounts>();
    for (const row of raw) {
      const event = hydrate(manager, Event, 'e', row);
      events.set(event.id, event);
      if (row.page_pool_event_id === null || row.page_pool_event_id === undefined) continue;
      const pool = hydrate(manager, TicketPool, 'page_pool', row);
      pools.set(pool.eventId, { capacity: pool.capacity, sold: pool.sold, pending: pool.pending });
    }
    return { tickets: entities, events: [...events.values()], pools };
  }

  private matching(match: TicketMatch): SelectQueryBuilder<Ticket> {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(Ticket, 't').innerJoin(Event, 'e', 'e.id = t.eventId');
    applyTicketVisibility(builder, match.user);
    applyHiddenTicketRule(builder, match.user, match.reveal);
    applyTicketFilters(builder, match.filters);
    return builder;
  }

  /** The attendees of `managedIds` tickets, and the public ones of `publicListIds` tickets, by id. */
  async visibleAttendees(lists: { managedIds: number[]; publicListIds: number[] }): Promise<Attendee[]> {
    const manager = this.tx.manager;
    if (lists.managedIds.length === 0 && lists.publicListIds.length === 0) return [];
    const query = manager.createQueryBuilder(Attendee, 'a');
    applyTicketAttendeeVisibility(query, lists);
    return query.orderBy('a.id', 'ASC').getMany();
  }

  // ---------------------------------------------------------------- facts for the events namespace

  /** The providers of each event's tickets (events without tickets are absent), paid ones first. */
  async providersByEvent(eventIds: number[]): Promise<Map<number, string[]>> {
    const manager = this.tx.manager;
    if (eventIds.length === 0) return new Map();
    const rows = await manager
      .createQueryBuilder(Ticket, 't')
      .select('t.eventId', 'eventId')
      .addSelect('t.provider', 'provider')
      .distinct(true)
      .where('t.eventId IN (:...eventIds)', { eventIds: [...new Set(eventIds)] })
      .orderBy('t.provider', 'DESC')
      .getRawMany<{ eventId: number | string; provider: string }>();
    const providers = new Map<number, string[]>();
    for (const row of rows) {
      const eventId = Number(row.eventId);
      providers.set(eventId, [...(providers.get(eventId) ?? []), row.provider]);
    }
    return providers;
  }

  eventHasAttendees(eventId: number): Promise<boolean> {
    const manager = this.tx.manager;
    return manager.exists(Attendee, { where: { eventId } });
  }

  /**
   * The event's published tickets not hidden without a coupon, in menu order, with the event's
   * pool (undefined when none): one statement, the pool joined to each ticket, since a single GET
   * of a ticketed event pays it on every request.
   */
  async offeredTickets(eventId: number): Promise<{ tickets: Ticket[]; pool: PoolCounts | undefined }> {
    const manager = this.tx.manager;
    const rows = await this.selects.rows<ObjectLiteral & RawPoolCounts>(
      manager,
      'offeredTickets',
      () =>
        manager
          .createQueryBuilder(Ticket, 'ticket')
          .leftJoin(TicketPool, 'pool', 'pool.eventId = ticket.eventId')
          .addSelect('pool.capacity', 'pool_capacity')
          .addSelect('pool.sold', 'pool_sold')
          .addSelect('pool.pending', 'pool_pending')
          .where('ticket.eventId = :eventId')
          .andWhere('ticket.status = :status')
          .andWhere('ticket.hiddenWithoutCoupon = :notHidden')
          .orderBy('ticket.menuOrder', 'ASC')
          .addOrderBy('ticket.id', 'ASC'),
      { eventId, status: 'publish', notHidden: false },
    );
    const row = rows[0];
    const pool: PoolCounts | undefined =
      row && row.pool_capacity !== null
        ? { capacity: Number(row.pool_capacity), sold: Number(row.pool_sold), pending: Number(row.pool_pending) }
        : undefined;
    return { tickets: rows.map((ticketRow) => hydrate(manager, Ticket, 'ticket', ticketRow)), pool };
  }

  // ---------------------------------------------------------------- writes

  /** Inserts a ticket; its id. */
  async insertTicket(row: Partial<Ticket>): Promise<number> {
    const manager = this.tx.manager;
    const result = await manager.insert(Ticket, row);
    return Number(result.identifiers[0].id);
  }

  /** Inserts tickets with as few multi-row INSERTs as the statement limits allow (insertInSlices). */
  async insertTickets(rows: Partial<Ticket>[]): Promise<void> {
    const manager = this.tx.manager;
    await insertInSlices(manager, Ticket, rows);
  }

  /** Only the columns in `changes`. */
  async updateTicket(id: number, changes: Partial<Ticket>): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().update(Ticket).set(changes).where({ id }).execute();
  }

  async deleteTicket(id: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.delete(Ticket, { id });
  }

  /** Whether the ticket has attendees or order lines. */
  async ticketInUse(ticketId: number): Promise<boolean> {
    const manager = this.tx.manager;
    const [hasAttendees, hasOrders] = await Promise.all([
      manager.exists(Attendee, { where: { ticketId } }),
      manager.exists(OrderItem, { where: { ticketId } }),
    ]);
    return hasAttendees || hasOrders;
  }

  /** Of these events' tickets, those without a capacity counter, with the columns a counter copies. */
  async ticketsWithoutCounter(eventIds: number[]): Promise<Ticket[]> {
    const manager = this.tx.manager;
    const tickets: Ticket[] = [];
    for (const slice of inSlices(eventIds)) {
      const fresh = await manager
        .createQueryBuilder(Ticket, 'ticket')
        .select(['ticket.id', 'ticket.eventId', 'ticket.capacityMode', 'ticket.capacity'])
        .leftJoin(TicketCapacityCounter, 'counter', 'counter.ticketId = ticket.id')
        .where('ticket.eventId IN (:...eventIds)', { eventIds: slice })
        .andWhere('counter.ticketId IS NULL')
        .getMany();
      tickets.push(...fresh);
    }
    return tickets;
  }

  /** Inserts capacity counters with as few multi-row INSERTs as the statement limits allow. */
  async insertCounters(counters: NewCounter[]): Promise<void> {
    const manager = this.tx.manager;
    await insertInSlices(manager, TicketCapacityCounter, counters);
  }

  // ---------------------------------------------------------------- pools

  hasPool(eventId: number): Promise<boolean> {
    const manager = this.tx.manager;
    return manager.exists(TicketPool, { where: { eventId } });
  }

  /** Of these events, those with a pool. */
  async pooledEventIds(eventIds: number[]): Promise<Set<number>> {
    const manager = this.tx.manager;
    const pooled = new Set<number>();
    for (const slice of inSlices(eventIds)) {
      for (const pool of await manager.find(TicketPool, { select: { eventId: true }, where: { eventId: In(slice) } }))
        pooled.add(pool.eventId);
    }
    return pooled;
  }

  /** Creates the event's pool with this size, or resizes it; its counts are left alone. */
  async setPoolCapacity(eventId: number, capacity: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().insert().into(TicketPool).values({ eventId, capacity, sold: 0, pending: 0 }).orIgnore().execute();
    await manager.createQueryBuilder().update(TicketPool).set({ capacity }).where({ eventId }).execute();
  }

  /** setPoolCapacity for many events, in as few statements as the statement limits allow. */
  async setPoolCapacities(eventIds: number[], capacity: number): Promise<void> {
    const manager = this.tx.manager;
    await insertInSlices(
      manager,
      TicketPool,
      eventIds.map((eventId) => ({ eventId, capacity, sold: 0, pending: 0 })),
      { orIgnore: true },
    );
    for (const slice of inSlices(eventIds))
      await manager
        .createQueryBuilder()
        .update(TicketPool)
        .set({ capacity })
        .where({ eventId: In(slice) })
        .execute();
  }

  /** Adds a ticket's units to its event's pool counts (`join`), or takes them out (`leave`, never below 0). */
  async movePoolCounts(eventId: number, units: { sold: number; pending: number }, direction: 'join' | 'leave'): Promise<void> {
    const manager = this.tx.manager;
    const parameters = { soldUnits: units.sold, pendingUnits: units.pending };
    const set =
      direction === 'join'
        ? { sold: () => 'sold + :soldUnits', pending: () => 'pending + :pendingUnits' }
        : {
            sold: () => 'CASE WHEN sold >= :soldUnits THEN sold - :soldUnits ELSE 0 END',
            pending: () => 'CASE WHEN pending >= :pendingUnits THEN pending - :pendingUnits ELSE 0 END',
          };
    await manager.createQueryBuilder().update(TicketPool).set(set).where({ eventId }).setParameters(parameters).execute();
  }
}
