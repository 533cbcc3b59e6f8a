import type { CapacityCount } from './capacity';
import type { CapacityRepository, CountedTicket, LeftTest } from './capacity.repository';
import type { DomainEvent } from '../common/domain-events/domain-event';
import { DomainEvents } from '../common/domain-events/domain-events';
import { CapacityService } from './capacity.service';
import type { CapacityMode } from './ticket.entity';
import { fakeTransactionHost } from '../common/database/transaction-host.fake';

/**
 * CapacityService's rules (which rows a take moves, in which order, what "short" and "sold out"
 * mean, what a release tells the waitlist) against a fake of its repository that keeps the
 * counters in memory and applies each conditional UPDATE as the SQL does. The SQL itself, and
 * concurrent buyers, are the e2e specs' (test/checkout-concurrency.e2e-spec.ts).
 */

interface Row {
  capacity: number | null;
  sold: number;
  pending: number;
}

class FakeCounters {
  readonly tickets = new Map<number, Row & { mode: CapacityMode }>();
  readonly pools = new Map<number, Row>();
  /** Every statement, in order: `ticket 3 +2 >`, `pool 9 -1`. */
  readonly statements: string[] = [];

  takeFromTicket(ticket: CountedTicket, quantity: number, count: CapacityCount, left: LeftTest): Promise<boolean> {
    this.statements.push(`ticket ${ticket.id} +${quantity} ${left}`);
    const row = this.tickets.get(ticket.id);
    if (!row || row.mode !== ticket.capacityMode) return Promise.resolve(false);
    const limited = row.mode === 'own' || (row.mode === 'capped' && row.capacity !== null);
    if (limited && !fits(row, quantity, left)) return Promise.resolve(false);
    row[count] += quantity;
    return Promise.resolve(true);
  }

  takeFromPool(eventId: number, quantity: number, count: CapacityCount, left: LeftTest): Promise<boolean> {
    this.statements.push(`pool ${eventId} +${quantity} ${left}`);
    const row = this.pools.get(eventId);
    if (!row || !fits(row, quantity, left)) return Promise.resolve(false);
    row[count] += quantity;
    return Promise.resolve(true);
  }

  releaseFromTicket(ticketId: number, quantity: number, count: CapacityCount): Promise<void> {
    this.statements.push(`ticket ${ticketId} -${quantity}`);
    const row = this.tickets.get(ticketId);
    if (row) row[count] = Math.max(row[count] - quantity, 0);
    return Promise.resolve();
  }

  releaseFromPool(eventId: number, quantity: number, count: CapacityCount): Promise<void> {
    this.statements.push(`pool ${eventId} -${quantity}`);
    const row = this.pools.get(eventId);
    if (row) row[count] = Math.max(row[count] - quantity, 0);
    return Promise.resolve();
  }
}

function fits(row: Row, quantity: number, left: LeftTest): boolean {
  const free = (row.capacity ?? Infinity) - row.sold - row.pending;
  return left === '>' ? free > quantity : free >= quantity;
}

const ticket = (id: number, eventId: number, capacityMode: CapacityMode): CountedTicket => ({
  id,
  eventId,
  capacityMode,
  name: `Ticket ${id}`,
});

