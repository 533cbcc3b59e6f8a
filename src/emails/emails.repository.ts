import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { Event } from '../events/event.entity';
import { Order } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** What the buyer's emails read: an order, its attendees, their tickets and events. */
@Injectable()
export class EmailsRepository {
  constructor(private readonly tx: TransactionHost) {}

  findOrder(id: number): Promise<Order | null> {
    const manager = this.tx.manager;
    return manager.findOne(Order, { where: { id } });
  }

  findAttendee(id: number): Promise<Attendee | null> {
    const manager = this.tx.manager;
    return manager.findOne(Attendee, { where: { id } });
  }

  /** The order's attendees, in the order they were written. */
  attendeesOfOrder(orderId: number): Promise<Attendee[]> {
    const manager = this.tx.manager;
    return manager.find(Attendee, { where: { orderId }, order: { id: 'ASC' } });
  }

  async tickets(ids: number[]): Promise<Map<number, Ticket>> {
    const manager = this.tx.manager;
    const tickets = ids.length ? await manager.find(Ticket, { where: { id: In(ids) } }) : [];
    return new Map(tickets.map((ticket) => [ticket.id, ticket]));
  }

  /** The events, earliest first. */
  events(ids: number[]): Promise<Event[]> {
    const manager = this.tx.manager;
    return ids.length ? manager.find(Event, { where: { id: In(ids) }, order: { startUtc: 'ASC' } }) : Promise.resolve([]);
  }

  /** The events the order's attendees go to, earliest first. */
  async eventsOfOrder(orderId: number): Promise<Event[]> {
    const manager = this.tx.manager;
    const attendees = await manager.find(Attendee, { where: { orderId } });
    return this.events([...new Set(attendees.map((attendee) => attendee.eventId))]);
  }

  /** The event's id and author: what deciding who manages it needs. */
  eventAuthor(id: number): Promise<Pick<Event, 'id' | 'authorId'> | null> {
    const manager = this.tx.manager;
    return manager.findOne(Event, { select: { id: true, authorId: true }, where: { id } });
  }
}
