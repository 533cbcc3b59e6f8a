import { AuthenticatedUser, canOnObject, hasCapability } from '../auth/roles';
import { forbidden } from '../common/errors/api-error';
import { PostStatus } from './post-status';

export interface OwnedPost {
  status: PostStatus;
  authorId: number | null;
}

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
