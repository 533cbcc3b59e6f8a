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

/** What a limited ticket has left after a take: its own counter's or its event pool's figures, whichever has fewer left. */
export interface TicketUnitsLeft extends TicketFacts {
  /** Units the take moved on that row (on a pool: those of all the take's tickets drawing on it); left + taken were left before. */
  taken: number;
  left: number;
  capacity: number;
}

/**
 * A take of capacity went through (a checkout, a late payment taking its units again, a waitlist
 * offer's hold): what each of its limited tickets has left, as the take's own statements answered it
 * (CapacityRepository: `RETURNING` on SQLite, a read inside the compound statement on MariaDB). The
 * statements answer it only when something listens. Listened to `after-commit` only (DomainEvents
 * refuses another phase): on MariaDB the take may commit the transaction itself, and a committed
 * take is what the figures are about.
 */
export interface UnitsTaken {
  kind: 'UnitsTaken';
  count: 'sold' | 'pending';
  tickets: TicketUnitsLeft[];
}

/** An attendee checked in (`checkedIn`), or the check-in undone or an exit scanned. */
export interface CheckInChanged {
  kind: 'CheckInChanged';
  attendee: AttendeeFacts;
  checkedIn: boolean;
  scan: DoorScanFacts;
}

/**
 * Units of these tickets may be free again (an order cancelled, refunded or expired, a hold given
 * back, a capacity raised): the capacity module publishes it, in the transaction that gave them back.
 */
export interface UnitsReleased {
  kind: 'UnitsReleased';
  ticketIds: number[];
}

/**
 * A waiting room (src/queues) opened (its pre-queue shuffled), admitted entries (positions
 * `fromPosition`+1 to `toPosition`, one tick's worth) or closed (`reason`).
 */
export interface QueueChanged {
  kind: 'QueueChanged';
  change: 'opened' | 'admitted' | 'closed';
  queue: { id: number; eventId: number };
  at: Date;
  /** opened: how many pre-queue entries were drawn; admitted: the positions admitted. */
  prequeueSize?: number;
  fromPosition?: number;
  toPosition?: number;
  servingCounter?: number;
  reason?: 'closed' | 'sold_out';
}

/** A row written, as TypeORM reports it: the values it can read by column name. */
export interface WrittenRow {
  table: string;
  /** The value of a column of the row, when the write names it (an entity saved, an insert's values). */
  column(name: string): unknown;
}

/**
 * Rows written through TypeORM (entity saves and query-builder writes; raw SQL through
 * announceRawWrites), published by DomainEventsTransactionBridge for what follows any write of a
 * table rather than a fact of the domain: count caches, purge keys, the checkout catalog.
 */
export interface RowsWritten {
  kind: 'RowsWritten';
  change: 'insert' | 'update' | 'remove';
  row: WrittenRow;
}

export type DomainEvent =
  | EventWritten
  | SeriesOccurrencesCreated
  | OrderPlaced
  | OrderStatusChanged
  | TicketsSoldOut
  | UnitsTaken
  | UnitsReleased
  | CheckInChanged
  | QueueChanged
  | RowsWritten;