describe('CapacityService', () => {
  let counters: FakeCounters;
  let service: CapacityService;
  let domainEvents: DomainEvents;

  beforeEach(() => {
    counters = new FakeCounters();
    domainEvents = new DomainEvents(fakeTransactionHost());
    service = new CapacityService(counters as unknown as CapacityRepository, domainEvents);
  });

  describe('takeAll', () => {
    it('publishes TicketsSoldOut for the tickets a take empties, and nothing for a take that fails or leaves units', async () => {
      const published: DomainEvent[] = [];
      domainEvents.subscribe((events) => {
        published.push(...events);
        return Promise.resolve();
      });
      counters.tickets.set(3, { mode: 'own', capacity: 2, sold: 0, pending: 0 });
      counters.tickets.set(4, { mode: 'own', capacity: 5, sold: 0, pending: 0 });
      await service.takeAll([{ ticket: ticket(4, 1, 'own'), quantity: 1 }], 'sold');
      await service.takeAll([{ ticket: ticket(3, 1, 'own'), quantity: 3 }], 'sold');
      expect(published).toEqual([]);
      await service.takeAll([{ ticket: ticket(3, 1, 'own'), quantity: 2 }], 'sold');
      expect(published).toEqual([{ kind: 'TicketsSoldOut', tickets: [{ id: 3, eventId: 1, name: 'Ticket 3' }] }]);
      // A waitlist offer's hold of the last units is no sale: no notice.
      counters.tickets.set(4, { mode: 'own', capacity: 1, sold: 0, pending: 0 });
      expect(await service.take(ticket(4, 1, 'own'), 1, 'pending')).toBe(true);
      expect(published).toHaveLength(1);
    });

    it('moves ticket counters by ticket id, then pools by event id, one statement per row', async () => {
      counters.tickets.set(3, { mode: 'own', capacity: 10, sold: 0, pending: 0 });
      counters.tickets.set(5, { mode: 'capped', capacity: 10, sold: 0, pending: 0 });
      counters.tickets.set(7, { mode: 'global', capacity: null, sold: 0, pending: 0 });
      counters.pools.set(2, { capacity: 20, sold: 0, pending: 0 });
      const take = await service.takeAll(
        [
          { ticket: ticket(7, 2, 'global'), quantity: 1 },
          { ticket: ticket(3, 1, 'own'), quantity: 2 },
          { ticket: ticket(5, 2, 'capped'), quantity: 1 },
          { ticket: ticket(3, 1, 'own'), quantity: 1 },
        ],
        'pending',
      );
      expect(take).toEqual({ short: null, soldOut: [] });
      expect(counters.statements).toEqual(['ticket 3 +3 >', 'ticket 5 +1 >', 'ticket 7 +1 >', 'pool 2 +2 >']);
      expect(counters.tickets.get(3)?.pending).toBe(3);
      expect(counters.pools.get(2)?.pending).toBe(2);
    });

    it('takes the last units with a second statement and names the ticket sold out', async () => {
      counters.tickets.set(3, { mode: 'own', capacity: 5, sold: 3, pending: 0 });
      const take = await service.takeAll([{ ticket: ticket(3, 1, 'own'), quantity: 2 }], 'sold');
      expect(take).toEqual({ short: null, soldOut: [3] });
      expect(counters.statements).toEqual(['ticket 3 +2 >', 'ticket 3 +2 >=']);
      expect(counters.tickets.get(3)?.sold).toBe(5);
    });

    it('is short, naming the ticket, when fewer units are left than asked, and takes nothing more', async () => {
      counters.tickets.set(3, { mode: 'own', capacity: 5, sold: 4, pending: 0 });
      counters.tickets.set(4, { mode: 'own', capacity: 5, sold: 0, pending: 0 });
      const take = await service.takeAll(
        [
          { ticket: ticket(4, 1, 'own'), quantity: 1 },
          { ticket: ticket(3, 1, 'own'), quantity: 2 },
        ],
        'sold',
      );
      // Ticket 3 comes first in the row order: nothing of ticket 4 is taken (the caller rolls back anyway).
      expect(take).toEqual({ short: 3, soldOut: [] });
      expect(counters.statements).toEqual(['ticket 3 +2 >', 'ticket 3 +2 >=']);
      expect(counters.tickets.get(4)?.sold).toBe(0);
    });

    it('names a ticket of the event when its pool runs short, and every pooled ticket when the pool runs out', async () => {
      counters.tickets.set(5, { mode: 'capped', capacity: null, sold: 0, pending: 0 });
      counters.tickets.set(6, { mode: 'global', capacity: null, sold: 0, pending: 0 });
      counters.pools.set(2, { capacity: 3, sold: 1, pending: 0 });
      const lines = [
        { ticket: ticket(6, 2, 'global' as const), quantity: 1 },
        { ticket: ticket(5, 2, 'capped' as const), quantity: 1 },
      ];
      expect(await service.takeAll(lines, 'sold')).toEqual({ short: null, soldOut: [5, 6] });
      expect(counters.pools.get(2)?.sold).toBe(3);
      counters.statements.length = 0;
      expect(await service.takeAll([{ ticket: ticket(6, 2, 'global'), quantity: 1 }], 'sold')).toEqual({ short: 6, soldOut: [] });
    });

    it('never takes an unlimited ticket short, and fails a ticket whose mode changed since it was read', async () => {
      counters.tickets.set(8, { mode: 'unlimited', capacity: null, sold: 0, pending: 0 });
      expect(await service.takeAll([{ ticket: ticket(8, 1, 'unlimited'), quantity: 100 }], 'sold')).toEqual({
        short: null,
        soldOut: [],
      });
      counters.tickets.set(9, { mode: 'global', capacity: null, sold: 0, pending: 0 });
      expect(await service.takeAll([{ ticket: ticket(9, 1, 'own'), quantity: 1 }], 'sold')).toEqual({ short: 9, soldOut: [] });
    });

    it('leaves out lines of no units', async () => {
      expect(await service.takeAll([{ ticket: ticket(3, 1, 'own'), quantity: 0 }], 'sold')).toEqual({ short: null, soldOut: [] });
      expect(counters.statements).toEqual([]);
    });
  });

  describe('releaseAll', () => {
    it('gives units back in the row order, never below 0, and publishes UnitsReleased for the tickets that may have a waitlist', async () => {
      counters.tickets.set(3, { mode: 'own', capacity: 5, sold: 1, pending: 0 });
      counters.tickets.set(5, { mode: 'capped', capacity: null, sold: 2, pending: 0 });
      counters.pools.set(2, { capacity: 10, sold: 2, pending: 0 });
      const told: number[][] = [];
      domainEvents.subscribe(
        (events) => {
          for (const event of events) if (event.kind === 'UnitsReleased') told.push(event.ticketIds);
          return Promise.resolve();
        },
        { kinds: ['UnitsReleased'] },
      );
      await service.releaseAll(
        [
          { ticket: { ...ticket(5, 2, 'capped'), waitlist: false } as CountedTicket, quantity: 2 },
          { ticket: ticket(3, 1, 'own'), quantity: 2 },
        ],
        'sold',
      );
      expect(counters.statements).toEqual(['ticket 3 -2', 'ticket 5 -2', 'pool 2 -2']);
      expect(counters.tickets.get(3)?.sold).toBe(0);
      expect(counters.pools.get(2)?.sold).toBe(0);
      // Ticket 5 was read whole and has no waitlist.
      expect(told).toEqual([[3]]);
    });

    it('publishes nothing when nothing came back', async () => {
      const listener = jest.fn(() => Promise.resolve());
      domainEvents.subscribe(listener);
      await service.releaseAll([], 'pending');
      expect(listener).not.toHaveBeenCalled();
    });
  });
});
