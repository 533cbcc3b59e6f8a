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

// ---------------------------------------------------------------- managers

/** Whether the caller manages the tickets and attendees of every event, whoever wrote it. */
export function managesEveryEvent(user: AuthenticatedUser | undefined): boolean {
  return hasCapability(user, 'manage_attendees');
}

export function canManageEvent(user: AuthenticatedUser | undefined, event: { authorId: number | null }): boolean {
  if (!user) return false;
  if (managesEveryEvent(user)) return true;
  return event.authorId === user.id && hasCapability(user, 'publish_events');
}

/** SQL over the event aliased `eventAlias` for "the caller manages this event", matching `canManageEvent`. */
export function managedEventCondition<T extends ObjectLiteral>(
  user: AuthenticatedUser | undefined,
  builder: SelectQueryBuilder<T>,
  eventAlias = 'event',
): string {
  if (managesEveryEvent(user)) return '1 = 1';
  if (user && hasCapability(user, 'publish_events')) {
    builder.setParameter('managingAuthorId', user.id);
    return `${eventAlias}.authorId = :managingAuthorId`;
  }
  return '1 = 0';
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

export function managesAllEvents(user: AuthenticatedUser | undefined, events: Array<{ authorId: number | null }>): boolean {
  return events.length > 0 && events.every((event) => canManageEvent(user, event));
}

export function managesAnyEvent(user: AuthenticatedUser | undefined, events: Array<{ authorId: number | null }>): boolean {
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
