/**
 * What writes announce (DomainEvents.publish). Each carries the facts its listeners need, in these
 * shapes rather than the features' entities so that the listeners (the outbox, below the features)
 * need not import them; the entities have these fields and are passed as they are.
 */

export interface EventFacts {
  id: number;
  title: string;
  status: string;
  slug: string;
}

/** An occurrence of a series, as created. */
export interface OccurrenceFacts {
  id: number;
  title: string;
  status: string;
  startLocal: string;
}

export interface SeriesFacts {
  id: number;
  firstEventId: number | null;
  timezone: string;
  rrule: string;
}

export interface OrderFacts {
  id: number;
  status: string;
  provider: string;
  /** In minor units of `currency` (src/common/money.ts). */
  totalMinor: number;
  currency: string;
  purchaserName: string;
  purchaserEmail: string;
}

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

export interface TicketFacts {
  id: number;
  eventId: number;
  name: string;
}

/** The door's record of a check-in or exit: the list, the check-in row, the device (gate) if a scan. */
export interface DoorScanFacts {
  listId: number;
  listName: string;
  checkinId: number;
  type: 'entry' | 'exit';
  forced: boolean;
  deviceId: number | null;
  gate: string | null;
  at: Date;
}

/** An event created (`previousStatus` null), updated, or trashed or deleted (`removed`). */
export interface EventWritten {
  kind: 'EventWritten';
  event: EventFacts;
  previousStatus: string | null;
  removed: boolean;
}

/** Occurrences a write added to a series: when the series was `created` (the first included), or `extended` later. */
export interface SeriesOccurrencesCreated {
  kind: 'SeriesOccurrencesCreated';
  reason: 'created' | 'extended';
  series: SeriesFacts;
  occurrences: OccurrenceFacts[];
}

/** A checkout placed an order with these attendees (before it takes capacity). */
export interface OrderPlaced {
  kind: 'OrderPlaced';
  order: OrderFacts;
  attendees: AttendeeFacts[];
}

/** An order moved to `status`; `order` as it is now, read after the change. */
export interface OrderStatusChanged {
  kind: 'OrderStatusChanged';
  order: OrderFacts;
  status: 'completed' | 'cancelled' | 'refunded';
}

/** A take of capacity sold the last unit of these tickets (their own or their event's shared pool). */
export interface TicketsSoldOut {
  kind: 'TicketsSoldOut';
  tickets: TicketFacts[];
}

/** An attendee checked in (`checkedIn`), or the check-in undone or an exit scanned. */
export interface CheckInChanged {
  kind: 'CheckInChanged';
  attendee: AttendeeFacts;
  checkedIn: boolean;
  scan: DoorScanFacts;
}

export type DomainEvent = EventWritten | SeriesOccurrencesCreated | OrderPlaced | OrderStatusChanged | TicketsSoldOut | CheckInChanged;
