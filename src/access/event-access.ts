import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AuthenticatedUser, hasCapability } from '../auth/roles';
import { POST_STATUSES, PostStatus } from '../posts/post-status';
import { applyPostVisibility, listVisibility } from './post-access';

/**
 * Who manages an event (its tickets, attendees, orders, coupons and door), and which events the
 * events lists show. Managers are editors and administrators for every event, and the event's
 * author when that author may publish (authors). What any caller may read of an event as a post
 * is post-access.ts's `canReadPost`.
 */

// ---------------------------------------------------------------- API token event limits

/**
 * The events an API token caller is limited to (`limit_events`), or null: no token, or a token on
 * all the owner's events. Every rule below that decides on an event intersects the role's answer
 * with it; public content (published events and tickets) stays readable as to anyone.
 */
export function tokenEventLimit(user: AuthenticatedUser | undefined | null): readonly number[] | null {
  return user?.token?.limitEvents ?? null;
}

/** Whether the caller's token (if any) reaches the event; an event whose id is not given is reached only without a limit. */
export function reachesEvent(user: AuthenticatedUser | undefined | null, event: { id?: number }): boolean {
  const limit = tokenEventLimit(user);
  return limit === null || (event.id !== undefined && limit.includes(event.id));
}

/**
 * SQL over the event id column `eventIdColumn` for `reachesEvent`: null without a limit (no
 * condition to add), else the id list (or `1 = 0` for an empty one).
 */
export function eventLimitCondition<T extends ObjectLiteral>(
  user: AuthenticatedUser | undefined | null,
  builder: SelectQueryBuilder<T>,
  eventIdColumn: string,
): string | null {
  const limit = tokenEventLimit(user);
  if (limit === null) return null;
  if (limit.length === 0) return '1 = 0';
  builder.setParameter('tokenLimitEvents', [...limit]);
  return `${eventIdColumn} IN (:...tokenLimitEvents)`;
}

// ---------------------------------------------------------------- managers

/** Whether the caller manages the tickets and attendees of every event, whoever wrote it (a token limited to events does not). */
export function managesEveryEvent(user: AuthenticatedUser | undefined): boolean {
  return hasCapability(user, 'manage_attendees') && tokenEventLimit(user) === null;
}

/** Editors and administrators every event, an author their own; a token only the events of its limit. */
export function canManageEvent(user: AuthenticatedUser | undefined, event: { id?: number; authorId: number | null }): boolean {
  if (!user || !reachesEvent(user, event)) return false;
  if (hasCapability(user, 'manage_attendees')) return true;
  return event.authorId === user.id && hasCapability(user, 'publish_events');
}

/** SQL over the event aliased `eventAlias` for "the caller manages this event", matching `canManageEvent`. */
export function managedEventCondition<T extends ObjectLiteral>(
  user: AuthenticatedUser | undefined,
  builder: SelectQueryBuilder<T>,
  eventAlias = 'event',
): string {
  let role: string;
  if (hasCapability(user, 'manage_attendees')) role = '1 = 1';
  else if (user && hasCapability(user, 'publish_events')) {
    builder.setParameter('managingAuthorId', user.id);
    role = `${eventAlias}.authorId = :managingAuthorId`;
  } else return '1 = 0';
  const limit = eventLimitCondition(user, builder, `${eventAlias}.id`);
  if (limit === null) return role;
  return role === '1 = 1' ? limit : `(${role} AND ${limit})`;
}

/**
 * `managedEventCondition`, or null for callers who manage every event: their query needs no
 * condition, nor a join of the event made only to restrict its rows.
 */
export function managedEventRestriction<T extends ObjectLiteral>(
  user: AuthenticatedUser | undefined,
  builder: SelectQueryBuilder<T>,
  eventAlias = 'event',
): string | null {
  return managesEveryEvent(user) ? null : managedEventCondition(user, builder, eventAlias);
}

export function managesAllEvents(user: AuthenticatedUser | undefined, events: Array<{ id?: number; authorId: number | null }>): boolean {
  return events.length > 0 && events.every((event) => canManageEvent(user, event));
}

export function managesAnyEvent(user: AuthenticatedUser | undefined, events: Array<{ id?: number; authorId: number | null }>): boolean {
  return events.some((event) => canManageEvent(user, event));
}

// ---------------------------------------------------------------- the events lists

/** The events list: what `applyPostVisibility` lets through, less the events hidden from listings. */
export function applyEventListVisibility<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  user: AuthenticatedUser | undefined,
  statuses: PostStatus[] | undefined,
): SelectQueryBuilder<T> {
  // A token limited to events lists the published ones, as the read model does (visibleStatuses).
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
  // The read model keys its ranges by status and author, not by event: a token limited to events
  // lists the published ones (what anyone lists) and reads its events' others one by one.
  if (tokenEventLimit(user) !== null) return { statuses: asked.filter((status) => status === 'publish'), ownStatuses: [] };
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
  const limit = eventLimitCondition(user, query, `${alias}.id`);
  if (limit !== null) query.andWhere(`(${alias}.status = :limitedPublicStatus OR ${limit})`, { limitedPublicStatus: 'publish' });
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
