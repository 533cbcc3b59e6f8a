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

/**
 * Whether an API token limited to events (`limit_events`) reaches the post beyond what is public:
 * an event of its limit (`eventId`, given by callers reading events), never a venue or organizer
 * (they serve every event). Callers without a limit reach every post.
 */
function tokenReachesPost(user: AuthenticatedUser, eventId: number | undefined): boolean {
  const limit = user.token?.limitEvents;
  return !limit || (eventId !== undefined && limit.includes(eventId));
}

/**
 * Published content is public; anything else only for its author and those who read others'
 * drafts. `eventId`: the post's id when it is an event (see `tokenReachesPost`).
 */
export function canReadPost(user: AuthenticatedUser | undefined, post: OwnedPost, eventId?: number): boolean {
  if (post.status === 'publish') return true;
  if (!user || !tokenReachesPost(user, eventId)) return false;
  if (hasCapability(user, 'read_private_events')) return true;
  return post.authorId === user.id && hasCapability(user, 'edit_events');
}

/**
 * A single read: `trashed` (a trashed post for a caller who cannot edit it, "no longer
 * available"), `forbidden` (not readable), or `readable`.
 */
export function singleReadAccess(
  user: AuthenticatedUser | undefined,
  post: OwnedPost,
  eventId?: number,
): 'readable' | 'trashed' | 'forbidden' {
  if (post.status === 'trash' && !canEditPost(user, post, eventId)) return 'trashed';
  return canReadPost(user, post, eventId) ? 'readable' : 'forbidden';
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
  options: { events?: boolean } = {},
): SelectQueryBuilder<T> {
  const limit = user?.token?.limitEvents;
  if (limit) {
    // A token limited to events: beyond the published posts, only its events (`tokenReachesPost`).
    if (options.events && limit.length > 0)
      query.andWhere(`(${alias}.status = 'publish' OR ${alias}.id IN (:...visibleTokenEvents))`, { visibleTokenEvents: [...limit] });
    else query.andWhere(`${alias}.status = 'publish'`);
  }
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
export function canEditPost(user: AuthenticatedUser | undefined, post: OwnedPost, eventId?: number): boolean {
  if (user && !tokenReachesPost(user, eventId)) return false;
  if (!canOnObject(user, post.authorId, 'edit_events', 'edit_others_events')) return false;
  return !PUBLISHED_STATUSES.has(post.status) || hasCapability(user, 'edit_published_events');
}

export function canDeletePost(user: AuthenticatedUser | undefined, post: OwnedPost, eventId?: number): boolean {
  if (user && !tokenReachesPost(user, eventId)) return false;
  if (!canOnObject(user, post.authorId, 'delete_events', 'delete_others_events')) return false;
  return !PUBLISHED_STATUSES.has(post.status) || hasCapability(user, 'delete_published_events');
}

export function assertCanEdit(user: AuthenticatedUser | undefined, post: OwnedPost, eventId?: number): void {
  if (!canEditPost(user, post, eventId)) throw forbidden(!user);
}

export function assertCanDelete(user: AuthenticatedUser | undefined, post: OwnedPost, eventId?: number): void {
  if (!canDeletePost(user, post, eventId)) throw forbidden(!user);
}

/**
 * Who may create a post (the route's capability aside): not a token limited to events, whose new
 * post would lie outside its limit (pretix's event-limited tokens create no events either).
 */
export function assertCanCreatePost(user: AuthenticatedUser): void {
  if (user.token?.limitEvents) throw forbidden(false, 'Sorry, an API token limited to events cannot create posts.');
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
