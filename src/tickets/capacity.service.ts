import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { announceRawWrites } from '../common/database/raw-writes';
import { answerNextCommitLocally } from '../common/database/transactions';
import { CapacityState, PoolCounts } from './capacity';
import { CapacityMode, Ticket } from './ticket.entity';
import { TicketCapacityCounter } from './ticket-capacity-counter.entity';
import { TicketPool } from './ticket-pool.entity';
import { SqlDialect } from '../database/sql-dialect';

/** Which count a quantity moves in: `sold` (completed orders, RSVP going) or `pending` (held by unpaid orders). */
export type CapacityCount = 'sold' | 'pending';

type CountedTicket = Pick<Ticket, 'id' | 'eventId' | 'capacityMode'>;

/** Units of one ticket that one order takes, gives back or confirms. */
export interface CapacityLine {
  ticket: CountedTicket;
  quantity: number;
}

/** What a take did: `short` names a ticket without enough left (nothing taken); `soldOut` the tickets left with none. */
export interface CapacityTake {
  short: number | null;
  soldOut: number[];
  /** takeAllAndFinish only: the transaction has ended (committed, or rolled back when short). */
  finished?: boolean;
}

/** One row a take moves, as SQL: the UPDATE asking for more left than it takes, and the one taking the last units. */
interface TakeStep {
  sql: (left: '>' | '>=') => string;
  parameters: unknown[];
  /** Whether the row has a limit that can run out (else only a changed mode makes the take fail). */
  limited: boolean;
  /** The ticket to name when short, and the tickets sold out when this row is emptied. */
  shortTicket: number | null;
  soldOut: number[];
}

/**
 * Told, inside the releasing transaction, that units of these tickets may have come back (a hold
 * released, an order cancelled or refunded, a cap raised): the waitlist offers them to the next in line.
 */
export type FreedUnitsListener = (manager: EntityManager, ticketIds: number[]) => Promise<void>;

interface FinishRow {
  short_step: number | string;
  emptied: string;
}

function drawsOnPool(mode: CapacityMode): boolean {
  return mode === 'capped' || mode === 'global';
}

/**
 * The counter rows a set of lines moves, in the one order every transaction takes them: ticket
 * counters by ticket id, then pools by event id. Two checkouts of overlapping carts then wait for
 * each other instead of deadlocking. Units of several lines on one row are moved by one statement.
 */
function counterPlan(lines: CapacityLine[]): {
  tickets: Array<{ ticket: CountedTicket; quantity: number }>;
  pools: Array<{ eventId: number; quantity: number }>;
} {
  const tickets = new Map<number, { ticket: CountedTicket; quantity: number }>();
  const pools = new Map<number, number>();
  for (const { ticket, quantity } of lines) {
    if (quantity <= 0) continue;
    const entry = tickets.get(ticket.id) ?? { ticket, quantity: 0 };
    entry.quantity += quantity;
    tickets.set(ticket.id, entry);
    if (drawsOnPool(ticket.capacityMode)) pools.set(ticket.eventId, (pools.get(ticket.eventId) ?? 0) + quantity);
  }
  return {
    tickets: [...tickets.values()].sort((a, b) => a.ticket.id - b.ticket.id),
    pools: [...pools.entries()].sort(([a], [b]) => a - b).map(([eventId, quantity]) => ({ eventId, quantity })),
  };
}

