import { Injectable } from '@nestjs/common';
import { EntityTarget, In, ObjectLiteral, UpdateQueryBuilder } from 'typeorm';
import { HeldWrites } from '../common/database/held-writes';
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

/**
 * What a counter row has left once a take moved it, as the take's own statement answers it (asked
 * with `report`): units left and the row's capacity, both null for a row without a limit (and when
 * not asked).
 */
export interface RowLeft {
  left: number | null;
  capacity: number | null;
}

const NOT_REPORTED: RowLeft = { left: null, capacity: null };

/** What the compound take did: the step found short (all undone), or the steps whose row it emptied. */
export interface CompoundTakeResult {
  /** Index of the step with too little left: the take was rolled back. */
  short: number | null;
  /** Indexes of the steps that took the row's last units: then nothing was ended. */
  emptied: number[];
  /** With `report`: what each step's row has left, by step index (the others' are not reported). */
  left: RowLeft[];
}

/** The counter row a take statement moves, for the read of what it has left. */
interface TakenRow {
  entity: EntityTarget<unknown>;
  table: 'ticket_capacity_counters' | 'ticket_pools';
  key: 'ticket_id' | 'event_id';
  id: number;
}

/** The units left and capacity a take reads back (RETURNING, or the compound statement's read of the row it holds). */
const LEFT_COLUMNS = 'capacity - sold - pending AS units_left, capacity';

interface LeftRow {
  units_left: unknown;
  capacity: unknown;
}

function rowLeft(row: LeftRow | undefined): RowLeft {
  if (!row || row.capacity === null || row.capacity === undefined) return { left: null, capacity: null };
  return { left: Number(row.units_left), capacity: Number(row.capacity) };
}

/** Units held by a pending order become sold (the order was paid). */
const PENDING_TO_SOLD = {
  pending: () => 'CASE WHEN pending >= :quantity THEN pending - :quantity ELSE 0 END',
  sold: () => 'sold + :quantity',
};

