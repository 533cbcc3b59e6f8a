import { Injectable } from '@nestjs/common';
import { In, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { HeldWrites } from '../common/database/held-writes';
import { insertedId } from '../common/database/inserted-id';
import { KeptInserts } from '../common/database/kept-statements';
import { SqlDialect } from '../database/sql-dialect';
import { Event } from '../events/event.entity';
import type { CapacityLine } from '../tickets/capacity.service';
import { Ticket } from '../tickets/ticket.entity';
import { ListOrdersQuery } from './dto/list-orders.query';
import { Order, OrderItem, OrderStatus } from './order.entity';
import type { OrderRelations } from './orders.mapper';
import { TransactionHost } from '../common/database/transaction-host';
import { OrderViewer, applyOrderVisibility } from '../access/order-access';

/** Rows per multi-row INSERT, well within SQLite's limit on bound parameters. */
const INSERT_BATCH_ROWS = 200;

/** What a RETURNING of the attendees' INSERT answers. */
type StoredCode = { id: number | string; security_code: string };

/** An attendee as inserted: every column but the generated id. */
export type AttendeeRow = Omit<Attendee, 'id'>;

/** The filters of GET /orders over the orders aliased `alias` (shared with the orders export). */
export function filterOrderList<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, alias: string, query: ListOrdersQuery): void {
  if (query.status?.length) builder.andWhere(`${alias}.status IN (:...statuses)`, { statuses: query.status });
}

