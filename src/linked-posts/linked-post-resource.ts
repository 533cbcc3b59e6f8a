import { EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { Event } from '../events/event.entity';
import { ApiError } from '../common/errors/api-error';
import { assertIdsExist } from '../common/list-filters/ids-must-exist';
import { QueryEcho } from '../common/list-filters/query-echo';
import { assertPageInRange, countPages, PageRequest, parsePageRequest, QueryPairs } from '../common/pagination/pagination';
import { applyWordSearch } from '../posts/post-query';
import type { PostEntity } from '../posts/post.entity-base';
import { applyPostVisibility, canReadPost, parseStatusFilter } from '../access/post-access';
import { restrictToVisibleEvents } from '../access/event-access';

/** Venues and organizers: posts that events link to, with the same routes and rules. */
export type LinkedPostType = 'venue' | 'organizer';

export interface LinkedPostResource<T extends PostEntity> {
  type: LinkedPostType;
  entity: EntityTarget<T>;
  /** The table linking events to this resource, and its property naming this resource's id. */
  link: { entity: EntityTarget<ObjectLiteral>; property: string };
  /** Properties `search` looks in. */
  searchProperties: string[];
}

/** How the path names a post: `/venues/5` or `/venues/by-slug/loopback-hall`. */
export type PostKey = { id: number } | { slug: string };

export function postNotFound(type: LinkedPostType, key: PostKey): ApiError {
  const which = 'id' in key ? `ID ${key.id}` : `slug "${key.slug}"`;
  return new ApiError(`${type}-not-found`, `The ${type} with ${which} does not exist.`, 404);
}

export function postNotAccessible(type: LinkedPostType): ApiError {
  return new ApiError(`${type}-not-accessible`, `The requested ${type} is not accessible`, 403);
}

export async function findPostOr404<T extends PostEntity>(
  manager: EntityManager,
  resource: LinkedPostResource<T>,
  key: PostKey,
): Promise<T> {
  const alias = resource.type;
  const query = manager.createQueryBuilder(resource.entity, alias);
  if ('id' in key) query.where(`${alias}.id = :id`, { id: key.id });
  else query.where(`${alias}.slug = :slug`, { slug: key.slug });
  const post = await query.getOne();
  if (!post) throw postNotFound(resource.type, key);
  return post;
}

/** Single GET: published posts are public; others need read rights (403 `{type}-not-accessible`). */
export function assertCanReadPost(resource: LinkedPostResource<PostEntity>, user: AuthenticatedUser | undefined, post: PostEntity): void {
  if (!canReadPost(user, post)) throw postNotAccessible(resource.type);
}

/** Query parameters of GET /venues and GET /organizers, once validated. */
export interface LinkedPostListQuery {
  page?: unknown;
  per_page?: unknown;
  search?: string;
  event?: number;
  has_events?: boolean;
  only_with_upcoming?: boolean;
  status?: unknown;
}

export interface LinkedPostPage<T> {
  posts: T[];
  total: number;
  totalPages: number;
  page: PageRequest;
  /** The effective query under its public names, `page` aside, for the page links. */
  queryPairs: QueryPairs;
}

/** Event statuses that do not count for `has_events`. */
const UNPUBLISHED_EVENT_STATUSES = ['draft', 'pending', 'trash'];

/**
 * `EXISTS (SELECT 1 FROM <links> JOIN events ...)` for one post of the outer query, with the
 * event conditions `restrict` adds. Parameters of the subquery go to the outer query.
 */
function linkedEventExists<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  resource: LinkedPostResource<PostEntity>,
  restrict: (events: SelectQueryBuilder<ObjectLiteral>) => void,
): string {
  const events = query
    .subQuery()
    .select('1')
    .from(resource.link.entity, 'eventLink')
    .innerJoin(Event, 'linkedEvent', 'linkedEvent.id = eventLink.eventId')
    .where(`eventLink.${resource.link.property} = ${alias}.id`);
  restrict(events);
  query.setParameters(events.getParameters());
  return `EXISTS ${events.getQuery()}`;
}

/**
 * The filters that look at linked events, all in SQL: `event` (linked to that
 * event; 400 when it names none), `has_events` (linked to an event that is not a draft, pending
 * or trashed) and `only_with_upcoming` (linked to an event the caller can see that has not ended).
 */
async function applyLinkedEventFilters<T extends ObjectLiteral>(
  manager: EntityManager,
  query: SelectQueryBuilder<T>,
  alias: string,
  resource: LinkedPostResource<PostEntity>,
  filters: LinkedPostListQuery,
  user: AuthenticatedUser | undefined,
  now: Date,
): Promise<void> {
  if (filters.event !== undefined) {
    const eventId = filters.event;
    await assertIdsExist(manager, Event, [eventId], 'event');
    query.andWhere(
      linkedEventExists(query, alias, resource, (events) =>
        events.andWhere('eventLink.eventId = :linkedEventId', { linkedEventId: eventId }),
      ),
    );
  }
  if (filters.has_events !== undefined) {
    const exists = linkedEventExists(query, alias, resource, (events) =>
      events.andWhere('linkedEvent.status NOT IN (:...uncountedEventStatuses)', { uncountedEventStatuses: UNPUBLISHED_EVENT_STATUSES }),
    );
    query.andWhere(filters.has_events ? exists : `NOT ${exists}`);
  }
  if (filters.only_with_upcoming) {
    query.andWhere(
      linkedEventExists(query, alias, resource, (events) => {
        events.andWhere('linkedEvent.endUtc >= :upcomingFrom', { upcomingFrom: now });
        restrictToVisibleEvents(events, 'linkedEvent', user);
      }),
    );
  }
}

function listQueryPairs(filters: LinkedPostListQuery, page: PageRequest): QueryPairs {
  return new QueryEcho()
    .add('per_page', page.perPage)
    .add('search', filters.search || undefined)
    .add('event', filters.event)
    .add('has_events', filters.has_events)
    .add('only_with_upcoming', filters.only_with_upcoming)
    .add('status', typeof filters.status === 'string' && filters.status !== '' ? filters.status : undefined).pairs;
}

/**
 * One page of venues or organizers: what the caller may see, filtered, newest
 * publication date first, then id. One query for the page and one for the count.
 */
export async function listLinkedPosts<T extends PostEntity>(
  manager: EntityManager,
  resource: LinkedPostResource<T>,
  filters: LinkedPostListQuery,
  user: AuthenticatedUser | undefined,
  now: Date,
): Promise<LinkedPostPage<T>> {
  const page = parsePageRequest(filters, 'events');
  const statuses = parseStatusFilter(filters.status, user);
  const alias = resource.type;
  const query = manager.createQueryBuilder(resource.entity, alias);
  applyPostVisibility(query, alias, user, statuses);
  if (filters.search)
    applyWordSearch(
      query,
      resource.searchProperties.map((property) => `${alias}.${property}`),
      filters.search,
    );
  await applyLinkedEventFilters(manager, query, alias, resource, filters, user, now);
  const [posts, total] = await query
    .orderBy(`${alias}.publishedAt`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .skip(page.offset)
    .take(page.perPage)
    .getManyAndCount();
  const totalPages = countPages(total, page.perPage);
  assertPageInRange(page.page, totalPages, { kind: 'not-found', resource: resource.type });
  return { posts, total, totalPages, page, queryPairs: listQueryPairs(filters, page) };
}
