import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { announceRawWrites } from '../common/database/raw-writes';
import { answerNextCommitLocally } from '../common/database/transactions';
import { SqlDialect } from '../database/sql-dialect';
import type { CapacityCount, PoolCounts } from './capacity';
import type { Ticket } from './ticket.entity';
import { TicketCapacityCounter } from './ticket-capacity-counter.entity';
import { TicketPool } from './ticket-pool.entity';
import { TransactionHost } from '../common/database/transaction-host';

export type CountedTicket = Pick<Ticket, 'id' | 'eventId' | 'capacityMode' | 'name'>;

/** A take asks for more left than it takes (`>`), or for at least as much, to take the last units (`>=`). */
export type LeftTest = '>' | '>=';

/** One counter row a take moves: a ticket's own counter, or its event's pool. */
export type CounterRow = { ticket: CountedTicket; quantity: number } | { eventId: number; quantity: number };

/** A row of a take in one statement, and whether it has a limit that can run out (else only a changed mode makes it fail). */
export interface CompoundTakeStep {
  row: CounterRow;
  limited: boolean;
}

/** What the compound take did: the step found short (all undone), or the steps whose row it emptied. */
export interface CompoundTakeResult {
  /** Index of the step with too little left: the take was rolled back. */
  short: number | null;
  /** Indexes of the steps that took the row's last units: then nothing was ended. */
  emptied: number[];
}

/** Units held by a pending order become sold (the order was paid). */
const PENDING_TO_SOLD = {
  pending: () => 'CASE WHEN pending >= :quantity THEN pending - :quantity ELSE 0 END',
  sold: () => 'sold + :quantity',
};

interface FinishRow {
  short_step: number | string;
  emptied: string;
}

/** The one row the compound statement selects: mysql2 answers its result sets and the final OK as a list. */
function firstRow(raw: unknown): FinishRow {
  const sets = Array.isArray(raw) ? (raw as unknown[]) : [];
  for (const set of sets) {
    if (Array.isArray(set) && set.length > 0) return set[0] as FinishRow;
  }
  throw new Error('the capacity take answered no row');
}

/** A step's UPDATE as raw SQL with its parameters, asking for `left` units more than (or as many as) it takes. */
function stepSql(step: CompoundTakeStep, count: CapacityCount): { sql: (left: LeftTest) => string; parameters: unknown[] } {
  if ('ticket' in step.row) {
    const { ticket, quantity } = step.row;
    const limit = (left: string) =>
      ticket.capacityMode === 'own'
        ? ` AND capacity - sold - pending ${left} ?`
        : ticket.capacityMode === 'capped'
          ? ` AND (capacity IS NULL OR capacity - sold - pending ${left} ?)`
          : '';
    return {
      sql: (left) => `UPDATE ticket_capacity_counters SET ${count} = ${count} + ? WHERE ticket_id = ? AND capacity_mode = ?${limit(left)}`,
      parameters: [quantity, ticket.id, ticket.capacityMode, ...(step.limited ? [quantity] : [])],
    };
  }
  const { eventId, quantity } = step.row;
  return {
    sql: (left) =>
      `UPDATE ticket_pools SET ${count} = ${count} + ?, updated_at = CURRENT_TIMESTAMP(3) WHERE event_id = ? AND capacity - sold - pending ${left} ?`,
    parameters: [quantity, eventId, quantity],
  };
}

/**
 * The statements on capacity counts: the ticket counters (`ticket_capacity_counters`) and the
 * events' pools (`ticket_pools`), moved by conditional UPDATEs, never read-then-write.
 */
@Injectable()
export class CapacityRepository {
  constructor(private readonly tx: TransactionHost) {}

  // ---------------------------------------------------------------- takes

  /** Adds `quantity` to the ticket counter's `count` if its mode is still the one read and `left` holds; whether it did. */
  async takeFromTicket(ticket: CountedTicket, quantity: number, count: CapacityCount, left: LeftTest): Promise<boolean> {
    const manager = this.tx.manager;
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
    return Boolean((await update.execute()).affected);
  }

