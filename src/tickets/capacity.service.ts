import { Injectable } from '@nestjs/common';
import type { TicketUnitsLeft } from '../common/domain-events/domain-event';
import { DomainEvents } from '../common/domain-events/domain-events';
import { CapacityCount, CapacityState, PoolCounts } from './capacity';
import { CapacityRepository, CompoundTakeStep, CountedTicket, RowLeft } from './capacity.repository';
import { CapacityMode, Ticket } from './ticket.entity';

export type { CapacityCount } from './capacity';

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

/** What one counter row of a take has left (as its statement answered), and the units the take moved on it. */
interface RowTaken extends RowLeft {
  taken: number;
}

/** What the rows of a take answered: ticket counters by ticket id, pools by event id. */
interface TakenRows {
  tickets: Map<number, RowTaken>;
  pools: Map<number, RowTaken>;
}

/**
 * What each limited ticket of the lines has left: of its own counter and its pool (when it draws on
 * one), the row with fewer left. Tickets without a limit on any row are left out.
 */
function unitsLeft(lines: CapacityLine[], rows: TakenRows): TicketUnitsLeft[] {
  const result: TicketUnitsLeft[] = [];
  for (const { ticket } of counterPlan(lines).tickets) {
    const candidates = [hasOwnLimit(ticket.capacityMode) ? rows.tickets.get(ticket.id) : undefined];
    if (drawsOnPool(ticket.capacityMode)) candidates.push(rows.pools.get(ticket.eventId));
    let tightest: RowTaken | undefined;
    for (const row of candidates) {
      if (row?.left === null || row?.left === undefined || row.capacity === null) continue;
      if (!tightest || row.left < tightest.left!) tightest = row;
    }
    if (!tightest) continue;
    result.push({
      id: ticket.id,
      eventId: ticket.eventId,
      name: ticket.name,
      taken: tightest.taken,
      left: tightest.left!,
      capacity: tightest.capacity!,
    });
  }
  return result;
}

/** One row a take moves (CapacityRepository writes it), with what its outcome means for the take. */
interface TakeStep extends CompoundTakeStep {
  /** The ticket to name when short, and the tickets sold out when this row is emptied. */
  shortTicket: number | null;
  soldOut: number[];
}

/**
 * Told, inside the releasing transaction, that units of these tickets may have come back (a hold
 * released, an order cancelled or refunded, a cap raised): the waitlist offers them to the next in line.
 */

function drawsOnPool(mode: CapacityMode): boolean {
  return mode === 'capped' || mode === 'global';
}

