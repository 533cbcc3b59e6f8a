import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { CapacityState, PoolCounts } from './capacity';
import { Ticket } from './ticket.entity';
import { TicketPool } from './ticket-pool.entity';

/** Which count a quantity moves in: `sold` (completed orders, RSVP going) or `pending` (held by unpaid orders). */
export type CapacityCount = 'sold' | 'pending';

/**
 * Takes and gives back capacity with conditional UPDATEs (`... WHERE capacity - sold - pending >= n`),
 * never read-then-write, so that concurrent checkouts cannot sell more than there is. Run inside
 * the caller's transaction: when a take fails half-way (the ticket had room, the pool did not), the
 * caller throws and the transaction undoes the first half.
 */
@Injectable()
export class CapacityService {
  /** Takes `quantity` units for `ticket`; false when there is not enough left. */
  async take(manager: EntityManager, ticket: Pick<Ticket, 'id' | 'eventId' | 'capacityMode'>, quantity: number, count: CapacityCount): Promise<boolean> {
    if (quantity <= 0) return true;
    const ticketUpdate = manager
      .createQueryBuilder()
      .update(Ticket)
      .set({ [count]: () => `${count} + :quantity` })
      .where('id = :ticketId', { ticketId: ticket.id, quantity })
      // The mode read by the caller must still hold: a ticket moved into or out of the pool meanwhile
      // would otherwise be counted on the wrong side.
      .andWhere('capacity_mode = :capacityMode', { capacityMode: ticket.capacityMode });
    if (ticket.capacityMode === 'own') ticketUpdate.andWhere('capacity - sold - pending >= :quantity');
    if (ticket.capacityMode === 'capped') ticketUpdate.andWhere('(capacity IS NULL OR capacity - sold - pending >= :quantity)');
    const ticketResult = await ticketUpdate.execute();
    if (!ticketResult.affected) return false;
    if (ticket.capacityMode !== 'capped' && ticket.capacityMode !== 'global') return true;
    const poolResult = await manager
      .createQueryBuilder()
      .update(TicketPool)
      .set({ [count]: () => `${count} + :quantity` })
      .where('event_id = :eventId AND capacity - sold - pending >= :quantity', { eventId: ticket.eventId, quantity })
      .execute();
    return !!poolResult.affected;
  }

  /** Gives back `quantity` units (cancelled, refunded or expired orders); counts never go below 0. */
  async release(manager: EntityManager, ticket: Pick<Ticket, 'id' | 'eventId' | 'capacityMode'>, quantity: number, count: CapacityCount): Promise<void> {
    if (quantity <= 0) return;
    const decrement = () => `CASE WHEN ${count} >= :quantity THEN ${count} - :quantity ELSE 0 END`;
    await manager.createQueryBuilder().update(Ticket).set({ [count]: decrement }).where('id = :ticketId', { ticketId: ticket.id, quantity }).execute();
    if (ticket.capacityMode === 'capped' || ticket.capacityMode === 'global') {
      await manager.createQueryBuilder().update(TicketPool).set({ [count]: decrement }).where('event_id = :eventId', { eventId: ticket.eventId, quantity }).execute();
    }
  }

  /** Turns units held by a pending order into sold ones (the order was paid). */
  async confirm(manager: EntityManager, ticket: Pick<Ticket, 'id' | 'eventId' | 'capacityMode'>, quantity: number): Promise<void> {
    if (quantity <= 0) return;
    const move = {
      pending: () => 'CASE WHEN pending >= :quantity THEN pending - :quantity ELSE 0 END',
      sold: () => 'sold + :quantity',
    };
    await manager.createQueryBuilder().update(Ticket).set(move).where('id = :ticketId', { ticketId: ticket.id, quantity }).execute();
    if (ticket.capacityMode === 'capped' || ticket.capacityMode === 'global') {
      await manager.createQueryBuilder().update(TicketPool).set(move).where('event_id = :eventId', { eventId: ticket.eventId, quantity }).execute();
    }
  }

  /** Pools of these events, for showing availability of a page of tickets in one query. */
  async pools(manager: EntityManager, eventIds: number[]): Promise<Map<number, PoolCounts>> {
    if (eventIds.length === 0) return new Map();
    const pools = await manager.find(TicketPool, { where: { eventId: In([...new Set(eventIds)]) } });
    return new Map(pools.map((pool) => [pool.eventId, { capacity: pool.capacity, sold: pool.sold, pending: pool.pending }]));
  }

  static stateOf(ticket: Ticket, pool: PoolCounts | undefined): CapacityState {
    return { mode: ticket.capacityMode, capacity: ticket.capacity, sold: ticket.sold, pending: ticket.pending, pool: pool ?? null };
  }
}