/** The rows of a take as SQL for takeAllAndFinish, in counterPlan's order. */
function takeSteps(lines: CapacityLine[], count: CapacityCount): TakeStep[] {
  const plan = counterPlan(lines);
  const steps: TakeStep[] = plan.tickets.map(({ ticket, quantity }) => {
    const limit = (left: string) =>
      ticket.capacityMode === 'own'
        ? ` AND capacity - sold - pending ${left} ?`
        : ticket.capacityMode === 'capped'
          ? ` AND (capacity IS NULL OR capacity - sold - pending ${left} ?)`
          : '';
    const limited = ticket.capacityMode === 'own' || ticket.capacityMode === 'capped';
    return {
      sql: (left) => `UPDATE ticket_capacity_counters SET ${count} = ${count} + ? WHERE ticket_id = ? AND capacity_mode = ?${limit(left)}`,
      parameters: [quantity, ticket.id, ticket.capacityMode, ...(limited ? [quantity] : [])],
      limited,
      shortTicket: ticket.id,
      soldOut: [ticket.id],
    };
  });
  for (const { eventId, quantity } of plan.pools) {
    const drawing = plan.tickets.filter(({ ticket }) => ticket.eventId === eventId && drawsOnPool(ticket.capacityMode));
    steps.push({
      sql: (left) =>
        `UPDATE ticket_pools SET ${count} = ${count} + ?, updated_at = CURRENT_TIMESTAMP(3) WHERE event_id = ? AND capacity - sold - pending ${left} ?`,
      parameters: [quantity, eventId, quantity],
      limited: true,
      shortTicket: drawing[0]?.ticket.id ?? null,
      soldOut: drawing.map(({ ticket }) => ticket.id),
    });
  }
  return steps;
}

/** The one row the compound statement selects: mysql2 answers its result sets and the final OK as a list. */
function firstRow(raw: unknown): FinishRow {
  const sets = Array.isArray(raw) ? (raw as unknown[]) : [];
  for (const set of sets) {
    if (Array.isArray(set) && set.length > 0) return set[0] as FinishRow;
  }
  throw new Error('the capacity take answered no row');
}

/**
 * Takes and gives back capacity with conditional UPDATEs (`... WHERE capacity - sold - pending >= n`),
 * never read-then-write, so that concurrent checkouts cannot sell more than there is. The counts
 * live in rows no foreign key references (`ticket_capacity_counters`, `ticket_pools`), so a caller
 * can run these last in its transaction and hold their locks only until its COMMIT. Run inside the
 * caller's transaction: when a take fails half-way (the ticket had room, the pool did not), the
 * caller throws and the transaction undoes the first half.
 */
@Injectable()
export class CapacityService {
  private readonly freedUnitsListeners: FreedUnitsListener[] = [];

  /** Registers a listener for units coming back (the waitlist module, at start). */
  onUnitsMayBeFree(listener: FreedUnitsListener): void {
    this.freedUnitsListeners.push(listener);
  }

  /** Tells the listeners, in the caller's transaction, that units of these tickets may be free again. */
  async unitsMayBeFree(manager: EntityManager, ticketIds: number[]): Promise<void> {
    if (ticketIds.length === 0) return;
    for (const listener of this.freedUnitsListeners) await listener(manager, ticketIds);
  }

  /**
   * Takes the units of every line, or none. `short` is the id of the first ticket that has not
   * enough left, or null when all were taken (then the caller commits; otherwise it must roll
   * back); `soldOut` the ids of the lines' tickets this take left with no unit to buy.
   *
   * Each counter row is taken by one UPDATE that also asks for more left than it takes, so its
   * success says the row is not sold out without reading it back while every other buyer waits on
   * it. Only when that UPDATE finds too little left does a second one take exactly what is left:
   * the last units of the row, so the row is sold out (the failed UPDATE locked the row, so nothing
   * changed in between).
   */
  async takeAll(manager: EntityManager, lines: CapacityLine[], count: CapacityCount): Promise<CapacityTake> {
    const plan = counterPlan(lines);
    const soldOut = new Set<number>();
    for (const { ticket, quantity } of plan.tickets) {
      const limited = ticket.capacityMode === 'own' || ticket.capacityMode === 'capped';
      const take = (left: '>' | '>=') => {
        const update = manager
          .createQueryBuilder()
          .update(TicketCapacityCounter)
          .set({ [count]: () => `${count} + :quantity` })
          .where('ticket_id = :ticketId', { ticketId: ticket.id, quantity })
          // The mode read by the caller must still hold: a ticket moved into or out of the pool meanwhile
          // would otherwise be counted on the wrong side.
          .andWhere('capacity_mode = :capacityMode', { capacityMode: ticket.capacityMode });
        if (ticket.capacityMode === 'own') update.andWhere(`capacity - sold - pending ${left} :quantity`);
        if (ticket.capacityMode === 'capped') update.andWhere(`(capacity IS NULL OR capacity - sold - pending ${left} :quantity)`);
        return update.execute();
      };
      if ((await take('>')).affected) continue;
      if (!limited || !(await take('>=')).affected) return { short: ticket.id, soldOut: [] };
      soldOut.add(ticket.id);
    }
    for (const { eventId, quantity } of plan.pools) {
      const take = (left: '>' | '>=') =>
        manager
          .createQueryBuilder()
          .update(TicketPool)
          .set({ [count]: () => `${count} + :quantity` })
          .where(`event_id = :eventId AND capacity - sold - pending ${left} :quantity`, { eventId, quantity })
          .execute();
      const drawing = plan.tickets.filter(({ ticket }) => ticket.eventId === eventId && drawsOnPool(ticket.capacityMode));
      if ((await take('>')).affected) continue;
      // Name a ticket of that event, as a take of its line would have.
      if (!(await take('>=')).affected) return { short: drawing[0]?.ticket.id ?? null, soldOut: [] };
      for (const { ticket } of drawing) soldOut.add(ticket.id);
    }
    return { short: null, soldOut: [...soldOut].sort((a, b) => a - b) };
  }

