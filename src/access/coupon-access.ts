import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { canManageEvent, managedEventCondition, managesEveryEvent, tokenEventLimit } from './event-access';

/** Which tickets a coupon covers: one event or all events of its author, all their tickets or a list. */
export interface CouponScope {
  eventId: number | null;
  authorId: number;
  ticketIds: number[];
}

export function couponCoversTicket(scope: CouponScope, ticket: { id: number; eventId: number }, eventAuthorId: number | null): boolean {
  if (scope.ticketIds.length > 0 && !scope.ticketIds.includes(ticket.id)) return false;
  if (scope.eventId !== null) return ticket.eventId === scope.eventId;
  return eventAuthorId === scope.authorId;
}

/**
 * Who manages a coupon: the managers of its event, and the coupon's own author. The author is a
 * rule of its own rather than `canManageEvent`: a coupon without an event covers its author's
 * events (`couponCoversTicket`), so no event's managers answer for it, and whoever wrote a coupon
 * for an event keeps it.
 */
export function canManageCoupon(
  user: AuthenticatedUser | undefined,
  coupon: { authorId: number },
  event: { id?: number; authorId: number | null } | null,
): boolean {
  if (!user) return false;
  // A token limited to events: the coupons of its events it manages (not those covering all events).
  if (tokenEventLimit(user) !== null) return event !== null && canManageEvent(user, event);
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
  if (tokenEventLimit(user) !== null) return managedEventCondition(user, builder, eventAlias);
  builder.setParameter('couponAuthorId', user.id);
  return `(${couponAlias}.authorId = :couponAuthorId OR ${managedEventCondition(user, builder, eventAlias)})`;
}