  /** Adds `quantity` to the event pool's `count` if `left` holds; whether it did. */
  async takeFromPool(eventId: number, quantity: number, count: CapacityCount, left: LeftTest): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(TicketPool)
      .set({ [count]: () => `${count} + :quantity` })
      .where(`event_id = :eventId AND capacity - sold - pending ${left} :quantity`, { eventId, quantity })
      .execute();
    return Boolean(result.affected);
  }

  /**
   * Whether a take can run as one anonymous compound statement: not on SQLite nor on a server that
   * refused one, and only inside a transaction.
   */
  takesInOneStatement(): boolean {
    const manager = this.tx.manager;
    return SqlDialect.of(manager).mayRunCompound && Boolean(manager.queryRunner);
  }

  /**
   * MariaDB: the steps' UPDATEs and the COMMIT (or, when one is short, the ROLLBACK) in one
   * anonymous compound statement (BEGIN NOT ATOMIC). Each step asks for more left than it takes;
   * when that finds too little, a limited step takes the last units (the row is then emptied) and
   * an unlimited one is short. When a step is short the transaction is rolled back; when one
   * emptied its row nothing is ended; otherwise it is committed, and the COMMIT TypeORM sends next
   * is answered without a round trip (answerNextCommitLocally). Null when the server has no
   * compound statements (MySQL). `pools`: whether the take's tickets draw on pools, for the
   * subscribers told of the raw writes.
   */
  async takeAllAndFinish(steps: CompoundTakeStep[], count: CapacityCount, pools: boolean): Promise<CompoundTakeResult | null> {
    const manager = this.tx.manager;
    const body: string[] = [];
    const parameters: unknown[] = [];
    steps.forEach((step, index) => {
      const number = index + 1;
      const { sql, parameters: stepParameters } = stepSql(step, count);
      const lastUnits = step.limited
        ? `${sql('>=')}; IF ROW_COUNT() = 0 THEN SET short_step = ${number}; ELSE SET emptied = CONCAT(emptied, '${number},'); END IF;`
        : `SET short_step = ${number};`;
      body.push(`IF short_step = 0 THEN ${sql('>')}; IF ROW_COUNT() = 0 THEN ${lastUnits} END IF; END IF;`);
      parameters.push(...stepParameters, ...(step.limited ? stepParameters : []));
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
    await announceRawWrites(manager, 'update', pools ? [TicketCapacityCounter, TicketPool] : [TicketCapacityCounter]);
    const raw: unknown = await SqlDialect.of(manager).compound(() => manager.query(sql, parameters));
    if (raw === null) return null;
    const row = firstRow(raw);
    const shortStep = Number(row.short_step);
    if (shortStep > 0) return { short: shortStep - 1, emptied: [] };
    const emptied = row.emptied
      .split(',')
      .filter((part) => part !== '')
      .map((part) => Number(part) - 1);
    if (emptied.length === 0) answerNextCommitLocally(manager.queryRunner!);
    return { short: null, emptied };
  }

  // ---------------------------------------------------------------- releases and confirmations

  /** Takes `quantity` off the ticket counter's `count`, never below 0. */
  async releaseFromTicket(ticketId: number, quantity: number, count: CapacityCount): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(TicketCapacityCounter)
      .set({ [count]: () => `CASE WHEN ${count} >= :quantity THEN ${count} - :quantity ELSE 0 END` })
      .where('ticket_id = :ticketId', { ticketId, quantity })
      .execute();
  }

  /** Takes `quantity` off the event pool's `count`, never below 0. */
  async releaseFromPool(eventId: number, quantity: number, count: CapacityCount): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(TicketPool)
      .set({ [count]: () => `CASE WHEN ${count} >= :quantity THEN ${count} - :quantity ELSE 0 END` })
      .where('event_id = :eventId', { eventId, quantity })
      .execute();
  }

  /** Moves `quantity` units of the ticket counter from pending (never below 0) to sold. */
  async confirmOnTicket(ticketId: number, quantity: number): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(TicketCapacityCounter)
      .set(PENDING_TO_SOLD)
      .where('ticket_id = :ticketId', { ticketId, quantity })
      .execute();
  }

  /** Moves `quantity` units of the event pool from pending (never below 0) to sold. */
  async confirmOnPool(eventId: number, quantity: number): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(TicketPool)
      .set(PENDING_TO_SOLD)
      .where('event_id = :eventId', { eventId, quantity })
      .execute();
  }

  // ---------------------------------------------------------------- counters and pools

  async insertCounter(counter: Pick<TicketCapacityCounter, 'ticketId' | 'capacityMode' | 'capacity' | 'sold' | 'pending'>): Promise<void> {
    const manager = this.tx.manager;
    await manager.insert(TicketCapacityCounter, counter);
  }

  async setCounterLimit(ticketId: number, limit: Pick<Ticket, 'capacityMode' | 'capacity'>): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(TicketCapacityCounter)
      .set({ capacityMode: limit.capacityMode, capacity: limit.capacity })
      .where('ticket_id = :ticketId', { ticketId })
      .execute();
  }

  /** The ticket's counter, locked until the caller's transaction ends (MySQL; SQLite runs one writer). */
  lockCounter(ticketId: number): Promise<TicketCapacityCounter | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(TicketCapacityCounter, 'counter').where('counter.ticketId = :ticketId', { ticketId });
    SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  /** Pools of these events, by event id, in one query. */
  async pools(eventIds: number[]): Promise<Map<number, PoolCounts>> {
    const manager = this.tx.manager;
    if (eventIds.length === 0) return new Map();
    const pools = await manager.find(TicketPool, { where: { eventId: In([...new Set(eventIds)]) } });
    return new Map(pools.map((pool) => [pool.eventId, { capacity: pool.capacity, sold: pool.sold, pending: pool.pending }]));
  }
}