  /**
   * MariaDB: takeAll's UPDATEs and the COMMIT (or, when short, the ROLLBACK) in one statement, an
   * anonymous compound statement (BEGIN NOT ATOMIC), so that the counter rows are held for no round
   * trip to the service: under load its event loop answers late, and every buyer of the ticket
   * would wait for it. When the take empties a row, nothing is ended: the caller writes the
   * sold-out notice and commits. When it commits, the COMMIT TypeORM sends next is answered without
   * a round trip (answerNextCommitLocally). Null when the server has no compound statements (MySQL): then
   * the caller runs takeAll. Everything the caller writes must be written before this.
   */
  async takeAllAndFinish(manager: EntityManager, lines: CapacityLine[], count: CapacityCount): Promise<CapacityTake | null> {
    const dialect = SqlDialect.of(manager);
    if (!dialect.mayRunCompound || !manager.queryRunner) return null;
    const steps = takeSteps(lines, count);
    if (steps.length === 0) return { short: null, soldOut: [], finished: false };
    const body: string[] = [];
    const parameters: unknown[] = [];
    steps.forEach((step, index) => {
      const number = index + 1;
      const lastUnits = step.limited
        ? `${step.sql('>=')}; IF ROW_COUNT() = 0 THEN SET short_step = ${number}; ELSE SET emptied = CONCAT(emptied, '${number},'); END IF;`
        : `SET short_step = ${number};`;
      body.push(`IF short_step = 0 THEN ${step.sql('>')}; IF ROW_COUNT() = 0 THEN ${lastUnits} END IF; END IF;`);
      parameters.push(...step.parameters, ...(step.limited ? step.parameters : []));
    });
    const sql = [
      'BEGIN NOT ATOMIC',
      "DECLARE short_step INT DEFAULT 0; DECLARE emptied VARCHAR(4000) DEFAULT '';",
      ...body,
      "IF short_step > 0 THEN ROLLBACK; ELSEIF emptied = '' THEN COMMIT; END IF;",
      'SELECT short_step, emptied;',
      'END',
    ].join('\n');
    // Raw SQL is not reported to entity subscribers: tell them these rows change (the count caches).
    const pools = lines.some(({ ticket }) => drawsOnPool(ticket.capacityMode));
    await announceRawWrites(manager, 'update', pools ? [TicketCapacityCounter, TicketPool] : [TicketCapacityCounter]);
    const raw: unknown = await dialect.compound(() => manager.query(sql, parameters));
    if (raw === null) return null;
    const row = firstRow(raw);
    const shortStep = Number(row.short_step);
    if (shortStep > 0) return { short: steps[shortStep - 1].shortTicket, soldOut: [], finished: true };
    const emptied = row.emptied
      .split(',')
      .filter((part) => part !== '')
      .flatMap((part) => steps[Number(part) - 1].soldOut);
    if (emptied.length > 0) return { short: null, soldOut: [...new Set(emptied)].sort((a, b) => a - b), finished: false };
    answerNextCommitLocally(manager.queryRunner);
    return { short: null, soldOut: [], finished: true };
  }

