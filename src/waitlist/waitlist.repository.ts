import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { CartItem } from '../cart/cart.entity';
import { Event } from '../events/event.entity';
import type { AuthenticatedUser } from '../auth/roles';
import type { CapacityState } from '../tickets/capacity';
import { Ticket } from '../tickets/ticket.entity';
import { TicketCapacityCounter } from '../tickets/ticket-capacity-counter.entity';
import { TicketPool } from '../tickets/ticket-pool.entity';
import { WaitlistEntry, WaitlistStatus } from './waitlist-entry.entity';
import type { QueuedEntry } from './waitlist-rules';
import { SqlDialect } from '../database/sql-dialect';
import { TransactionHost } from '../common/database/transaction-host';
import { managedEventCondition } from '../access/event-access';

/** Entries waiting in line come out in this order: priority first, then who joined first. */
const QUEUE_ORDER = { priority: 'DESC', id: 'ASC' } as const;

export interface EntryFilter {
  ticketId?: number;
  statuses?: WaitlistStatus[];
  /** Only events the caller manages. */
  manager: AuthenticatedUser;
}

/** The waitlist's SQL: entries, the counter rows an offer locks, the cart lines that carry offers. */
@Injectable()
export class WaitlistRepository {
  constructor(private readonly tx: TransactionHost) {}

  async ticketWithEvent(ticketId: number): Promise<{ ticket: Ticket; event: Event } | null> {
    const manager = this.tx.manager;
    const ticket = await manager.findOne(Ticket, { where: { id: ticketId } });
    if (!ticket) return null;
    const event = await manager.findOne(Event, { where: { id: ticket.eventId } });
    return event ? { ticket, event } : null;
  }

  async tickets(ids: number[]): Promise<Map<number, Ticket>> {
    const manager = this.tx.manager;
    if (ids.length === 0) return new Map();
    const tickets = await manager.find(Ticket, { where: { id: In([...new Set(ids)]) } });
    return new Map(tickets.map((ticket) => [ticket.id, ticket]));
  }

  /** Of `ticketIds`, the tickets whose units go to their waitlist by themselves and that have someone waiting. */
  async autoOfferTickets(ticketIds: number[]): Promise<Ticket[]> {
    const manager = this.tx.manager;
    if (ticketIds.length === 0) return [];
    return manager
      .createQueryBuilder(Ticket, 'ticket')
      .where('ticket.id IN (:...ticketIds)', { ticketIds: [...new Set(ticketIds)] })
      .andWhere('ticket.waitlist = :on AND ticket.waitlistAutoOffer = :on', { on: true })
      .andWhere('EXISTS (SELECT 1 FROM waitlist_entries queued WHERE queued.ticket_id = ticket.id AND queued.status = :waiting)', {
        waiting: 'waiting',
      })
      .orderBy('ticket.id', 'ASC')
      .getMany();
  }

  /** Ids of tickets with automatic offers and someone waiting, for the sweep. */
  async autoOfferTicketIds(limit: number): Promise<number[]> {
    const manager = this.tx.manager;
    const rows = await manager
      .createQueryBuilder(WaitlistEntry, 'entry')
      .innerJoin(Ticket, 'ticket', 'ticket.id = entry.ticketId')
      .select('DISTINCT entry.ticketId', 'ticketId')
      .where('entry.status = :waiting', { waiting: 'waiting' })
      .andWhere('ticket.waitlist = :on AND ticket.waitlistAutoOffer = :on', { on: true })
      .orderBy('entry.ticketId', 'ASC')
      .limit(limit)
      .getRawMany<{ ticketId: number | string }>();
    return rows.map((row) => Number(row.ticketId));
  }

