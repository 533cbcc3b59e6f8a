import type { Response } from 'supertest';
import { CategoriesService } from '../../src/categories/categories.service';
import { TagsService } from '../../src/tags/tags.service';
import type { PostStatus } from '../../src/posts/post-status';
import { EventCategoryLink, EventTagLink } from '../../src/events/event-links.entity';
import { Event } from '../../src/events/event.entity';
import type { TestApp } from './test-app';

let eventCounter = 0;

/**
 * An event row written straight through the repository, so term tests need nothing from the
 * events routes: only the columns a term's `count` and the `post`/`event` filters look at matter.
 */
export async function insertEvent(testApp: TestApp, status: PostStatus = 'publish'): Promise<Event> {
  eventCounter += 1;
  const events = testApp.dataSource.getRepository(Event);
  return events.save(
    events.create({
      title: `Term fixture event ${eventCounter}`,
      slug: `term-fixture-event-${eventCounter}`,
      status,
      publishedAt: new Date('2026-11-21T22:42:43Z'),
      timezone: 'UTC',
      startUtc: new Date('2027-01-15T10:00:00Z'),
      endUtc: new Date('2027-01-15T12:00:00Z'),
      startLocal: '2027-01-15 10:00:00',
      endLocal: '2027-01-15 12:00:00',
    }),
  );
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

/** Asserts the error envelope: status, code and, when given, `data.params`. */
export function expectApiError(response: Response, status: number, code: string, params?: unknown): void {
  expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
  expect(response.body.data.status).toBe(status);
  if (params !== undefined) expect(response.body.data.params).toEqual(params);
}

/** `?a=1&b=2` of an absolute URL as an object, to compare links without caring about order. */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}