  /** Takes `quantity` units of one ticket; false when there is not enough left. */
  async take(manager: EntityManager, ticket: CountedTicket, quantity: number, count: CapacityCount): Promise<boolean> {
    return (await this.takeAll(manager, [{ ticket, quantity }], count)).short === null;
  }

  /** Gives back units (cancelled, refunded or expired orders); counts never go below 0. */
  async releaseAll(manager: EntityManager, lines: CapacityLine[], count: CapacityCount): Promise<void> {
    const decrement = () => `CASE WHEN ${count} >= :quantity THEN ${count} - :quantity ELSE 0 END`;
    const plan = counterPlan(lines);
    for (const { ticket, quantity } of plan.tickets) {
      await manager
        .createQueryBuilder()
        .update(TicketCapacityCounter)
        .set({ [count]: decrement })
        .where('ticket_id = :ticketId', { ticketId: ticket.id, quantity })
        .execute();
    }
    for (const { eventId, quantity } of plan.pools) {
      await manager
        .createQueryBuilder()
        .update(TicketPool)
        .set({ [count]: decrement })
        .where('event_id = :eventId', { eventId, quantity })
        .execute();
    }
    // Tickets read whole and known to have no waitlist are left out: no listener has anything to do for them.
    const listened = plan.tickets.filter(({ ticket }) => (ticket as Partial<Ticket>).waitlist !== false);
    await this.unitsMayBeFree(
      manager,
      listened.map(({ ticket }) => ticket.id),
    );
  }

  /** Turns units held by a pending order into sold ones (the order was paid). */
  async confirmAll(manager: EntityManager, lines: CapacityLine[]): Promise<void> {
    const move = {
      pending: () => 'CASE WHEN pending >= :quantity THEN pending - :quantity ELSE 0 END',
      sold: () => 'sold + :quantity',
    };
    const plan = counterPlan(lines);
    for (const { ticket, quantity } of plan.tickets) {
      await manager
        .createQueryBuilder()
        .update(TicketCapacityCounter)
        .set(move)
        .where('ticket_id = :ticketId', { ticketId: ticket.id, quantity })
        .execute();
    }
    for (const { eventId, quantity } of plan.pools) {
      await manager.createQueryBuilder().update(TicketPool).set(move).where('event_id = :eventId', { eventId, quantity }).execute();
    }
  }

  /** Creates a new ticket's counter, at zero. */
  async createCounter(manager: EntityManager, ticket: Pick<Ticket, 'id' | 'capacityMode' | 'capacity'>): Promise<void> {
    await manager.insert(TicketCapacityCounter, {
      ticketId: ticket.id,
      capacityMode: ticket.capacityMode,
      capacity: ticket.capacity,
      sold: 0,
      pending: 0,
    });
  }

  /** Copies a ticket's new mode and cap onto its counter, in the transaction that changes them. */
  async setCounterLimit(manager: EntityManager, ticketId: number, limit: Pick<Ticket, 'capacityMode' | 'capacity'>): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(TicketCapacityCounter)
      .set({ capacityMode: limit.capacityMode, capacity: limit.capacity })
      .where('ticket_id = :ticketId', { ticketId })
      .execute();
  }

  /** The ticket's counts, with its counter row locked until the caller's transaction ends (MySQL; SQLite runs one writer). */
  async lockCounts(manager: EntityManager, ticketId: number): Promise<{ sold: number; pending: number }> {
    const query = manager.createQueryBuilder(TicketCapacityCounter, 'counter').where('counter.ticketId = :ticketId', { ticketId });
    SqlDialect.of(manager).forUpdate(query);
    const counter = await query.getOne();
    return { sold: counter?.sold ?? 0, pending: counter?.pending ?? 0 };
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