  /**
   * The ticket's capacity as its counter row (and its event's pool) say, both locked until the
   * transaction ends on MariaDB, in the order every take locks them (counter, then pool), so that
   * what is computed free stays free until this transaction has taken it.
   */
  async lockCapacityState(ticket: Ticket): Promise<CapacityState | null> {
    const manager = this.tx.manager;
    const counterQuery = manager.createQueryBuilder(TicketCapacityCounter, 'counter').where('counter.ticketId = :id', { id: ticket.id });
    SqlDialect.of(manager).forUpdate(counterQuery);
    const counter = await counterQuery.getOne();
    if (!counter || counter.capacityMode !== ticket.capacityMode) return null;
    let pool: CapacityState['pool'] = null;
    if (counter.capacityMode === 'capped' || counter.capacityMode === 'global') {
      const poolQuery = manager.createQueryBuilder(TicketPool, 'pool').where('pool.eventId = :eventId', { eventId: ticket.eventId });
      SqlDialect.of(manager).forUpdate(poolQuery);
      const row = await poolQuery.getOne();
      pool = row ? { capacity: row.capacity, sold: row.sold, pending: row.pending } : null;
    }
    return { mode: counter.capacityMode, capacity: counter.capacity, sold: counter.sold, pending: counter.pending, pool };
  }

  /** The first `limit` waiting entries of the ticket, in line order. */
  async waitingQueue(ticketId: number, limit: number): Promise<QueuedEntry[]> {
    const manager = this.tx.manager;
    const rows = await manager.find(WaitlistEntry, {
      select: { id: true, quantity: true },
      where: { ticketId, status: 'waiting' },
      order: QUEUE_ORDER,
      take: limit,
    });
    return rows.map((row) => ({ id: row.id, quantity: row.quantity }));
  }