/** Whether a ticket's own counter has a limit that can run out. */
function hasOwnLimit(mode: CapacityMode): boolean {
  return mode === 'own' || mode === 'capped';
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

/** The rows of a take for takeAllAndFinish, in counterPlan's order. */
function takeSteps(lines: CapacityLine[]): TakeStep[] {
  const plan = counterPlan(lines);
  const steps: TakeStep[] = plan.tickets.map(({ ticket, quantity }) => ({
    row: { ticket, quantity },
    limited: hasOwnLimit(ticket.capacityMode),
    shortTicket: ticket.id,
    soldOut: [ticket.id],
  }));
  for (const { eventId, quantity } of plan.pools) {
    const drawing = plan.tickets.filter(({ ticket }) => ticket.eventId === eventId && drawsOnPool(ticket.capacityMode));
    steps.push({
      row: { eventId, quantity },
      limited: true,
      shortTicket: drawing[0]?.ticket.id ?? null,
      soldOut: drawing.map(({ ticket }) => ticket.id),
    });
  }
  return steps;
}

/** What the compound take's steps answered, by row. */
function stepRows(steps: TakeStep[], left: RowLeft[]): TakenRows {
  const rows: TakenRows = { tickets: new Map(), pools: new Map() };
  steps.forEach((step, index) => {
    const row = { ...(left[index] ?? { left: null, capacity: null }), taken: step.row.quantity };
    if ('ticket' in step.row) rows.tickets.set(step.row.ticket.id, row);
    else rows.pools.set(step.row.eventId, row);
  });
  return rows;
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
  constructor(
    private readonly counters: CapacityRepository,
    private readonly domainEvents: DomainEvents,
  ) {}

  /** Publishes, in the caller's transaction, that units of these tickets may be free again (UnitsReleased: the waitlist offers them). */
  async unitsMayBeFree(ticketIds: number[]): Promise<void> {
    if (ticketIds.length === 0) return;
    await this.domainEvents.publish({ kind: 'UnitsReleased', ticketIds });
  }

  /** Whether a take should have its statements answer what its rows have left: only when UnitsTaken has a listener. */
  private get reporting(): boolean {
    return this.domainEvents.isListenedTo('UnitsTaken');
  }

  /** Publishes UnitsTaken with what a take's rows answered (nothing when no ticket of it is limited). */
  private async taken(lines: CapacityLine[], count: CapacityCount, rows: TakenRows | null): Promise<void> {
    if (!rows) return;
    const tickets = unitsLeft(lines, rows);
    if (tickets.length > 0) await this.domainEvents.publish({ kind: 'UnitsTaken', count, tickets });
  }

  /** Publishes TicketsSoldOut for the tickets a take left with no unit to buy. */
  private async soldOut(lines: CapacityLine[], ticketIds: number[]): Promise<void> {
    if (ticketIds.length === 0) return;
    const tickets = ticketIds.flatMap((id) => {
      const line = lines.find(({ ticket }) => ticket.id === id);
      return line ? [{ id, eventId: line.ticket.eventId, name: line.ticket.name }] : [];
    });
    await this.domainEvents.publish({ kind: 'TicketsSoldOut', tickets });
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
  async takeAll(lines: CapacityLine[], count: CapacityCount): Promise<CapacityTake> {
    const { take, rows } = await this.takeLines(lines, count);
    if (take.short === null) {
      await this.soldOut(lines, take.soldOut);
      await this.taken(lines, count, rows);
    }
    return take;
  }

  private async takeLines(lines: CapacityLine[], count: CapacityCount): Promise<{ take: CapacityTake; rows: TakenRows | null }> {
    const plan = counterPlan(lines);
    const report = this.reporting;
    const rows: TakenRows = { tickets: new Map(), pools: new Map() };
    const soldOut = new Set<number>();
    for (const { ticket, quantity } of plan.tickets) {
      // The take also fails when the ticket's mode is no longer the one read (CapacityRepository.takeFromTicket).
      let left = await this.counters.takeFromTicket(ticket, quantity, count, '>', report);
      if (!left) {
        if (hasOwnLimit(ticket.capacityMode)) left = await this.counters.takeFromTicket(ticket, quantity, count, '>=', report);
        if (!left) return { take: { short: ticket.id, soldOut: [] }, rows: null };
        soldOut.add(ticket.id);
      }
      rows.tickets.set(ticket.id, { ...left, taken: quantity });
    }
    for (const { eventId, quantity } of plan.pools) {
      const drawing = plan.tickets.filter(({ ticket }) => ticket.eventId === eventId && drawsOnPool(ticket.capacityMode));
      let left = await this.counters.takeFromPool(eventId, quantity, count, '>', report);
      if (!left) {
        left = await this.counters.takeFromPool(eventId, quantity, count, '>=', report);
        // Name a ticket of that event, as a take of its line would have.
        if (!left) return { take: { short: drawing[0]?.ticket.id ?? null, soldOut: [] }, rows: null };
        for (const { ticket } of drawing) soldOut.add(ticket.id);
      }
      rows.pools.set(eventId, { ...left, taken: quantity });
    }
    return { take: { short: null, soldOut: [...soldOut].sort((a, b) => a - b) }, rows: report ? rows : null };
  }

  /**
   * MariaDB: takeAll's UPDATEs and the COMMIT (or, when short, the ROLLBACK) in one statement, an
   * anonymous compound statement (BEGIN NOT ATOMIC), so that the counter rows are held for no round
   * trip to the service: under load its event loop answers late, and every buyer of the ticket
   * would wait for it. When the take empties a row, nothing is ended: the sold-out notice is
   * published (TicketsSoldOut) and the caller commits. When it commits, the COMMIT TypeORM sends next is answered without
   * a round trip (answerNextCommitLocally). Null when the server has no compound statements (MySQL): then
   * the caller runs takeAll. Everything the caller writes must be written before this.
   */
  async takeAllAndFinish(lines: CapacityLine[], count: CapacityCount): Promise<CapacityTake | null> {
    if (!this.counters.takesInOneStatement()) return null;
    const steps = takeSteps(lines);
    if (steps.length === 0) return { short: null, soldOut: [], finished: false };
    const pools = lines.some(({ ticket }) => drawsOnPool(ticket.capacityMode));
    const report = this.reporting;
    const result = await this.counters.takeAllAndFinish(steps, count, pools, report);
    if (result === null) return null;
    if (result.short !== null) return { short: steps[result.short].shortTicket, soldOut: [], finished: true };
    // After a COMMIT in the statement, publishing still works: UnitsTaken's listeners run after the commit.
    if (report) await this.taken(lines, count, stepRows(steps, result.left));
    const emptied = [...new Set(result.emptied.flatMap((index) => steps[index].soldOut))].sort((a, b) => a - b);
    if (emptied.length > 0) {
      await this.soldOut(lines, emptied);
      return { short: null, soldOut: emptied, finished: false };
    }
    return { short: null, soldOut: [], finished: true };
  }

  /** Takes `quantity` units of one ticket (a waitlist offer's hold: no sold-out notice); false when there is not enough left. */
  async take(ticket: CountedTicket, quantity: number, count: CapacityCount): Promise<boolean> {
    const lines = [{ ticket, quantity }];
    const { take, rows } = await this.takeLines(lines, count);
    if (take.short === null) await this.taken(lines, count, rows);
    return take.short === null;
  }

  /** Gives back units (cancelled, refunded or expired orders); counts never go below 0. */
  async releaseAll(lines: CapacityLine[], count: CapacityCount): Promise<void> {
    const plan = counterPlan(lines);
    for (const { ticket, quantity } of plan.tickets) await this.counters.releaseFromTicket(ticket.id, quantity, count);
    for (const { eventId, quantity } of plan.pools) await this.counters.releaseFromPool(eventId, quantity, count);
    // Tickets read whole and known to have no waitlist are left out: no listener has anything to do for them.
    const listened = plan.tickets.filter(({ ticket }) => (ticket as Partial<Ticket>).waitlist !== false);
    await this.unitsMayBeFree(listened.map(({ ticket }) => ticket.id));
  }

  /** Turns units held by a pending order into sold ones (the order was paid). */
  async confirmAll(lines: CapacityLine[]): Promise<void> {
    const plan = counterPlan(lines);
    for (const { ticket, quantity } of plan.tickets) await this.counters.confirmOnTicket(ticket.id, quantity);
    for (const { eventId, quantity } of plan.pools) await this.counters.confirmOnPool(eventId, quantity);
  }

  /** Creates a new ticket's counter, at zero. */
  async createCounter(ticket: Pick<Ticket, 'id' | 'capacityMode' | 'capacity'>): Promise<void> {
    await this.counters.insertCounter({
      ticketId: ticket.id,
      capacityMode: ticket.capacityMode,
      capacity: ticket.capacity,
      sold: 0,
      pending: 0,
    });
  }

  /** Copies a ticket's new mode and cap onto its counter, in the transaction that changes them. */
  async setCounterLimit(ticketId: number, limit: Pick<Ticket, 'capacityMode' | 'capacity'>): Promise<void> {
    await this.counters.setCounterLimit(ticketId, limit);
  }

  /** The ticket's counts, with its counter row locked until the caller's transaction ends (MySQL; SQLite runs one writer). */
  async lockCounts(ticketId: number): Promise<{ sold: number; pending: number }> {
    const counter = await this.counters.lockCounter(ticketId);
    return { sold: counter?.sold ?? 0, pending: counter?.pending ?? 0 };
  }

  /** Pools of these events, for showing availability of a page of tickets in one query. */
  async pools(eventIds: number[]): Promise<Map<number, PoolCounts>> {
    return this.counters.pools(eventIds);
  }

  static stateOf(ticket: Ticket, pool: PoolCounts | undefined): CapacityState {
    return { mode: ticket.capacityMode, capacity: ticket.capacity, sold: ticket.sold, pending: ticket.pending, pool: pool ?? null };
  }
}