interface FinishRow {
  short_step: number | string;
  emptied: string;
  /** With `report`: `<step>:<left>:<capacity>,` per step that took (empty left and capacity for a row without a limit). */
  lefts?: string;
  /** With held writes that generate ids: those ids (HeldWrites.resolve). */
  held_ids?: string | null;
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
function stepSql(
  step: CompoundTakeStep,
  count: CapacityCount,
): { sql: (left: LeftTest) => string; parameters: unknown[]; readLeft: string; readParameters: unknown[] } {
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
      readLeft: 'FROM ticket_capacity_counters WHERE ticket_id = ?',
      readParameters: [ticket.id],
    };
  }
  const { eventId, quantity } = step.row;
  return {
    sql: (left) =>
      `UPDATE ticket_pools SET ${count} = ${count} + ?, updated_at = CURRENT_TIMESTAMP(3) WHERE event_id = ? AND capacity - sold - pending ${left} ?`,
    parameters: [quantity, eventId, quantity],
    readLeft: 'FROM ticket_pools WHERE event_id = ?',
    readParameters: [eventId],
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

  /**
   * Adds `quantity` to the ticket counter's `count` if its mode is still the one read and `left` holds:
   * null when it did not; with `report`, what the row has left (RowLeft).
   */
  async takeFromTicket(
    ticket: CountedTicket,
    quantity: number,
    count: CapacityCount,
    left: LeftTest,
    report = false,
  ): Promise<RowLeft | null> {
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
    const row = { entity: TicketCapacityCounter, table: 'ticket_capacity_counters', key: 'ticket_id', id: ticket.id } as const;
    return this.take(update, row, report);
  }

  /** Adds `quantity` to the event pool's `count` if `left` holds: null when it did not; with `report`, what the pool has left. */
  async takeFromPool(eventId: number, quantity: number, count: CapacityCount, left: LeftTest, report = false): Promise<RowLeft | null> {
    const manager = this.tx.manager;
    const update = manager
      .createQueryBuilder()
      .update(TicketPool)
      .set({ [count]: () => `${count} + :quantity` })
      .where(`event_id = :eventId AND capacity - sold - pending ${left} :quantity`, { eventId, quantity });
    return this.take(update, { entity: TicketPool, table: 'ticket_pools', key: 'event_id', id: eventId }, report);
  }

  /**
   * Runs a take's UPDATE. With `report`, the same statement answers what the row has left where the
   * database has `UPDATE ... RETURNING` (SQLite); elsewhere (MySQL, or MariaDB outside the compound
   * take) one read of the row, which this transaction holds locked, follows a take that took.
   */
  private async take(update: UpdateQueryBuilder<ObjectLiteral>, row: TakenRow, report: boolean): Promise<RowLeft | null> {
    if (!report) return (await update.execute()).affected ? NOT_REPORTED : null;
    const manager = this.tx.manager;
    if (SqlDialect.of(manager).updateReturning) {
      const [sql, parameters] = update.getQueryAndParameters();
      const rows = await manager.query<LeftRow[]>(`${sql} RETURNING ${LEFT_COLUMNS}`, parameters);
      if (rows.length === 0) return null;
      // Raw SQL is not reported to entity subscribers: tell them the row changed (the count caches).
      await announceRawWrites(manager, 'update', [row.entity]);
      return rowLeft(rows[0]);
    }
    if (!(await update.execute()).affected) return null;
    const rows = await manager.query<LeftRow[]>(`SELECT ${LEFT_COLUMNS} FROM ${row.table} WHERE ${row.key} = ?`, [row.id]);
    return rowLeft(rows[0]);
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
   * subscribers told of the raw writes. With `report`, each step that took reads its row back inside
   * the same statement (a primary-key read of a row it holds) and the statement answers what each
   * has left: no statement more. Writes the transaction holds (HeldWrites: a checkout's DELETE of
   * its cart lines, its INSERTs, a coupon's uses) run first in the same statement, so a checkout
   * sends its cart's read and this.
   */
  async takeAllAndFinish(
    steps: CompoundTakeStep[],
    count: CapacityCount,
    pools: boolean,
    report = false,
  ): Promise<CompoundTakeResult | null> {
    const manager = this.tx.manager;
    const body: string[] = [];
    const parameters: unknown[] = [];
    steps.forEach((step, index) => {
      const number = index + 1;
      const { sql, parameters: stepParameters, readLeft, readParameters } = stepSql(step, count);
      const lastUnits = step.limited
        ? `${sql('>=')}; IF ROW_COUNT() = 0 THEN SET short_step = ${number}; ELSE SET emptied = CONCAT(emptied, '${number},'); END IF;`
        : `SET short_step = ${number};`;
      body.push(`IF short_step = 0 THEN ${sql('>')}; IF ROW_COUNT() = 0 THEN ${lastUnits} END IF; END IF;`);
      parameters.push(...stepParameters, ...(step.limited ? stepParameters : []));
      if (!report) return;
      body.push(
        `IF short_step = 0 THEN SELECT CONCAT(lefts, '${number}:', IFNULL(capacity - sold - pending, ''), ':', IFNULL(capacity, ''), ',') INTO lefts ${readLeft}; END IF;`,
      );
      parameters.push(...readParameters);
    });
    // The transaction's held writes (the checkout's DELETE and INSERTs) go first, in the same statement.
    const held = HeldWrites.release(manager);
    const prelude = held?.compoundPart();
    const selected = ['short_step', 'emptied', ...(report ? ['lefts'] : []), ...(prelude?.ids ? [`${prelude.ids} AS held_ids`] : [])];
    const sql = [
      'BEGIN NOT ATOMIC',
      `DECLARE short_step INT DEFAULT 0; DECLARE emptied VARCHAR(4000) DEFAULT '';${report ? " DECLARE lefts VARCHAR(8000) DEFAULT '';" : ''}`,
      ...(prelude ? [prelude.declarations, ...prelude.statements] : []),
      ...body,
      "IF short_step > 0 THEN ROLLBACK; ELSEIF emptied = '' THEN COMMIT; END IF;",
      `SELECT ${selected.join(', ')};`,
      'END',
    ].join('\n');
    // Raw SQL is not reported to entity subscribers: tell them these rows change (the count caches).
    await announceRawWrites(manager, 'update', pools ? [TicketCapacityCounter, TicketPool] : [TicketCapacityCounter]);
    let raw: unknown;
    try {
      raw = await SqlDialect.of(manager).compound(() => manager.query(sql, [...(prelude?.parameters ?? []), ...parameters]));
    } catch (error) {
      throw held?.failure(error) ?? error;
    }
    if (raw === null) {
      // No compound statements here (MySQL): the held writes go one by one, then the caller takes as takeAll.
      await held?.sendEach((statement, values) => manager.query(statement, values));
      return null;
    }
    const row = firstRow(raw);
    held?.resolve(row.held_ids);
    const shortStep = Number(row.short_step);
    if (shortStep > 0) return { short: shortStep - 1, emptied: [], left: [] };
    const emptied = row.emptied
      .split(',')
      .filter((part) => part !== '')
      .map((part) => Number(part) - 1);
    if (emptied.length === 0) answerNextCommitLocally(manager.queryRunner!);
    const left = steps.map(() => NOT_REPORTED);
    for (const part of (row.lefts ?? '').split(',')) {
      const [step, units, capacity] = part.split(':');
      if (step && capacity) left[Number(step) - 1] = { left: Number(units), capacity: Number(capacity) };
    }
    return { short: null, emptied, left };
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
