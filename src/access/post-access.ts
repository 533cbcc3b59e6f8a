import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AuthenticatedUser, canOnObject, hasCapability } from '../auth/roles';
import { forbidden, invalidParam } from '../common/errors/api-error';
import { parseStatusList } from '../common/list-filters/status-list';
import { POST_STATUSES, PostStatus } from '../posts/post-status';

/**
 * Who may read, list, edit and delete posts (events, venues, organizers) in the events namespace:
 * by status and role, private events, trashed posts. Every read and write of the namespace asks
 * here; the events list's own rules (hidden from listings, the read model) are in event-access.ts.
 */

export interface OwnedPost {
  status: PostStatus;
  authorId: number | null;
}

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

// ---------------------------------------------------------------- writing

const PUBLISHED_STATUSES: ReadonlySet<PostStatus> = new Set(['publish', 'future', 'private']);

/**
 * Editing as WordPress decides it: own posts with `edit_events`, others' with
 * `edit_others_events`, and a published post only with `edit_published_events` (so a contributor
 * edits only its own drafts and pending posts).
 */
export function canEditPost(user: AuthenticatedUser | undefined, post: OwnedPost): boolean {
  if (!canOnObject(user, post.authorId, 'edit_events', 'edit_others_events')) return false;
  return !PUBLISHED_STATUSES.has(post.status) || hasCapability(user, 'edit_published_events');
}

export function canDeletePost(user: AuthenticatedUser | undefined, post: OwnedPost): boolean {
  if (!canOnObject(user, post.authorId, 'delete_events', 'delete_others_events')) return false;
  return !PUBLISHED_STATUSES.has(post.status) || hasCapability(user, 'delete_published_events');
}

export function assertCanEdit(user: AuthenticatedUser | undefined, post: OwnedPost): void {
  if (!canEditPost(user, post)) throw forbidden(!user);
}

export function assertCanDelete(user: AuthenticatedUser | undefined, post: OwnedPost): void {
  if (!canDeletePost(user, post)) throw forbidden(!user);
}

/**
 * The status a write ends with. Without one, publishers publish and others save drafts; callers
 * who cannot publish asking for publish, future or private get `pending` (review), as the original
 * scales them back.
 */
export function resolveWriteStatus(user: AuthenticatedUser, requested: PostStatus | undefined, current?: PostStatus): PostStatus {
  const canPublish = hasCapability(user, 'publish_events');
  const wanted = requested ?? current ?? (canPublish ? 'publish' : 'draft');
  if (!canPublish && PUBLISHED_STATUSES.has(wanted) && wanted !== current) return 'pending';
  return wanted;
}

/** Who may set `author` to someone else: those who edit others' posts. */
export function canAssignAuthor(user: AuthenticatedUser, authorId: number): boolean {
  return authorId === user.id || hasCapability(user, 'edit_others_events');
}
