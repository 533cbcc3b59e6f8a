import { Injectable } from '@nestjs/common';
import type { AttendeeFacts, DomainEvent, OrderFacts, QueueChanged } from '../common/domain-events/domain-event';
import { DomainEventKind, OnDomainEvent } from '../common/domain-events/domain-events';
import { formatMoney, knownExponent } from '../common/money';
import { EventType } from './event-types';
import { EventData, OutboxService } from './outbox.service';

/** The kinds of domain events that notify (webhooks, emails): notificationsOf answers the others with nothing. */
const NOTIFYING = [
  'EventWritten',
  'SeriesOccurrencesCreated',
  'OrderPlaced',
  'OrderStatusChanged',
  'TicketsSoldOut',
  'CheckInChanged',
  'QueueChanged',
] as const satisfies readonly DomainEventKind[];

/** A notification to write: its type and what it says. */
export interface Notification {
  type: EventType;
  data: EventData;
}

function orderData(order: OrderFacts): EventData {
  return {
    order_id: order.id,
    status: order.status,
    provider: order.provider,
    total: formatMoney(order.totalMinor, knownExponent(order.currency)),
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

/** A waiting room's `queue.opened`, `queue.admitted` (one per tick that admitted) or `queue.closed`. */
function queueNotifications(event: QueueChanged): Notification[] {
  const data: EventData = { queue_id: event.queue.id, event_id: event.queue.eventId, datetime: event.at.toISOString() };
  if (event.change === 'opened') return [{ type: 'queue.opened', data: { ...data, prequeue_size: event.prequeueSize ?? 0 } }];
  if (event.change === 'closed') return [{ type: 'queue.closed', data: { ...data, reason: event.reason ?? 'closed' } }];
  const from = event.fromPosition ?? 0;
  const to = event.toPosition ?? from;
  const admitted = { admitted: to - from, from_position: from + 1, to_position: to, serving_counter: event.servingCounter ?? to };
  return [{ type: 'queue.admitted', data: { ...data, ...admitted } }];
}

/**
 * The notifications (docs/notifications.md) a domain event causes, in the order they are written.
 * Drafts are nobody's business: an event notifies when it becomes published (`event.published`),
 * when a published event changes or stops being published (`event.updated`), and when it is
 * trashed or deleted (`event.trashed`); a series' occurrences notify once for all of its published
 * ones, never one per occurrence (the first event also has its own `event.published`).
 */
export function notificationsOf(event: DomainEvent): Notification[] {
  switch (event.kind) {
    case 'EventWritten': {
      const { event: written, previousStatus } = event;
      const data = { event_id: written.id, title: written.title, slug: written.slug, status: written.status };
      if (event.removed) return [{ type: 'event.trashed', data }];
      if (written.status === 'publish' && previousStatus !== 'publish') return [{ type: 'event.published', data }];
      if (written.status === 'publish' || previousStatus === 'publish') return [{ type: 'event.updated', data }];
      return [];
    }
    case 'SeriesOccurrencesCreated': {
      const { series } = event;
      const published = event.occurrences.filter((occurrence) => occurrence.status === 'publish');
      if (published.length === 0) return [];
      const type = event.reason === 'created' ? 'series.published' : 'series.extended';
      const data = {
        series_id: series.id,
        first_event_id: series.firstEventId,
        title: published[0].title,
        timezone: series.timezone,
        rrule: series.rrule,
        occurrence_count: published.length,
        first_start_date: published[0].startLocal,
        last_start_date: published[published.length - 1].startLocal,
        event_ids: published.map((occurrence) => occurrence.id),
      };
      return [{ type, data }];
    }
    case 'OrderPlaced':
      return [
        { type: 'order.placed', data: orderData(event.order) },
        ...event.attendees.map((attendee) => ({ type: 'attendee.created' as const, data: attendeeData(attendee) })),
      ];
    case 'OrderStatusChanged':
      return [{ type: `order.${event.status}`, data: orderData(event.order) }];
    case 'TicketsSoldOut':
      return event.tickets.map((ticket) => ({
        type: 'ticket.sold_out',
        data: { ticket_id: ticket.id, event_id: ticket.eventId, name: ticket.name },
      }));
    case 'CheckInChanged': {
      const { attendee, scan } = event;
      const data = {
        ...attendeeData(attendee),
        checkin_source: attendee.checkinSource,
        list_id: scan.listId,
        list_name: scan.listName,
        checkin_id: scan.checkinId,
        type: scan.type,
        forced: scan.forced,
        device_id: scan.deviceId,
        gate: scan.gate,
        datetime: scan.at.toISOString(),
      };
      return [{ type: event.checkedIn ? 'attendee.checked_in' : 'attendee.checked_out', data }];
    }
    case 'QueueChanged':
      return queueNotifications(event);
    case 'UnitsReleased':
    case 'UnitsTaken':
    case 'RowsWritten':
      return [];
  }
}

/**
 * Writes the notifications of what a write published into the outbox, in the write's transaction
 * (DomainEvents): a rollback writes none, a commit has them all. The notifications of one publish
 * go in one INSERT: a checkout's `order.placed` and its `attendee.created` are written before it
 * takes capacity, so that nothing but the take runs while it holds the capacity rows.
 */
@Injectable()
export class OutboxNotifications {
  constructor(private readonly outbox: OutboxService) {}

  @OnDomainEvent(NOTIFYING)
  async writeNotifications(events: readonly DomainEvent[]): Promise<void> {
    await this.outbox.publishAll(events.flatMap(notificationsOf));
  }
}