/** Every statement on orders, their items, and the attendees an order places and moves along. */
@Injectable()
export class OrdersRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** A checkout's INSERTs (order, items, attendees): their SQL written once per shape. */
  private readonly inserts = new KeptInserts();

  // ---------------------------------------------------------------- reading

  findById(id: number): Promise<Order | null> {
    const manager = this.tx.manager;
    return manager.findOne(Order, { where: { id } });
  }

  /**
   * A page of the orders the viewer sees (GET /orders' filters), lowest id first, and how many
   * match; null, without a statement, when the viewer can see none.
   */
  async page(viewer: OrderViewer, query: ListOrdersQuery, offset: number, limit: number): Promise<[Order[], number] | null> {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(Order, 'purchase');
    if (!applyOrderVisibility(builder, 'purchase', viewer)) return null;
    filterOrderList(builder, 'purchase', query);
    return builder.orderBy('purchase.id', 'ASC').skip(offset).take(limit).getManyAndCount();
  }

  /** Attendees, tickets and event time zones of a page of orders: three queries whatever its size. */
  async relations(orderIds: number[]): Promise<Map<number, OrderRelations>> {
    const manager = this.tx.manager;
    const byOrder = new Map<number, OrderRelations>();
    if (orderIds.length === 0) return byOrder;
    const attendees = await manager.find(Attendee, { where: { orderId: In(orderIds) }, order: { id: 'ASC' } });
    const ticketIds = [...new Set(attendees.map((attendee) => attendee.ticketId))];
    const eventIds = [...new Set(attendees.map((attendee) => attendee.eventId))];
    const tickets = ticketIds.length === 0 ? [] : await manager.find(Ticket, { where: { id: In(ticketIds) } });
    const events =
      eventIds.length === 0 ? [] : await manager.find(Event, { select: { id: true, timezone: true }, where: { id: In(eventIds) } });
    const ticketMap = new Map(tickets.map((ticket) => [ticket.id, ticket]));
    const eventTimezones = new Map(events.map((event) => [event.id, event.timezone]));
    for (const orderId of orderIds) byOrder.set(orderId, { attendees: [], tickets: ticketMap, eventTimezones });
    for (const attendee of attendees) byOrder.get(attendee.orderId)?.attendees.push(attendee);
    return byOrder;
  }

  /** The events an order sells tickets for (from its items), with who manages them. */
  async events(orderId: number): Promise<Array<Pick<Event, 'id' | 'authorId'>>> {
    const manager = this.tx.manager;
    const rows = await manager
      .createQueryBuilder(Ticket, 'ticket')
      .innerJoin(OrderItem, 'item', 'item.ticketId = ticket.id')
      .select('ticket.eventId', 'eventId')
      .distinct(true)
      .where('item.orderId = :orderId', { orderId })
      .getRawMany<{ eventId: number | string }>();
    const ids = rows.map((row) => Number(row.eventId));
    if (ids.length === 0) return [];
    return manager.find(Event, { select: { id: true, authorId: true }, where: { id: In(ids) } });
  }

  /** Ids of pending orders whose hold lapsed at or before `now`, the longest lapsed first. */
  async lapsedPendingIds(now: Date, limit: number): Promise<number[]> {
    const manager = this.tx.manager;
    const due = await manager
      .createQueryBuilder(Order, 'purchase')
      .select('purchase.id')
      .where('purchase.status = :pending AND purchase.expiresAt <= :now', { pending: 'pending', now })
      .orderBy('purchase.expiresAt', 'ASC')
      .take(limit)
      .getMany();
    return due.map(({ id }) => id);
  }

  /** Units the order holds per ticket, lowest ticket id first: its attendees, except RSVP "not going" answers. */
  async heldUnits(orderId: number): Promise<CapacityLine[]> {
    const manager = this.tx.manager;
    const rows = await manager
      .createQueryBuilder(Attendee, 'attendee')
      .select('attendee.ticketId', 'ticketId')
      .addSelect('COUNT(*)', 'units')
      .where('attendee.orderId = :orderId', { orderId })
      .andWhere('(attendee.rsvpGoing IS NULL OR attendee.rsvpGoing = :going)', { going: true })
      .groupBy('attendee.ticketId')
      .orderBy('attendee.ticketId', 'ASC')
      .getRawMany<{ ticketId: number | string; units: number | string }>();
    if (rows.length === 0) return [];
    const tickets = await manager.find(Ticket, { where: { id: In(rows.map((row) => Number(row.ticketId))) } });
    const byId = new Map(tickets.map((ticket) => [ticket.id, ticket]));
    return rows.flatMap((row) => {
      const ticket = byId.get(Number(row.ticketId));
      return ticket ? [{ ticket, quantity: Number(row.units) }] : [];
    });
  }

  // ---------------------------------------------------------------- status moves (conditional: true for the caller that moved it)

  /** pending → completed, clearing its hold, only while the hold has not lapsed at `now`. */
  async complete(orderId: number, from: OrderStatus, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Order)
      .set({ status: 'completed', updatedAt: now, completedAt: now, expiresAt: null })
      .where('id = :orderId AND status = :from', { orderId, from })
      // A payment that arrives after the hold lapsed cannot complete the order: its units may be sold again.
      .andWhere('(expires_at IS NULL OR expires_at > :now)', { now })
      .execute();
    return Boolean(result.affected);
  }

  /** from → to (cancelled or refunded), only if the order is still in `from`. */
  async move(orderId: number, from: OrderStatus, to: OrderStatus, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Order)
      .set({ status: to, updatedAt: now })
      .where('id = :orderId AND status = :from', { orderId, from })
      .execute();
    return Boolean(result.affected);
  }

  /** expired → completed (a late payment whose units are taken again). */
  async revive(orderId: number, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const revived = await manager
      .createQueryBuilder()
      .update(Order)
      .set({ status: 'completed', completedAt: now, expiresAt: null, updatedAt: now })
      .where('id = :orderId AND status = :expired', { orderId, expired: 'expired' })
      .execute();
    return Boolean(revived.affected);
  }

  /** expired or cancelled → refunded. */
  async markEndedRefunded(orderId: number, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Order)
      .set({ status: 'refunded', updatedAt: now })
      .where('id = :orderId AND status IN (:...ended)', { orderId, ended: ['expired', 'cancelled'] })
      .execute();
    return Boolean(result.affected);
  }

  /** pending → expired, only once its hold has lapsed at `now`. */
  async expire(orderId: number, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const expired = await manager
      .createQueryBuilder()
      .update(Order)
      .set({ status: 'expired', updatedAt: now })
      .where('id = :orderId AND status = :pending AND expires_at <= :now', { orderId, pending: 'pending', now })
      .execute();
    return Boolean(expired.affected);
  }

  /** Sets the order status every attendee of the order carries; `revokeSecrets` revokes their check-in secrets too. */
  async setAttendeeStatus(orderId: number, status: OrderStatus, now: Date, revokeSecrets: boolean): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ orderStatus: status, updatedAt: now, ...(revokeSecrets ? { checkinRevokedAt: now } : {}) })
      .where('order_id = :orderId', { orderId })
      .execute();
  }

  // ---------------------------------------------------------------- checkout inserts

  /** Inserts the order row as given and sets its generated id on it. */
  async insert(order: Order): Promise<Order> {
    const manager = this.tx.manager;
    order.id = insertedId(await this.inserts.insert(manager, Order, [order]));
    return order;
  }

  async insertItems(items: Array<Pick<OrderItem, 'orderId' | 'ticketId' | 'quantity' | 'unitPriceMinor'>>): Promise<void> {
    const manager = this.tx.manager;
    await this.inserts.insert(manager, OrderItem, items);
  }

  /**
   * Multi-row INSERTs of INSERT_BATCH_ROWS rows at most; the attendees as stored, ids included, in
   * row order. Their ids come back with the INSERT where the server can (MariaDB's RETURNING), else
   * from one read of the order's ids; the rest of each row is what was inserted. While the
   * transaction holds its writes (held-writes.ts), one INSERT per attendee, each id a stand-in until
   * the writes are sent: all of them go in the one statement that ends the checkout.
   */
  async insertAttendees(rows: AttendeeRow[]): Promise<Attendee[]> {
    const manager = this.tx.manager;
    if (HeldWrites.of(manager)) {
      const attendees: Attendee[] = [];
      for (const row of rows) {
        const id = insertedId(await this.inserts.insert(manager, Attendee, [row]));
        attendees.push(Object.assign(new Attendee(), row, { id }));
      }
      return attendees;
    }
    const returning = SqlDialect.of(manager).insertReturning;
    const idsByCode = new Map<string, number>();
    const remember = (stored: StoredCode[]) => {
      for (const row of stored) idsByCode.set(row.security_code, Number(row.id));
    };
    for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
      const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
      if (returning)
        remember((await this.inserts.insert(manager, Attendee, batch, { suffix: ' RETURNING id, security_code' })) as StoredCode[]);
      else await this.inserts.insert(manager, Attendee, batch);
    }
    if (!returning && rows.length > 0) {
      remember(await manager.query('SELECT id, security_code FROM attendees WHERE order_id = ?', [rows[0].orderId]));
    }
    return rows.map((row) => {
      const id = idsByCode.get(row.securityCode);
      if (id === undefined) throw new Error(`the attendee inserted with security code ${row.securityCode} has no id`);
      return Object.assign(new Attendee(), row, { id });
    });
  }
}
