import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { SqlDialect } from '../database/sql-dialect';
import { Event } from '../events/event.entity';
import { Order } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';

/** Every statement of the attendee questions: the attendee whose answers change, and what decides who may change them. */
@Injectable()
export class AttendeeQuestionsRepository {
  /** The attendee, locked until the transaction ends (MariaDB). */
  lockAttendee(manager: EntityManager, id: number): Promise<Attendee | null> {
    const query = manager.createQueryBuilder(Attendee, 'attendee').where('attendee.id = :id', { id });
    SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  event(manager: EntityManager, id: number): Promise<Event> {
    return manager.findOneOrFail(Event, { where: { id } });
  }

  ticket(manager: EntityManager, id: number): Promise<Ticket> {
    return manager.findOneOrFail(Ticket, { where: { id } });
  }

  /** The cart token the order was placed with (null for a signed-in buyer's), or undefined when there is no such order. */
  async orderCartToken(manager: EntityManager, orderId: number): Promise<string | null | undefined> {
    const order = await manager.findOne(Order, { select: { id: true, cartToken: true }, where: { id: orderId } });
    return order?.cartToken;
  }

  /** How many attendees of the same order and ticket come before this one (lower id). */
  countEarlierUnits(manager: EntityManager, attendee: Pick<Attendee, 'id' | 'orderId' | 'ticketId'>): Promise<number> {
    return manager
      .createQueryBuilder(Attendee, 'other')
      .where('other.orderId = :orderId AND other.ticketId = :ticketId AND other.id < :id', {
        orderId: attendee.orderId,
        ticketId: attendee.ticketId,
        id: attendee.id,
      })
      .getCount();
  }

  async setAnswers(manager: EntityManager, attendeeId: number, meta: string | null, now: Date): Promise<void> {
    await manager.createQueryBuilder().update(Attendee).set({ meta, updatedAt: now }).where('id = :id', { id: attendeeId }).execute();
  }
}
