import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { inSlices } from '../common/database/bulk-insert';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { TicketPool } from '../tickets/ticket-pool.entity';
import { SALES_MEASURES, SalesCounts, SalesDaily, SalesLedgerEntry } from './sales-ledger.entity';

/** Sales counts of one ticket on one UTC day. */
export interface TicketDaySales extends SalesCounts {
  ticketId: number;
  day: string;
}

type RawSums = Record<string, string | number | null>;

const SUMS = SALES_MEASURES.map((measure) => `COALESCE(SUM(${measure}), 0) AS ${measure}`).join(', ');

export function emptyCounts(): SalesCounts {
  return Object.fromEntries(SALES_MEASURES.map((measure) => [measure, 0])) as SalesCounts;
}

function countsOf(row: RawSums): SalesCounts {
  return Object.fromEntries(SALES_MEASURES.map((measure) => [measure, Number(row[measure] ?? 0)])) as SalesCounts;
}

/** The statements of reports and of the ledger's fold. */
@Injectable()
export class ReportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findEvent(eventId: number): Promise<Pick<Event, 'id' | 'authorId'> | null> {
    return this.dataSource.manager.findOne(Event, { select: { id: true, authorId: true }, where: { id: eventId } });
  }

  /** The event's tickets with their sold and pending counts (from their capacity counters), by id. */
  ticketsOf(eventId: number): Promise<Ticket[]> {
    return this.dataSource.manager.find(Ticket, { where: { eventId }, order: { id: 'ASC' } });
  }

  poolOf(eventId: number): Promise<TicketPool | null> {
    return this.dataSource.manager.findOne(TicketPool, { where: { eventId } });
  }

  /**
   * Sales per ticket and day of one event within [from, to]: the folded days plus the ledger rows
   * not yet folded, two index ranges over (event_id, day).
   */
  async salesByTicketAndDay(eventId: number, from: string, to: string): Promise<TicketDaySales[]> {
    const query = (table: string) =>
      this.dataSource.query<Array<RawSums & { ticket_id: number | string; day: string }>>(
        `SELECT ticket_id, day, ${SUMS} FROM ${table} WHERE event_id = ? AND day >= ? AND day <= ? GROUP BY ticket_id, day`,
        [eventId, from, to],
      );
    const rows = [...(await query('sales_daily')), ...(await query('sales_ledger'))];
    return rows.map((row) => ({ ticketId: Number(row.ticket_id), day: String(row.day), ...countsOf(row) }));
  }

  /** Sales per ticket of one event, over all days. */
  async salesByTicket(eventId: number): Promise<Map<number, SalesCounts>> {
    const query = (table: string) =>
      this.dataSource.query<Array<RawSums & { ticket_id: number | string }>>(
        `SELECT ticket_id, ${SUMS} FROM ${table} WHERE event_id = ? GROUP BY ticket_id`,
        [eventId],
      );
    const totals = new Map<number, SalesCounts>();
    for (const row of [...(await query('sales_daily')), ...(await query('sales_ledger'))]) {
      const ticketId = Number(row.ticket_id);
      const sum = totals.get(ticketId) ?? emptyCounts();
      const counts = countsOf(row);
      for (const measure of SALES_MEASURES) sum[measure] += counts[measure];
      totals.set(ticketId, sum);
    }
    return totals;
  }

  /** Names of tickets that are no longer there but have sales (by id). */
  async ticketNames(ticketIds: number[]): Promise<Map<number, string>> {
    if (ticketIds.length === 0) return new Map();
    const tickets = await this.dataSource.manager.find(Ticket, { select: { id: true, name: true }, where: { id: In(ticketIds) } });
    return new Map(tickets.map((ticket) => [ticket.id, ticket.name]));
  }

  // ---------------------------------------------------------------- fold

  /**
   * Up to `limit` ledger rows, oldest first, locked for the caller's transaction; on MariaDB rows
   * locked by another fold or by a transaction still writing them are skipped.
   */
  lockOldestLedgerRows(manager: EntityManager, limit: number): Promise<SalesLedgerEntry[]> {
    let rows = manager.createQueryBuilder(SalesLedgerEntry, 'entry').orderBy('entry.id').limit(limit);
    if (manager.connection.options.type === 'mysql') rows = rows.setLock('pessimistic_write').setOnLocked('skip_locked');
    return rows.getMany();
  }

  async deleteLedgerRows(manager: EntityManager, ids: number[]): Promise<void> {
    for (const slice of inSlices(ids)) await manager.delete(SalesLedgerEntry, { id: In(slice) });
  }

  /** Adds folded sums to their (ticket, day) rows, creating those that are missing. */
  async addToDaily(manager: EntityManager, rows: SalesDaily[]): Promise<void> {
    const mysql = manager.connection.options.type === 'mysql';
    const columns = ['ticket_id', 'day', 'event_id', ...SALES_MEASURES];
    const add = SALES_MEASURES.map((measure) =>
      mysql ? `${measure} = ${measure} + VALUES(${measure})` : `${measure} = ${measure} + excluded.${measure}`,
    ).join(', ');
    const conflict = mysql ? `ON DUPLICATE KEY UPDATE ${add}` : `ON CONFLICT (ticket_id, day) DO UPDATE SET ${add}`;
    for (let start = 0; start < rows.length; start += 200) {
      const slice = rows.slice(start, start + 200);
      const values = slice.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
      const parameters = slice.flatMap((row) => [
        row.ticketId,
        row.day,
        row.eventId,
        row.soldUnits,
        row.soldCents,
        row.refundedUnits,
        row.refundedCents,
        row.cancelledUnits,
        row.cancelledCents,
        row.checkedIn,
      ]);
      await manager.query(`INSERT INTO sales_daily (${columns.join(', ')}) VALUES ${values} ${conflict}`, parameters);
    }
  }
}