  /** waiting → offered, only if still waiting (another instance may have offered it meanwhile). */
  async markOffered(entryId: number, offer: { token: string; quantity: number; now: Date; expiresAt: Date }): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(WaitlistEntry)
      .set({
        status: 'offered',
        offerToken: offer.token,
        offerQuantity: offer.quantity,
        offeredAt: offer.now,
        offerExpiresAt: offer.expiresAt,
        updatedAt: offer.now,
      })
      .where('id = :entryId AND status = :waiting', { entryId, waiting: 'waiting' })
      .execute();
    return Boolean(result.affected);
  }

  /**
   * Moves an entry out of `from` into a final status (its address may then join again), only if it
   * is still in `from` (and, for an expiry, its offer has lapsed by `lapsedBy`). True for the one
   * caller that moved it: only that caller converts or releases its held units.
   */
  async finish(
    entryId: number,
    from: WaitlistStatus,
    to: WaitlistStatus,
    now: Date,
    options: { lapsedBy?: Date; orderId?: number } = {},
  ): Promise<boolean> {
    const manager = this.tx.manager;
    const update = manager
      .createQueryBuilder()
      .update(WaitlistEntry)
      .set({ status: to, liveEmail: null, updatedAt: now, ...(options.orderId === undefined ? {} : { orderId: options.orderId }) })
      .where('id = :entryId AND status = :from', { entryId, from });
    if (options.lapsedBy) update.andWhere('offer_expires_at <= :lapsedBy', { lapsedBy: options.lapsedBy });
    const result = await update.execute();
    return Boolean(result.affected);
  }

  async findById(id: number): Promise<WaitlistEntry | null> {
    const manager = this.tx.manager;
    return manager.findOne(WaitlistEntry, { where: { id } });
  }

  /** The entry of a token, locked until the transaction ends (MariaDB). */
  async lockByToken(column: 'cancelToken' | 'offerToken', token: string): Promise<WaitlistEntry | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(WaitlistEntry, 'entry').where(`entry.${column} = :token`, { token });
    SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  async findByOfferTokens(tokens: string[]): Promise<WaitlistEntry[]> {
    const manager = this.tx.manager;
    if (tokens.length === 0) return [];
    return manager.find(WaitlistEntry, { where: { offerToken: In([...new Set(tokens)]) } });
  }

  /** Whether the address waits or holds an offer for the ticket. */
  async isLive(ticketId: number, liveEmail: string): Promise<boolean> {
    const manager = this.tx.manager;
    return manager.exists(WaitlistEntry, { where: { ticketId, liveEmail } });
  }

  async insert(entry: Omit<WaitlistEntry, 'id'>): Promise<WaitlistEntry> {
    const manager = this.tx.manager;
    const saved = await manager.getRepository(WaitlistEntry).save(manager.create(WaitlistEntry, entry));
    return saved;
  }

  /** Entries whose offer lapsed before `now`, oldest first. */
  async dueOffers(now: Date, limit: number): Promise<number[]> {
    const manager = this.tx.manager;
    const rows = await manager
      .createQueryBuilder(WaitlistEntry, 'entry')
      .select('entry.id', 'id')
      .where('entry.status = :offered AND entry.offerExpiresAt <= :now', { offered: 'offered', now })
      .orderBy('entry.offerExpiresAt', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  /** A page of entries the caller manages, in line order per ticket, and how many match. */
  async page(filter: EntryFilter, offset: number, limit: number): Promise<[WaitlistEntry[], number]> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(WaitlistEntry, 'entry').innerJoin(Event, 'event', 'event.id = entry.eventId');
    query.where(managedEventCondition(filter.manager, query));
    if (filter.ticketId !== undefined) query.andWhere('entry.ticketId = :ticketId', { ticketId: filter.ticketId });
    if (filter.statuses?.length) query.andWhere('entry.status IN (:...statuses)', { statuses: filter.statuses });
    return query
      .orderBy('entry.ticketId', 'ASC')
      .addOrderBy('entry.priority', 'DESC')
      .addOrderBy('entry.id', 'ASC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
  }

  /** Waiting entries of these tickets in line order, for positions. */
  async waitingIds(ticketIds: number[]): Promise<Array<{ id: number; ticketId: number }>> {
    const manager = this.tx.manager;
    if (ticketIds.length === 0) return [];
    const rows = await manager.find(WaitlistEntry, {
      select: { id: true, ticketId: true },
      where: { ticketId: In([...new Set(ticketIds)]), status: 'waiting' },
      order: { ticketId: 'ASC', ...QUEUE_ORDER },
    });
    return rows.map((row) => ({ id: row.id, ticketId: row.ticketId }));
  }

  async setPriority(id: number, priority: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().update(WaitlistEntry).set({ priority, updatedAt: now }).where('id = :id', { id }).execute();
  }

  /** Entries and units per status of one ticket. */
  async stats(ticketId: number): Promise<Array<{ status: WaitlistStatus; entries: number; units: number }>> {
    const manager = this.tx.manager;
    const rows = await manager
      .createQueryBuilder(WaitlistEntry, 'entry')
      .select('entry.status', 'status')
      .addSelect('COUNT(*)', 'entries')
      .addSelect('SUM(CASE WHEN entry.status = :offered THEN entry.offerQuantity ELSE entry.quantity END)', 'units')
      .where('entry.ticketId = :ticketId', { ticketId, offered: 'offered' })
      .groupBy('entry.status')
      .getRawMany<{ status: WaitlistStatus; entries: number | string; units: number | string | null }>();
    return rows.map((row) => ({ status: row.status, entries: Number(row.entries), units: Number(row.units ?? 0) }));
  }

  // ---------------------------------------------------------------- cart lines

  /** The offer tokens the cart's lines of these tickets carry. */
  async cartLineOffers(cartId: number, ticketIds: number[]): Promise<Map<number, string>> {
    const manager = this.tx.manager;
    if (ticketIds.length === 0) return new Map();
    const rows = await manager.find(CartItem, { where: { cartId, ticketId: In([...new Set(ticketIds)]) } });
    return new Map(rows.filter((row) => row.waitlistOffer).map((row) => [row.ticketId, row.waitlistOffer as string]));
  }

  /** Puts the offer on the cart's line of its ticket (null clears every line's). */
  async attachOffer(cartId: number, offer: { token: string; ticketId: number } | null): Promise<void> {
    const manager = this.tx.manager;
    const clear = manager.createQueryBuilder().update(CartItem).set({ waitlistOffer: null }).where('cart_id = :cartId', { cartId });
    if (offer) clear.andWhere('waitlist_offer = :token', { token: offer.token });
    await clear.execute();
    if (!offer) return;
    await manager
      .createQueryBuilder()
      .update(CartItem)
      .set({ waitlistOffer: offer.token })
      .where('cart_id = :cartId AND ticket_id = :ticketId', { cartId, ticketId: offer.ticketId })
      .execute();
  }
}
