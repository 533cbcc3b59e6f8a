import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { CategoriesService } from '../../src/categories/categories.service';
import { Event } from '../../src/events/event.entity';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from '../../src/events/event-links.entity';
import { Organizer } from '../../src/organizers/organizer.entity';
import type { PostStatus } from '../../src/posts/post-status';
import { TagsService } from '../../src/tags/tags.service';
import { Venue } from '../../src/venues/venue.entity';
import type { TestApp, TestUser } from './test-app';

/**
 * The one place the specs get events from. Through the API (`postEvent`) when the spec is about
 * what the events routes do; as rows (`insertEvent`, `insertEvents`) when it needs events to hang
 * tickets, attendees, venues or terms on without depending on those routes, or needs many fast.
 */

const HOUR_MS = 3600_000;
const DEFAULT_START_UTC = new Date('2030-06-01T18:00:00Z');

let eventCounter = 0;

export interface EventRow {
  title?: string;
  slug?: string;
  status?: PostStatus;
  authorId?: number | null;
  description?: string | null;
  timezone?: string;
  /** Defaults to 2030-06-01 18:00 UTC, or an hour before `endUtc` when only that is given. */
  startUtc?: Date;
  /** Defaults to two hours after the start. */
  endUtc?: Date;
  /** Wall clock in the event's zone; defaults to the UTC wall clock of the instant. */
  startLocal?: string;
  endLocal?: string;
  publishedAt?: Date;
  showAttendeeList?: boolean;
}

const utcWallClock = (instant: Date) => instant.toISOString().slice(0, 19).replace('T', ' ');

function eventRow(row: EventRow) {
  eventCounter += 1;
  const startUtc = row.startUtc ?? (row.endUtc ? new Date(row.endUtc.getTime() - HOUR_MS) : DEFAULT_START_UTC);
  const endUtc = row.endUtc ?? new Date(startUtc.getTime() + 2 * HOUR_MS);
  return {
    title: row.title ?? `Fixture event ${eventCounter}`,
    slug: row.slug ?? `fixture-event-${eventCounter}-${randomBytes(3).toString('hex')}`,
    status: row.status ?? 'publish',
    authorId: row.authorId ?? null,
    description: row.description ?? null,
    excerpt: null,
    image: null,
    publishedAt: row.publishedAt ?? new Date('2026-01-01T00:00:00Z'),
    timezone: row.timezone ?? 'UTC',
    allDay: false,
    startUtc,
    endUtc,
    startLocal: row.startLocal ?? utcWallClock(startUtc),
    endLocal: row.endLocal ?? utcWallClock(endUtc),
    cost: null,
    website: null,
    showMap: true,
    showMapLink: true,
    hideFromListings: false,
    sticky: false,
    featured: false,
    postParentId: null,
    showAttendeeList: row.showAttendeeList ?? false,
  };
}

/** An event row written straight through the repository. */
export async function insertEvent(dataSource: DataSource, row: EventRow = {}): Promise<Event> {
  return dataSource.getRepository(Event).save(eventRow(row));
}

/** Many event rows, a hundred to a statement: the fast path for specs that need volume, not the routes. */
export async function insertEvents(dataSource: DataSource, rows: EventRow[]): Promise<void> {
  const built = rows.map(eventRow);
  for (let index = 0; index < built.length; index += 100) await dataSource.getRepository(Event).insert(built.slice(index, index + 100));
}

/**
 * An event created by POST /events as `user`, for specs about what that route does; `body` is the
 * route's (venue, organizer, categories, tags included). Throws unless the answer is 201.
 */
export async function postEvent(testApp: TestApp, user: TestUser, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await request(testApp.server).post('/cal/events/v1/events').set('Authorization', user.authorization).send(body);
  if (response.status !== 201) throw new Error(`create event: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any>;
}

export async function linkVenue(dataSource: DataSource, eventId: number, venueId: number): Promise<void> {
  await dataSource.getRepository(EventVenueLink).insert({ eventId, venueId, position: 0 });
}

export async function linkOrganizer(dataSource: DataSource, eventId: number, organizerId: number): Promise<void> {
  await dataSource.getRepository(EventOrganizerLink).insert({ eventId, organizerId, position: 0 });
}

/** Links written straight through the repository; the terms' stored counts are recounted after, as the events service would keep them. */
export async function linkCategories(testApp: TestApp, event: Event, categoryIds: number[]): Promise<void> {
  const links = testApp.dataSource.getRepository(EventCategoryLink);
  await links.save(categoryIds.map((categoryId) => links.create({ eventId: event.id, categoryId })));
  await testApp.app.get(CategoriesService).recountPublishedEvents(categoryIds);
}

export async function linkTags(testApp: TestApp, event: Event, tagIds: number[]): Promise<void> {
  const links = testApp.dataSource.getRepository(EventTagLink);
  await links.save(tagIds.map((tagId) => links.create({ eventId: event.id, tagId })));
  await testApp.app.get(TagsService).recountPublishedEvents(tagIds);
}

/** Empties venues, organizers, events and their links, so that each list test starts from nothing. */
export async function clearLinkedPosts(dataSource: DataSource): Promise<void> {
  for (const entity of [EventVenueLink, EventOrganizerLink, Event, Venue, Organizer]) {
    await dataSource.createQueryBuilder().delete().from(entity).execute();
  }
}
