import type { AttendeeFacts, DomainEvent, EventFacts, OrderFacts } from '../common/domain-events/domain-event';
import { DomainEvents } from '../common/domain-events/domain-events';
import { notificationsOf, OutboxNotifications } from './outbox-notifications';
import type { OutboxService } from './outbox.service';
import { fakeTransactionHost } from '../common/database/transaction-host.fake';

const event = (status: string): EventFacts => ({ id: 7, title: 'Launch', status, slug: 'launch' });
const eventData = (status: string) => ({ event_id: 7, title: 'Launch', slug: 'launch', status });
const written = (status: string, previousStatus: string | null, removed = false): DomainEvent => ({
  kind: 'EventWritten',
  event: event(status),
  previousStatus,
  removed,
});

const order: OrderFacts = {
  id: 3,
  status: 'completed',
  provider: 'tc',
  totalMinor: 2500,
  currency: 'EUR',
  purchaserName: 'Ada',
  purchaserEmail: 'ada@example.org',
};
const orderData = {
  order_id: 3,
  status: 'completed',
  provider: 'tc',
  total: '25.00',
  currency: 'EUR',
  purchaser_name: 'Ada',
  purchaser_email: 'ada@example.org',
};
const attendee = (id: number): AttendeeFacts => ({
  id,
  orderId: 3,
  ticketId: 4,
  eventId: 7,
  holderName: 'Grace',
  holderEmail: 'grace@example.org',
  orderStatus: 'completed',
  checkinSource: 'app',
});
const attendeeData = (id: number) => ({
  attendee_id: id,
  order_id: 3,
  ticket_id: 4,
  event_id: 7,
  holder_name: 'Grace',
  holder_email: 'grace@example.org',
  order_status: 'completed',
});
const at = new Date('2026-11-23T12:00:00.000Z');
const scan = { listId: 1, listName: 'Main door', checkinId: 9, type: 'entry' as const, forced: false, deviceId: 2, gate: 'North', at };
const doorData = {
  checkin_source: 'app',
  list_id: 1,
  list_name: 'Main door',
  checkin_id: 9,
  type: 'entry',
  forced: false,
  device_id: 2,
  gate: 'North',
  datetime: '2026-11-23T12:00:00.000Z',
};
const series = { id: 5, firstEventId: 7, timezone: 'Europe/Paris', rrule: 'FREQ=WEEKLY' };
const occurrence = (id: number, status: string, startLocal: string) => ({ id, title: 'Launch', status, startLocal });

