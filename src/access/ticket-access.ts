import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AuthenticatedUser, hasCapability } from '../auth/roles';
import type { PostStatus } from '../posts/post-status';
import { couponCoversTicket, CouponScope } from './coupon-access';
import { canManageEvent, eventLimitCondition, managedEventCondition, managedEventRestriction } from './event-access';
import { canReadPost, listVisibility, type OwnedPost } from './post-access';

/**
 * Which tickets a caller may read and list: their event's managers every one; others published
 * tickets of events they may read, less the tickets hidden without a coupon unless a code reveals them.
 */

/** Whether the caller may read a ticket: its managers always; others when it and its event are readable. */
export function canReadTicket(
  user: AuthenticatedUser | undefined,
  ticket: { status: string },
  event: OwnedPost & { id?: number },
): boolean {
  if (canManageEvent(user, event)) return true;
  return ticket.status === 'publish' && canReadPost(user, event, event.id);
}

/**
 * Which tickets a caller may list, as `canReadTicket` decides for one: editors and administrators
 * all; others published tickets of published events, plus, for the author of an event, the
 * tickets of that event (authors manage them; contributors read the published ones).
 */
export function applyTicketVisibility<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, user: AuthenticatedUser | undefined): void {
  builder.setParameter('visiblePublish', 'publish');
  const limit = eventLimitCondition(user, builder, 'e.id');
  if (limit !== null) {
    // A token limited to events: what anyone reads, plus, of its events, the published tickets of
    // those the owner reads and every ticket of those the owner manages (canReadTicket).
    let reads = '1 = 0';
    if (hasCapability(user, 'read_private_events')) reads = limit;
    else if (user && hasCapability(user, 'edit_events')) {
      builder.setParameter('visibleOwner', user.id);
      reads = `(e.authorId = :visibleOwner AND ${limit})`;
    }
    const managed = managedEventCondition(user, builder, 'e');
    builder.andWhere(`((t.status = :visiblePublish AND (e.status = :visiblePublish OR ${reads})) OR ${managed})`);
    return;
  }
  if (hasCapability(user, 'read_private_events')) return;
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

// ---------------------------------------------------------------- hidden tickets

/**
 * Tickets flagged `hidden_without_coupon` are listed and read only by the managers of their event,
 * and by callers who give a code that reveals them (`?coupon=`). `reveal` is that code's scope.
 * The SQL twin of `canSeeHiddenTicket`, over the ticket list's aliases `t` (ticket) and `e` (event).
 */
export function applyHiddenTicketRule<T extends ObjectLiteral>(
  builder: SelectQueryBuilder<T>,
  user: AuthenticatedUser | undefined,
  reveal: CouponScope | null,
): void {
  const managed = managedEventRestriction(user, builder, 'e');
  if (managed === null) return;
  const shown = ['t.hiddenWithoutCoupon = :hiddenNo', managed];
  builder.setParameter('hiddenNo', false);
  if (reveal) {
    const scope = [reveal.eventId !== null ? 't.eventId = :revealEvent' : 'e.authorId = :revealAuthor'];
    builder.setParameters({ revealEvent: reveal.eventId, revealAuthor: reveal.authorId });
    if (reveal.ticketIds.length > 0) {
      scope.push('t.id IN (:...revealTickets)');
      builder.setParameter('revealTickets', reveal.ticketIds);
    }
    shown.push(`(${scope.join(' AND ')})`);
  }
  builder.andWhere(`(${shown.join(' OR ')})`);
}

/** Whether the caller may see this ticket as far as hiding goes (its other visibility rules apply as well). */
export function canSeeHiddenTicket(
  user: AuthenticatedUser | undefined,
  ticket: { id: number; eventId: number; hiddenWithoutCoupon: boolean },
  event: { id?: number; authorId: number | null },
  reveal: CouponScope | null,
): boolean {
  if (!ticket.hiddenWithoutCoupon || canManageEvent(user, { ...event, id: event.id ?? ticket.eventId })) return true;
  return reveal !== null && couponCoversTicket(reveal, ticket, event.authorId);
}
