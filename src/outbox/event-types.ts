/** The notifications the service emits: webhook event types, and what decides which emails go out. */
export const EVENT_TYPES = [
  'order.placed',
  'order.completed',
  'order.cancelled',
  'order.refunded',
  'attendee.created',
  'attendee.checked_in',
  'attendee.checked_out',
  'ticket.sold_out',
  'event.published',
  'event.updated',
  'event.trashed',
  'series.published',
  'series.extended',
  'queue.opened',
  'queue.admitted',
  'queue.closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}
