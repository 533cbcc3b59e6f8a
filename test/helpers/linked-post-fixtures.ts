import type { DataSource } from 'typeorm';
import { Event } from '../../src/events/event.entity';
import { EventOrganizerLink, EventVenueLink } from '../../src/events/event-links.entity';
import type { PostStatus } from '../../src/posts/post-status';
import { Organizer } from '../../src/organizers/organizer.entity';
import { Venue } from '../../src/venues/venue.entity';

let eventCounter = 0;

export interface EventFixture {
  status?: PostStatus;
  authorId?: number | null;
  /** End of the event; it starts an hour before. */
  endUtc: Date;
}

/**
 * An event row written straight to the database: the venue and organizer specs need events to
 * link to without depending on the events routes.
 */
export async function insertEvent(dataSource: DataSource, fixture: EventFixture): Promise<Event> {
  eventCounter += 1;
  const start = new Date(fixture.endUtc.getTime() - 3600_000);
  const local = (instant: Date) => instant.toISOString().slice(0, 19).replace('T', ' ');
  return dataSource.getRepository(Event).save({
    title: `Fixture event ${eventCounter}`,
    slug: `fixture-event-${eventCounter}`,
    status: fixture.status ?? 'publish',
    authorId: fixture.authorId ?? null,
    description: null,
    excerpt: null,
    image: null,
    publishedAt: new Date('2026-01-01T00:00:00Z'),
    timezone: 'UTC',
    allDay: false,
    startUtc: start,
    endUtc: fixture.endUtc,
    startLocal: local(start),
    endLocal: local(fixture.endUtc),
    cost: null,
    website: null,
    showMap: true,
    showMapLink: true,
    hideFromListings: false,
    sticky: false,
    featured: false,
    postParentId: null,
  });
}

export async function linkVenue(dataSource: DataSource, eventId: number, venueId: number): Promise<void> {
  await dataSource.getRepository(EventVenueLink).insert({ eventId, venueId, position: 0 });
}

export async function linkOrganizer(dataSource: DataSource, eventId: number, organizerId: number): Promise<void> {
  await dataSource.getRepository(EventOrganizerLink).insert({ eventId, organizerId, position: 0 });
}

/** Empties venues, organizers, events and their links, so that each list test starts from nothing. */
export async function clearLinkedPosts(dataSource: DataSource): Promise<void> {
  for (const entity of [EventVenueLink, EventOrganizerLink, Event, Venue, Organizer]) {
    await dataSource.createQueryBuilder().delete().from(entity).execute();
  }
}
