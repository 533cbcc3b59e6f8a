import { EntityManager, In } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { OrderItem } from './order.entity';
import type { OrderRelations } from './orders.mapper';

/** Attendees, tickets and event time zones of a page of orders: three queries whatever its size. */
export async function loadOrderRelations(manager: EntityManager, orderIds: number[]): Promise<Map<number, OrderRelations>> {
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

/** Ids of the events an order sells tickets for, from its items. */
export async function orderEventIds(manager: EntityManager, orderId: number): Promise<number[]> {
  const rows = await manager
    .createQueryBuilder(Ticket, 'ticket')
    .innerJoin(OrderItem, 'item', 'item.ticketId = ticket.id')
    .select('ticket.eventId', 'eventId')
    .distinct(true)
    .where('item.orderId = :orderId', { orderId })
    .getRawMany<{ eventId: number | string }>();
  return rows.map((row) => Number(row.eventId));
}