describe('notificationsOf', () => {
  it.each<[string, DomainEvent, unknown[]]>([
    ['a draft published', written('publish', 'draft'), [{ type: 'event.published', data: eventData('publish') }]],
    ['an event created published', written('publish', null), [{ type: 'event.published', data: eventData('publish') }]],
    ['a scheduled event published', written('publish', 'future'), [{ type: 'event.published', data: eventData('publish') }]],
    ['a published event changed', written('publish', 'publish'), [{ type: 'event.updated', data: eventData('publish') }]],
    ['a published event back to draft', written('draft', 'publish'), [{ type: 'event.updated', data: eventData('draft') }]],
    ['a draft changed', written('draft', 'draft'), []],
    ['a draft created', written('draft', null), []],
    ['a private event changed', written('private', 'pending'), []],
    ['an event trashed', written('trash', null, true), [{ type: 'event.trashed', data: eventData('trash') }]],
    ['a draft trashed', written('draft', null, true), [{ type: 'event.trashed', data: eventData('draft') }]],
    [
      'a series created, drafts left out',
      {
        kind: 'SeriesOccurrencesCreated',
        reason: 'created',
        series,
        occurrences: [
          occurrence(7, 'publish', '2026-12-01 19:00:00'),
          occurrence(8, 'draft', '2026-12-08 19:00:00'),
          occurrence(9, 'publish', '2026-12-15 19:00:00'),
        ],
      },
      [
        {
          type: 'series.published',
          data: {
            series_id: 5,
            first_event_id: 7,
            title: 'Launch',
            timezone: 'Europe/Paris',
            rrule: 'FREQ=WEEKLY',
            occurrence_count: 2,
            first_start_date: '2026-12-01 19:00:00',
            last_start_date: '2026-12-15 19:00:00',
            event_ids: [7, 9],
          },
        },
      ],
    ],
    [
      'a series extended',
      { kind: 'SeriesOccurrencesCreated', reason: 'extended', series, occurrences: [occurrence(10, 'publish', '2026-12-22 19:00:00')] },
      [
        {
          type: 'series.extended',
          data: expect.objectContaining({ series_id: 5, occurrence_count: 1, event_ids: [10] }) as unknown,
        },
      ],
    ],
    [
      'a series of drafts extended',
      { kind: 'SeriesOccurrencesCreated', reason: 'extended', series, occurrences: [occurrence(10, 'draft', '2026-12-22')] },
      [],
    ],
    ['nothing added to a series', { kind: 'SeriesOccurrencesCreated', reason: 'extended', series, occurrences: [] }, []],
    [
      'an order placed: the order, then each attendee',
      { kind: 'OrderPlaced', order, attendees: [attendee(11), attendee(12)] },
      [
        { type: 'order.placed', data: orderData },
        { type: 'attendee.created', data: attendeeData(11) },
        { type: 'attendee.created', data: attendeeData(12) },
      ],
    ],
    ['an order completed', { kind: 'OrderStatusChanged', order, status: 'completed' }, [{ type: 'order.completed', data: orderData }]],
    [
      'an order cancelled',
      { kind: 'OrderStatusChanged', order: { ...order, status: 'cancelled' }, status: 'cancelled' },
      [{ type: 'order.cancelled', data: { ...orderData, status: 'cancelled' } }],
    ],
    [
      'an order refunded',
      { kind: 'OrderStatusChanged', order: { ...order, status: 'refunded' }, status: 'refunded' },
      [{ type: 'order.refunded', data: { ...orderData, status: 'refunded' } }],
    ],
    [
      'tickets sold out',
      {
        kind: 'TicketsSoldOut',
        tickets: [
          { id: 4, eventId: 7, name: 'Early bird' },
          { id: 6, eventId: 7, name: 'Pool' },
        ],
      },
      [
        { type: 'ticket.sold_out', data: { ticket_id: 4, event_id: 7, name: 'Early bird' } },
        { type: 'ticket.sold_out', data: { ticket_id: 6, event_id: 7, name: 'Pool' } },
      ],
    ],
    [
      'a check-in at a gate',
      { kind: 'CheckInChanged', attendee: attendee(11), checkedIn: true, scan },
      [{ type: 'attendee.checked_in', data: { ...attendeeData(11), ...doorData } }],
    ],
    [
      'a check-in undone on the site',
      {
        kind: 'CheckInChanged',
        attendee: { ...attendee(11), checkinSource: null },
        checkedIn: false,
        scan: { ...scan, type: 'exit', deviceId: null, gate: null },
      },
      [
        {
          type: 'attendee.checked_out',
          data: { ...attendeeData(11), ...doorData, checkin_source: null, type: 'exit', device_id: null, gate: null },
        },
      ],
    ],
  ])('%s', (_case, domainEvent, expected) => {
    expect(notificationsOf(domainEvent)).toEqual(expected);
  });

  it('keeps the payload keys in the order webhooks have always sent them', () => {
    const [checkIn] = notificationsOf({ kind: 'CheckInChanged', attendee: attendee(11), checkedIn: true, scan });
    expect(JSON.stringify(checkIn.data)).toBe(JSON.stringify({ ...attendeeData(11), ...doorData }));
    const [trashed] = notificationsOf(written('trash', null, true));
    expect(Object.keys(trashed.data)).toEqual(['event_id', 'title', 'slug', 'status']);
  });
});

describe('OutboxNotifications', () => {
  it('writes what one publish causes in one call', async () => {
    const domainEvents = new DomainEvents(fakeTransactionHost());
    const publishAll = jest.fn(() => Promise.resolve());
    domainEvents.subscribeListenersOf(new OutboxNotifications({ publishAll } as unknown as OutboxService));
    await domainEvents.publish({ kind: 'OrderPlaced', order, attendees: [attendee(11)] }, written('draft', 'draft'));
    expect(publishAll).toHaveBeenCalledTimes(1);
    expect(publishAll).toHaveBeenCalledWith([
      { type: 'order.placed', data: orderData },
      { type: 'attendee.created', data: attendeeData(11) },
    ]);
  });
});
