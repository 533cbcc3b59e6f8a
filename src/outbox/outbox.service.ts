import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { EventType } from './event-types';
import { OutboxRepository } from './outbox.repository';

/** A notification's data: flat values, and lists of ids (bounded: see MAX_OCCURRENCES_PER_WRITE for series). */
export type EventData = Record<string, string | number | boolean | null | number[]>;

/** A message for one recipient or endpoint, written by the worker's fan-out or by a resend or redeliver. */
export interface DirectMessage {
  channel: 'email' | 'webhook';
  type: string;
  payload: string;
  recipient?: string | null;
  endpointId?: number | null;
  messageId?: string | null;
}

/**
 * What an order notification says of the order. The outbox takes these shapes, not the features'
 * entities, so that it stays below them; the entities have these fields and are passed as they are.
 */
export interface OrderFacts {
  id: number;
  status: string;
  provider: string;
  total: string;
  currency: string;
  purchaserName: string;
  purchaserEmail: string;
}

/** What an attendee notification says of the attendee. */
export interface AttendeeFacts {
  id: number;
  orderId: number;
  ticketId: number;
  eventId: number;
  holderName: string;
  holderEmail: string;
  orderStatus: string;
  checkinSource: string | null;
}

/** What `ticket.sold_out` says of the ticket. */
export interface TicketFacts {
  id: number;
  eventId: number;
  name: string;
}

/** What an `event.*` notification says of the event. */
export interface EventFacts {
  id: number;
  title: string;
  status: string;
  slug: string;
}

function orderData(order: OrderFacts): EventData {
  return {
    order_id: order.id,
    status: order.status,
    provider: order.provider,
    total: order.total,
    currency: order.currency,
    purchaser_name: order.purchaserName,
    purchaser_email: order.purchaserEmail,
  };
}

function attendeeData(attendee: AttendeeFacts): EventData {
  return {
    attendee_id: attendee.id,
    order_id: attendee.orderId,
    ticket_id: attendee.ticketId,
    event_id: attendee.eventId,
    holder_name: attendee.holderName,
    holder_email: attendee.holderEmail,
    order_status: attendee.orderStatus,
  };
}

/**
 * Writes notifications into the outbox with the caller's transaction manager, in the same
 * transaction as the change that causes them: a rollback writes nothing, a commit is delivered by
 * the worker (src/outbox-worker/) even if the process dies right after it.
 */
@Injectable()
export class OutboxService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: OutboxRepository,
  ) {}

  /** One notification of `type` per item of `data`, in one INSERT. */
  async publish(manager: EntityManager, type: EventType, ...data: EventData[]): Promise<void> {
    await this.publishAll(
      manager,
      data.map((item) => ({ type, data: item })),
    );
  }

  /** Notifications of several types, in one INSERT, in the order given. */
  async publishAll(manager: EntityManager, events: Array<{ type: EventType; data: EventData }>): Promise<void> {
    if (events.length === 0) return;
    const now = this.clock.now();
    await this.repository.insert(
      manager,
      events.map(({ type, data }) => ({
        channel: 'event' as const,
        type,
        payload: JSON.stringify(data),
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
  }

  /**
   * Checkout: `order.placed` and `attendee.created` for each attendee, in one INSERT, written
   * before the checkout takes capacity so that nothing but the take runs while it holds the
   * capacity rows; the transaction's rollback takes them back when the take fails.
   */
  async orderPlaced(manager: EntityManager, order: OrderFacts, attendees: AttendeeFacts[]): Promise<void> {
    await this.publishAll(manager, [
      { type: 'order.placed', data: orderData(order) },
      ...attendees.map((attendee) => ({ type: 'attendee.created' as const, data: attendeeData(attendee) })),
    ]);
  }

  /**
   * `ticket.sold_out` for the tickets a checkout took the last unit of (its own capacity or the
   * event's shared pool, as CapacityService.takeAll reports it), after that checkout's other
   * messages. Unlimited tickets never sell out.
   */
  async ticketsSoldOut(manager: EntityManager, tickets: TicketFacts[]): Promise<void> {
    await this.publish(
      manager,
      'ticket.sold_out',
      ...tickets.map((ticket) => ({ ticket_id: ticket.id, event_id: ticket.eventId, name: ticket.name })),
    );
  }

  /** Email or webhook messages, due now, in one INSERT. */
  async queue(manager: EntityManager, messages: DirectMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const now = this.clock.now();
    await this.repository.insert(
      manager,
      messages.map((message) => ({
        channel: message.channel,
        type: message.type,
        payload: message.payload,
        recipient: message.recipient ?? null,
        endpointId: message.endpointId ?? null,
        messageId: message.messageId ?? null,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
  }

  /** An order moved to completed, cancelled or refunded: `order` as it is now, read after the change. */
  async orderChanged(manager: EntityManager, order: OrderFacts | null, status: 'completed' | 'cancelled' | 'refunded'): Promise<void> {
    if (order) await this.publish(manager, `order.${status}`, orderData(order));
  }

  /** A check-in (`true`) or its undoing or an exit (`false`); `door` adds the list, the scan and the gate (src/checkin/). */
  async checkInChanged(manager: EntityManager, attendee: AttendeeFacts, checkedIn: boolean, door: EventData = {}): Promise<void> {
    await this.publish(manager, checkedIn ? 'attendee.checked_in' : 'attendee.checked_out', {
      ...attendeeData(attendee),
      checkin_source: attendee.checkinSource,
      ...door,
    });
  }

  /**
   * An event written: `event.published` when it became published, `event.updated` when a
   * published event changed (drafts are nobody's business), `event.trashed` when trashed or deleted.
   */
  async eventWritten(manager: EntityManager, event: EventFacts, previousStatus: string | null, removed = false): Promise<void> {
    const data = { event_id: event.id, title: event.title, slug: event.slug, status: event.status };
    if (removed) await this.publish(manager, 'event.trashed', data);
    else if (event.status === 'publish' && previousStatus !== 'publish') await this.publish(manager, 'event.published', data);
    else if (event.status === 'publish' || previousStatus === 'publish') await this.publish(manager, 'event.updated', data);
  }
}
