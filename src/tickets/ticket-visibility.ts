import { Brackets, ObjectLiteral, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import type { Attendee } from '../attendees/attendee.entity';
import { AuthenticatedUser, hasCapability } from '../auth/roles';
import type { Event } from '../events/event.entity';
import type { Order } from '../orders/order.entity';
import { holdsValidTicket, VALID_TICKET_ORDER_STATUSES } from '../orders/order-status';
import { canReadPost, listVisibility } from '../posts/post-visibility';
import type { PostStatus } from '../posts/post-status';
import type { Ticket } from './ticket.entity';

/**
 * Which tickets, attendees and orders a caller may see in the tickets namespace. Managers of an
 * event (editors and administrators for every event, authors for their own) see all of its
 * tickets, attendees and orders with every field, and manage its coupons; buyers see their own
 * orders; everyone else sees published tickets of published events and the public attendees of
 * events that show their list.
 */

/** Attendees whose order counts as done, the ones the public may see (VALID_TICKET_ORDER_STATUSES). */
export const PUBLIC_ORDER_STATUSES = VALID_TICKET_ORDER_STATUSES;

// ---------------------------------------------------------------- managers

/**
 * Who manages an event's tickets and attendees (sees buyers' data, checks people in): editors and
 * administrators for every event, and the event's author when that author may publish (authors).
 */
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

// ---------------------------------------------------------------- tickets

/** Whether the caller may read a ticket: its managers always; others when it and its event are readable. */
export function canReadTicket(user: AuthenticatedUser | undefined, ticket: Pick<Ticket, 'status'>, event: Event): boolean {
  if (canManageEvent(user, event)) return true;
  return ticket.status === 'publish' && canReadPost(user, event);
}

/**
 * Which tickets a caller may list, as `canReadTicket` decides for one: editors and administrators
 * all; others published tickets of published events, plus, for the author of an event, the
 * tickets of that event (authors manage them; contributors read the published ones).
 */
export function applyTicketVisibility<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, user: AuthenticatedUser | undefined): void {
  if (hasCapability(user, 'read_private_events')) return;
  builder.setParameter('visiblePublish', 'publish');
  if (!user || !hasCapability(user, 'edit_events')) {
    builder.andWhere('t.status = :visiblePublish AND e.status = :visiblePublish');
    return;
  }
  builder.setParameter('visibleOwner', user.id);
  if (hasCapability(user, 'publish_events')) {
    builder.andWhere('((t.status = :visiblePublish AND e.status = :visiblePublish) OR e.authorId = :visibleOwner)');
  } else {
    builder.andWhere('(t.status = :visiblePublish AND (e.status = :visiblePublish OR e.authorId = :visibleOwner))');
  }
}

/**
 * The event statuses a ticket list filters on when the caller asks for none: tickets of every
 * event the caller may read (their own drafts and pending events too, as the original lists
 * them: null, the visibility decides); callers who read published events only keep the plain
 * status filter, which the indexes serve.
 */
export function defaultTicketEventStatuses(user: AuthenticatedUser | undefined): PostStatus[] | null {
  return listVisibility(user).kind === 'published-only' ? ['publish'] : null;
}

// ---------------------------------------------------------------- attendees

/**
 * What the public (and signed-in callers who do not manage the event) may see: attendees of a
 * published event that shows its list, published, not opted out, RSVP going or not RSVP, order done.
 */
export function isPubliclyVisible(attendee: Attendee, event: Pick<Event, 'status' | 'showAttendeeList'>): boolean {
  return (
    event.status === 'publish' &&
    event.showAttendeeList &&
    !attendee.optout &&
    attendee.status === 'publish' &&
    (attendee.provider !== 'rsvp' || attendee.rsvpGoing === true) &&
    holdsValidTicket(attendee.orderStatus)
  );
}

/** An attendee list over `attendee` joined with its `event`: the attendees the caller manages or may see publicly. */
export function applyAttendeeVisibility(builder: SelectQueryBuilder<Attendee>, user: AuthenticatedUser | undefined): void {
  builder.where(
    new Brackets((visible) => {
      visible.where(managedEventCondition(user, builder)).orWhere(new Brackets((open) => applyPublicAttendeeVisibility(open, builder)));
    }),
  );
}

/** SQL of `isPubliclyVisible`. */
function applyPublicAttendeeVisibility(where: WhereExpressionBuilder, builder: SelectQueryBuilder<Attendee>): void {
  builder.setParameters({ publicEventStatus: 'publish', publicListShown: true });
  where.where('event.status = :publicEventStatus').andWhere('event.showAttendeeList = :publicListShown');
  applyPublicAttendeeState(where, builder, 'attendee');
}

