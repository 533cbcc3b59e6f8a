import type { Recurrence } from './dto/event.response';

/**
 * What the events module asks of the modules above it, as query ports injected by token: the
 * tickets module answers EVENT_TICKETING and the series module EVENT_SERIES (each from a global
 * module of its own), so events imports neither. An app without them (a test module, the CLI)
 * leaves the ports unprovided and events read as unticketed and outside any series.
 * Callers inside a transaction pass its manager: asking the pool for a second connection while
 * holding one can leave every connection waiting for another.
 */
export const EVENT_TICKETING = Symbol('EVENT_TICKETING');
export const EVENT_SERIES = Symbol('EVENT_SERIES');

/** A published ticket of an event, as its schema.org `Offer` needs it. */
export interface EventTicketOffer {
  /** In the currency's minor units; 0 for free and RSVP tickets. */
  priceMinor: number;
  /** The sale window; either end may be open. */
  saleStartUtc: Date | null;
  saleEndUtc: Date | null;
  /** When the ticket was published: the offer's start when the sale has no start. */
  publishedAt: Date;
  /** Whether any unit is left to sell (unlimited tickets always have). */
  inStock: boolean;
}

/** EVENT_TICKETING: what the tickets namespace tells the events namespace about an event's tickets. */
export interface EventTicketing {
  /** The ticket providers of each of these events that has tickets (`["tc", "rsvp"]`). */
  ticketProviders(eventIds: number[]): Promise<Map<number, string[]>>;
  /** Whether the event has attendees (sold or reserved tickets), which forbids destroying it. */
  hasAttendees(eventId: number): Promise<boolean>;
  /** The event's published tickets, in the order the event shows them. */
  ticketOffers(eventId: number): Promise<EventTicketOffer[]>;
}

/** What an occurrence's response shows of its series. */
export interface EventSeriesFacts {
  seriesId: number;
  recurrence: Recurrence;
}

/** EVENT_SERIES: what the series module tells the events namespace about events' series. */
export interface EventSeriesReader {
  seriesOf(eventIds: number[]): Promise<Map<number, EventSeriesFacts>>;
  /** Throws a 400 naming `series` when no series has this id (the events list's `series` filter). */
  assertSeriesExists(seriesId: number): Promise<void>;
}

/** The answers without a tickets module: nothing is ticketed, nothing blocks a forced delete. */
export const NO_TICKETING: EventTicketing = {
  ticketProviders: () => Promise.resolve(new Map()),
  hasAttendees: () => Promise.resolve(false),
  ticketOffers: () => Promise.resolve([]),
};

/** The answers without a series module: no event is an occurrence. */
export const NO_SERIES: EventSeriesReader = {
  seriesOf: () => Promise.resolve(new Map()),
  assertSeriesExists: () => Promise.resolve(),
};
