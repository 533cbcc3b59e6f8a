import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { Event } from '../events/event.entity';
import { Order } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';

/** What the buyer's emails read: an order, its attendees, their tickets and events. */
@Injectable()
export class EmailsRepository {
  findOrder(manager: EntityManager, id: number): Promise<Order | null> {
    return manager.findOne(Order, { where: { id } });
  }

  findAttendee(manager: EntityManager, id: number): Promise<Attendee | null> {
    return manager.findOne(Attendee, { where: { id } });
  }

  /** The order's attendees, in the order they were written. */
  attendeesOfOrder(manager: EntityManager, orderId: number): Promise<Attendee[]> {
    return manager.find(Attendee, { where: { orderId }, order: { id: 'ASC' } });
  }

  async tickets(manager: EntityManager, ids: number[]): Promise<Map<number, Ticket>> {
    const tickets = ids.length ? await manager.find(Ticket, { where: { id: In(ids) } }) : [];
    return new Map(tickets.map((ticket) => [ticket.id, ticket]));
  }

  /** The events, earliest first. */
  events(manager: EntityManager, ids: number[]): Promise<Event[]> {
    return ids.length ? manager.find(Event, { where: { id: In(ids) }, order: { startUtc: 'ASC' } }) : Promise.resolve([]);
  }

  /** The events the order's attendees go to, earliest first. */
  async eventsOfOrder(manager: EntityManager, orderId: number): Promise<Event[]> {
    const attendees = await manager.find(Attendee, { where: { orderId } });
    return this.events(manager, [...new Set(attendees.map((attendee) => attendee.eventId))]);
  }

  /** The event's id and author: what deciding who manages it needs. */
  eventAuthor(manager: EntityManager, id: number): Promise<Pick<Event, 'id' | 'authorId'> | null> {
    return manager.findOne(Event, { select: { id: true, authorId: true }, where: { id } });
  }
}