/** SQL of the attendee's own part of `isPubliclyVisible` (published, not opted out, going, order done), over `alias`. */
function applyPublicAttendeeState(where: WhereExpressionBuilder, builder: SelectQueryBuilder<Attendee>, alias: string): void {
  builder.setParameters({
    publicOptout: false,
    publicAttendeeStatus: 'publish',
    publicRsvpProvider: 'rsvp',
    publicRsvpGoing: true,
    publicOrderStatuses: [...PUBLIC_ORDER_STATUSES],
  });
  where
    .andWhere(`${alias}.optout = :publicOptout`)
    .andWhere(`${alias}.status = :publicAttendeeStatus`)
    .andWhere(`(${alias}.provider <> :publicRsvpProvider OR ${alias}.rsvpGoing = :publicRsvpGoing)`)
    .andWhere(`${alias}.orderStatus IN (:...publicOrderStatuses)`);
}

/**
 * The attendees a page of tickets shows, split by ticket: every attendee of the tickets whose
 * event the caller manages; of the tickets of published events that show their list, the public
 * ones (`isPubliclyVisible`).
 */
export function ticketAttendeeLists(
  user: AuthenticatedUser | undefined,
  tickets: Ticket[],
  eventsById: Map<number, Pick<Event, 'authorId' | 'status' | 'showAttendeeList'>>,
): { managedIds: number[]; publicListIds: number[] } {
  const managedIds: number[] = [];
  const publicListIds: number[] = [];
  for (const ticket of tickets) {
    const event = eventsById.get(ticket.eventId)!;
    if (canManageEvent(user, event)) managedIds.push(ticket.id);
    else if (event.showAttendeeList && event.status === 'publish') publicListIds.push(ticket.id);
  }
  return { managedIds, publicListIds };
}

/** SQL over attendees `a` of the attendees `ticketAttendeeLists` lets through. */
export function applyTicketAttendeeVisibility(
  builder: SelectQueryBuilder<Attendee>,
  { managedIds, publicListIds }: { managedIds: number[]; publicListIds: number[] },
): void {
  builder.where(
    new Brackets((visible) => {
      if (managedIds.length) visible.orWhere('a.ticketId IN (:...managedIds)', { managedIds });
      if (publicListIds.length) {
        visible.orWhere(
          new Brackets((shown) => {
            shown.where('a.ticketId IN (:...publicListIds)', { publicListIds });
            applyPublicAttendeeState(shown, builder, 'a');
          }),
        );
      }
    }),
  );
}

// ---------------------------------------------------------------- coupons

/**
 * Who manages a coupon: the managers of its event, and the coupon's own author. The author is a
 * rule of its own rather than `canManageEvent`: a coupon without an event covers its author's
 * events (`couponCoversTicket`), so no event's managers answer for it, and whoever wrote a coupon
 * for an event keeps it.
 */
export function canManageCoupon(
  user: AuthenticatedUser | undefined,
  coupon: { authorId: number },
  event: { authorId: number | null } | null,
): boolean {
  if (!user) return false;
  if (managesEveryEvent(user) || coupon.authorId === user.id) return true;
  return event !== null && canManageEvent(user, event);
}

/**
 * SQL of `canManageCoupon` over `couponAlias` left-joined with its event `eventAlias`; null for
 * callers who manage every coupon, whose query needs neither the join nor the condition.
 */
export function managedCouponRestriction<T extends ObjectLiteral>(
  user: AuthenticatedUser | undefined,
  builder: SelectQueryBuilder<T>,
  couponAlias = 'coupon',
  eventAlias = 'event',
): string | null {
  if (managesEveryEvent(user)) return null;
  if (!user) return '1 = 0';
  builder.setParameter('couponAuthorId', user.id);
  return `(${couponAlias}.authorId = :couponAuthorId OR ${managedEventCondition(user, builder, eventAlias)})`;
}

// ---------------------------------------------------------------- orders

/** Who is asking about an order: the signed-in user (if any) and the cart token the request carries. */
export interface OrderViewer {
  user?: AuthenticatedUser;
  cartToken: string | null;
}

/** The buyer of an order: the user who placed it, or the holder of the cart it came from. */
export function isBuyer(order: Pick<Order, 'userId' | 'cartToken'>, viewer: OrderViewer): boolean {
  if (viewer.user && order.userId === viewer.user.id) return true;
  return !!viewer.cartToken && order.cartToken === viewer.cartToken;
}

export function managesAllEvents(user: AuthenticatedUser | undefined, events: Array<{ authorId: number | null }>): boolean {
  return events.length > 0 && events.every((event) => canManageEvent(user, event));
}

export function managesAnyEvent(user: AuthenticatedUser | undefined, events: Array<{ authorId: number | null }>): boolean {
  return events.some((event) => canManageEvent(user, event));
}

/**
 * An order list over `alias`: managers (`manage_attendees`) see every order; buyers their own, by
 * user or by cart token. False when the caller can see none (anonymous, without a cart).
 */
export function applyOrderVisibility<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, alias: string, viewer: OrderViewer): boolean {
  if (hasCapability(viewer.user, 'manage_attendees')) return true;
  if (!viewer.user && !viewer.cartToken) return false;
  builder.andWhere(
    new Brackets((own) => {
      if (viewer.user) own.orWhere(`${alias}.userId = :userId`, { userId: viewer.user.id });
      if (viewer.cartToken) own.orWhere(`${alias}.cartToken = :cartToken`, { cartToken: viewer.cartToken });
    }),
  );
  return true;
}
