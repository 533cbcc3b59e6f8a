import { Injectable } from '@nestjs/common';
import { Event } from '../events/event.entity';
import type { PostStatus } from '../posts/post-status';
import { Ticket } from '../tickets/ticket.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** What the door's sale view reads. */
@Injectable()
export class DoorSalesRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The event's commerce tickets, with their counts, in the order the event lists them; one query (and one for the event). */
  async saleTickets(eventId: number): Promise<{ tickets: Ticket[]; eventStatus: PostStatus }> {
    const manager = this.tx.manager;
    const event = await manager.findOne(Event, { select: { id: true, status: true }, where: { id: eventId } });
    const tickets = await manager.find(Ticket, { where: { eventId, provider: 'tc' }, order: { menuOrder: 'ASC', id: 'ASC' } });
    return { tickets, eventStatus: event?.status ?? 'trash' };
  }
}
