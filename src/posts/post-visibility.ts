import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AuthenticatedUser, hasCapability } from '../auth/roles';
import { invalidParam } from '../common/errors/api-error';
import { parseStatusList } from '../common/list-filters/status-list';
import { canEditPost, OwnedPost } from './post-permissions';
import { POST_STATUSES, PostStatus } from './post-status';

/**
 * Which posts (events, venues, organizers) a caller may see in the events namespace: by status and
 * role, private events, trashed posts, events hidden from listings. Every read of the namespace
 * asks here.
 */

/** Published content is public; anything else only for its author and those who read others' drafts. */
export function canReadPost(user: AuthenticatedUser | undefined, post: OwnedPost): boolean {
  if (post.status === 'publish') return true;
  if (!user) return false;
  if (hasCapability(user, 'read_private_events')) return true;
  return post.authorId === user.id && hasCapability(user, 'edit_events');
}

/**
 * A single read: `trashed` (a trashed post for a caller who cannot edit it, "no longer
 * available"), `forbidden` (not readable), or `readable`.
 */
export function singleReadAccess(user: AuthenticatedUser | undefined, post: OwnedPost): 'readable' | 'trashed' | 'forbidden' {
  if (post.status === 'trash' && !canEditPost(user, post)) return 'trashed';
  return canReadPost(user, post) ? 'readable' : 'forbidden';
}

/**
 * Which posts a caller may list: anonymous callers only published ones; editors every status but
 * trash (unless asked for); others published ones plus their own of any status.
 */
export type ListVisibility = { kind: 'published-only' } | { kind: 'all' } | { kind: 'published-or-own'; userId: number };

export function listVisibility(user: AuthenticatedUser | undefined): ListVisibility {
  if (!user) return { kind: 'published-only' };
  if (hasCapability(user, 'read_private_events')) return { kind: 'all' };
  if (hasCapability(user, 'edit_events')) return { kind: 'published-or-own', userId: user.id };
  return { kind: 'published-only' };
}

/**
 * The `status` list filter. Anonymous callers may ask only for `publish`; signed-in callers for
 * any registered status (one or a comma-separated list). Unknown statuses are a 400.
 */
export function parseStatusFilter(raw: unknown, user: AuthenticatedUser | undefined): PostStatus[] | undefined {
  const statuses = parseStatusList(raw, 'status', { allowed: POST_STATUSES });
  if (statuses === undefined || statuses === 'any') return undefined;
  if (!user && statuses.some((status) => status !== 'publish'))
    throw invalidParam('status', 'status must be publish for anonymous requests');
  return statuses;
}

/**
 * Restricts a list to what the caller may see (published for everyone; own posts of any status for
 * authors and contributors; everything for editors), then to the requested statuses, trash
 * excluded unless asked for.
 */
export function applyPostVisibility<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  user: AuthenticatedUser | undefined,
  statuses: PostStatus[] | undefined,
): SelectQueryBuilder<T> {
  if (statuses) query.andWhere(`${alias}.status IN (:...visibleStatuses)`, { visibleStatuses: statuses });
  else query.andWhere(`${alias}.status <> 'trash'`);
  const visibility = listVisibility(user);
  if (visibility.kind === 'published-only') query.andWhere(`${alias}.status = 'publish'`);
  if (visibility.kind === 'published-or-own') {
    query.andWhere(`(${alias}.status = 'publish' OR ${alias}.authorId = :visibleToUser)`, { visibleToUser: visibility.userId });
  }
  return query;
}

/** The events list: what `applyPostVisibility` lets through, less the events hidden from listings. */
export function applyEventListVisibility<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  user: AuthenticatedUser | undefined,
  statuses: PostStatus[] | undefined,
): SelectQueryBuilder<T> {
  applyPostVisibility(query, alias, user, statuses);
  return query.andWhere(`${alias}.hideFromListings = :listed`, { listed: false });
}

/** The statuses a list shows, split by whose events they are seen on. */
export interface VisibleStatuses {
  /** Statuses seen on every event. */
  statuses: PostStatus[];
  /** Statuses seen only on the caller's own events (authors and contributors). */
  ownStatuses: PostStatus[];
  authorId?: number;
}

/**
 * The statuses a list shows to `user` when it asks for `statuses` (or none): the caller's
 * visibility (applyPostVisibility) split into statuses seen on every event and statuses seen on
 * the caller's own events only.
 */
export function visibleStatuses(user: AuthenticatedUser | undefined, statuses: PostStatus[] | undefined): VisibleStatuses {
  const asked = statuses ? [...new Set(statuses)] : POST_STATUSES.filter((status) => status !== 'trash');
  const visibility = listVisibility(user);
  if (visibility.kind === 'all') return { statuses: asked, ownStatuses: [] };
  const published = asked.filter((status) => status === 'publish');
  if (visibility.kind === 'published-only') return { statuses: published, ownStatuses: [] };
  return { statuses: published, ownStatuses: asked.filter((status) => status !== 'publish'), authorId: visibility.userId };
}

/**
 * Events the caller would see linked to a venue or organizer, as WordPress queries them by
 * default: published ones, plus private ones for those who read private posts or wrote them.
 */
export function restrictToVisibleEvents(
  query: SelectQueryBuilder<ObjectLiteral>,
  alias: string,
  user: AuthenticatedUser | undefined,
): void {
  if (!user) {
    query.andWhere(`${alias}.status = :visibleEventStatus`, { visibleEventStatus: 'publish' });
  } else if (hasCapability(user, 'read_private_events')) {
    query.andWhere(`${alias}.status IN (:...visibleEventStatuses)`, { visibleEventStatuses: ['publish', 'private'] });
  } else {
    query.andWhere(
      `(${alias}.status = :visibleEventStatus OR (${alias}.status = :privateEventStatus AND ${alias}.authorId = :eventReader))`,
      {
        visibleEventStatus: 'publish',
        privateEventStatus: 'private',
        eventReader: user.id,
      },
    );
  }
}
