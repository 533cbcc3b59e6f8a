import { Injectable } from '@nestjs/common';

/** What the tickets namespace tells the events namespace about an event's tickets. */
export interface EventTicketingFacts {
  /** The ticket providers of each of these events that has tickets (`["tc", "rsvp"]`). */
  ticketProviders(eventIds: number[]): Promise<Map<number, string[]>>;
  /** Whether the event has attendees (sold or reserved tickets), which forbids destroying it. */
  hasAttendees(eventId: number): Promise<boolean>;
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

  async ticketProviders(eventIds: number[]): Promise<Map<number, string[]>> {
    if (!this.ticketing || eventIds.length === 0) return new Map();
    return this.ticketing.ticketProviders(eventIds);
  }

  async hasAttendees(eventId: number): Promise<boolean> {
    return this.ticketing ? this.ticketing.hasAttendees(eventId) : false;
  }
}
