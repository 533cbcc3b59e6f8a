import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { inSlices } from '../common/database/bulk-insert';
import { CheckinList } from '../checkin/checkin-list.entity';
import { CheckinPosition } from '../checkin/checkin-position.entity';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { TicketPool } from '../tickets/ticket-pool.entity';
import { WaitlistEntry } from '../waitlist/waitlist-entry.entity';
import { SALES_MEASURES, SalesCounts, SalesDaily, SalesLedgerEntry } from './sales-ledger.entity';
import { SqlDialect } from '../database/sql-dialect';
import { TransactionHost } from '../common/database/transaction-host';

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
  constructor(private readonly tx: TransactionHost) {}

  findEvent(eventId: number): Promise<Pick<Event, 'id' | 'authorId'> | null> {
    return this.tx.manager.findOne(Event, { select: { id: true, authorId: true }, where: { id: eventId } });
  }

  /** The event's tickets with their sold and pending counts (from their capacity counters), by id. */
  ticketsOf(eventId: number): Promise<Ticket[]> {
    return this.tx.manager.find(Ticket, { where: { eventId }, order: { id: 'ASC' } });
  }

  /**
   * Completed orders of the event's commerce tickets, their units and amounts, per payment method:
   * an index range of the order lines of each ticket (IDX_order_items_ticket) joined to their orders.
   * Orders, not attendees: one row per order and ticket.
   */
  async salesByPaymentMethod(
    eventId: number,
  ): Promise<Array<{ paymentMethod: string; orders: number; sold: number; amountMinor: number }>> {
    const rows = await this.tx.dataSource.query<Array<Record<string, string | number | null>>>(
      'SELECT o.payment_method AS payment_method, COUNT(DISTINCT o.id) AS orders, COALESCE(SUM(i.quantity), 0) AS sold, ' +
        'COALESCE(SUM(i.quantity * i.unit_price_minor), 0) AS amount FROM tickets t ' +
        'INNER JOIN order_items i ON i.ticket_id = t.id INNER JOIN orders o ON o.id = i.order_id ' +
        "WHERE t.event_id = ? AND t.provider = 'tc' AND o.status = 'completed' GROUP BY o.payment_method",
      [eventId],
    );
    return rows.map((row) => ({
      paymentMethod: String(row.payment_method),
      orders: Number(row.orders ?? 0),
      sold: Number(row.sold ?? 0),
      amountMinor: Number(row.amount ?? 0),
    }));
  }

  poolOf(eventId: number): Promise<TicketPool | null> {
    return this.tx.manager.findOne(TicketPool, { where: { eventId } });
  }

  /**
   * Sales per ticket and day of one event within [from, to]: the folded days plus the ledger rows
   * not yet folded, two index ranges over (event_id, day).
   */
  async salesByTicketAndDay(eventId: number, from: string, to: string): Promise<TicketDaySales[]> {
    const query = (table: string) =>
      this.tx.dataSource.query<Array<RawSums & { ticket_id: number | string; day: string }>>(
        `SELECT ticket_id, day, ${SUMS} FROM ${table} WHERE event_id = ? AND day >= ? AND day <= ? GROUP BY ticket_id, day`,
        [eventId, from, to],
      );
    const rows = [...(await query('sales_daily')), ...(await query('sales_ledger'))];
    return rows.map((row) => ({ ticketId: Number(row.ticket_id), day: String(row.day), ...countsOf(row) }));
  }

  /** Sales per ticket of one event, over all days. */
  async salesByTicket(eventId: number): Promise<Map<number, SalesCounts>> {
    const query = (table: string) =>
      this.tx.dataSource.query<Array<RawSums & { ticket_id: number | string }>>(
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
    const tickets = await this.tx.manager.find(Ticket, { select: { id: true, name: true }, where: { id: In(ticketIds) } });
    return new Map(tickets.map((ticket) => [ticket.id, ticket.name]));
  }

  // ---------------------------------------------------------------- check-in lists, waitlist

  /** The event's check-in lists (src/checkin), by id: one index range over (event_id, id). */
  checkinLists(eventId: number): Promise<Array<Pick<CheckinList, 'id' | 'name'>>> {
    return this.tx.manager.find(CheckinList, { select: { id: true, name: true }, where: { eventId }, order: { id: 'ASC' } });
  }

  /**
   * Per list: attendees who entered at least once and those inside now, from the lists' positions
   * (one row per attendee who scanned on a list; index range over (list_id, attendee_id)).
   */
  async listPositions(listIds: number[]): Promise<Map<number, { checkedIn: number; inside: number }>> {
    if (listIds.length === 0) return new Map();
    const rows = await this.tx.dataSource
      .createQueryBuilder(CheckinPosition, 'position')
      .select('position.listId', 'listId')
      .addSelect('COUNT(*)', 'checkedIn')
      .addSelect('SUM(CASE WHEN position.inside THEN 1 ELSE 0 END)', 'inside')
      .where('position.listId IN (:...listIds)', { listIds })
      .andWhere('position.entries > 0')
      .groupBy('position.listId')
      .getRawMany<{ listId: number | string; checkedIn: number | string; inside: number | string | null }>();
    return new Map(rows.map((row) => [Number(row.listId), { checkedIn: Number(row.checkedIn), inside: Number(row.inside ?? 0) }]));
  }

  /**
   * Successful scans of the event's lists per list, UTC day and type within [from, to], from the
   * check-in history (index range over (event_id, id), the event's scans only).
   */
  async scansByListAndDay(
    eventId: number,
    from: string,
    to: string,
  ): Promise<Array<{ listId: number; day: string; type: string; scans: number }>> {
    const day = this.tx.dialect.dayOf('scanned_at');
    const end = new Date(`${to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    const rows = await this.tx.dataSource.query<Array<{ list_id: number | string; day: string; type: string; scans: number | string }>>(
      `SELECT list_id, ${day} AS day, type, COUNT(*) AS scans FROM checkins ` +
        'WHERE event_id = ? AND successful = 1 AND scanned_at >= ? AND scanned_at < ? GROUP BY list_id, ' +
        `${day}, type`,
      [eventId, `${from} 00:00:00`, `${end.toISOString().slice(0, 10)} 00:00:00`],
    );
    return rows.map((row) => ({ listId: Number(row.list_id), day: String(row.day), type: row.type, scans: Number(row.scans) }));
  }

  /**
   * Units and entries waiting on the tickets' waitlists (src/waitlist): an index range over
   * (ticket_id, status) per ticket.
   */
  async waitingPerTicket(ticketIds: number[]): Promise<Map<number, { units: number; entries: number }>> {
    if (ticketIds.length === 0) return new Map();
    const rows = await this.tx.dataSource
      .createQueryBuilder(WaitlistEntry, 'entry')
      .select('entry.ticketId', 'ticketId')
      .addSelect('COALESCE(SUM(entry.quantity), 0)', 'units')
      .addSelect('COUNT(*)', 'entries')
      .where('entry.ticketId IN (:...ticketIds)', { ticketIds })
      .andWhere('entry.status = :waiting', { waiting: 'waiting' })
      .groupBy('entry.ticketId')
      .getRawMany<{ ticketId: number | string; units: number | string; entries: number | string }>();
    return new Map(rows.map((row) => [Number(row.ticketId), { units: Number(row.units), entries: Number(row.entries) }]));
  }

  // ---------------------------------------------------------------- fold

  /**
   * Up to `limit` ledger rows, oldest first, locked for the caller's transaction; on MariaDB rows
   * locked by another fold or by a transaction still writing them are skipped.
   */
  lockOldestLedgerRows(limit: number): Promise<SalesLedgerEntry[]> {
    const manager = this.tx.manager;
    return SqlDialect.of(manager)
      .forUpdateSkipLocked(manager.createQueryBuilder(SalesLedgerEntry, 'entry').orderBy('entry.id').limit(limit))
      .getMany();
  }

  async deleteLedgerRows(ids: number[]): Promise<void> {
    const manager = this.tx.manager;
    for (const slice of inSlices(ids)) await manager.delete(SalesLedgerEntry, { id: In(slice) });
  }

  /** Adds folded sums to their (ticket, day) rows, creating those that are missing. */
  async addToDaily(rows: SalesDaily[]): Promise<void> {
    const manager = this.tx.manager;
    const dialect = SqlDialect.of(manager);
    const columns = ['ticket_id', 'day', 'event_id', ...SALES_MEASURES];
    const add = SALES_MEASURES.map((measure) => `${measure} = ${measure} + ${dialect.inserted(measure)}`).join(', ');
    const conflict = dialect.onConflictUpdate(['ticket_id', 'day'], add);
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
        row.couponUnits,
        row.discountCents,
      ]);
      await manager.query(`INSERT INTO sales_daily (${columns.join(', ')}) VALUES ${values} ${conflict}`, parameters);
    }
  }
}
