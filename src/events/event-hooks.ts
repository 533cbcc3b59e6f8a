import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

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

/**
 * What the tickets namespace tells the events namespace about an event's tickets. Callers inside a
 * transaction pass its manager: asking the pool for a second connection while holding one can
 * leave every connection waiting for another.
 */
export interface EventTicketingFacts {
  /** The ticket providers of each of these events that has tickets (`["tc", "rsvp"]`). */
  ticketProviders(eventIds: number[], manager?: EntityManager): Promise<Map<number, string[]>>;
  /** Whether the event has attendees (sold or reserved tickets), which forbids destroying it. */
  hasAttendees(eventId: number, manager?: EntityManager): Promise<boolean>;
  /** The event's published tickets, in the order the event shows them. */
  ticketOffers(eventId: number): Promise<EventTicketOffer[]>;
}

/**
 * Extension point filled by the tickets module at start-up, so that the events module does not
 * depend on it. Without tickets, no event is ticketed and nothing blocks a forced delete.
 */
@Injectable()
export class EventHooks {
  private ticketing: EventTicketingFacts | null = null;

  registerTicketing(facts: EventTicketingFacts): void {
    this.ticketing = facts;
  }

  async ticketProviders(eventIds: number[], manager?: EntityManager): Promise<Map<number, string[]>> {
    if (!this.ticketing || eventIds.length === 0) return new Map();
    return this.ticketing.ticketProviders(eventIds, manager);
  }

  async hasAttendees(eventId: number, manager?: EntityManager): Promise<boolean> {
    return this.ticketing ? this.ticketing.hasAttendees(eventId, manager) : false;
  }

  async ticketOffers(eventId: number): Promise<EventTicketOffer[]> {
    return this.ticketing ? this.ticketing.ticketOffers(eventId) : [];
  }
}
