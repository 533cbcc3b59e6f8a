import { Injectable } from '@nestjs/common';
import { Attendee } from '../attendees/attendee.entity';
import { SqlDialect } from '../database/sql-dialect';
import { Event } from '../events/event.entity';
import { Order } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** Every statement of the attendee questions: the attendee whose answers change, and what decides who may change them. */
@Injectable()
export class AttendeeQuestionsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The attendee, locked until the transaction ends (MariaDB). */
  lockAttendee(id: number): Promise<Attendee | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(Attendee, 'attendee').where('attendee.id = :id', { id });
    SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  event(id: number): Promise<Event> {
    const manager = this.tx.manager;
    return manager.findOneOrFail(Event, { where: { id } });
  }

  ticket(id: number): Promise<Ticket> {
    const manager = this.tx.manager;
    return manager.findOneOrFail(Ticket, { where: { id } });
  }

  /** The cart token the order was placed with (null for a signed-in buyer's), or undefined when there is no such order. */
  async orderCartToken(orderId: number): Promise<string | null | undefined> {
    const manager = this.tx.manager;
    const order = await manager.findOne(Order, { select: { id: true, cartToken: true }, where: { id: orderId } });
    return order?.cartToken;
  }

  /** How many attendees of the same order and ticket come before this one (lower id). */
  countEarlierUnits(attendee: Pick<Attendee, 'id' | 'orderId' | 'ticketId'>): Promise<number> {
    const manager = this.tx.manager;
    return manager
      .createQueryBuilder(Attendee, 'other')
      .where('other.orderId = :orderId AND other.ticketId = :ticketId AND other.id < :id', {
        orderId: attendee.orderId,
        ticketId: attendee.ticketId,
        id: attendee.id,
      })
      .getCount();
  }

  async setAnswers(attendeeId: number, meta: string | null, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().update(Attendee).set({ meta, updatedAt: now }).where('id = :id', { id: attendeeId }).execute();
  }
}
