import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { canManageEvent, managedEventRestriction } from '../tickets/ticket-visibility';
import { couponCoversTicket, CouponScope } from './coupon-discount';

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
  event: { authorId: number | null },
  reveal: CouponScope | null,
): boolean {
  if (!ticket.hiddenWithoutCoupon || canManageEvent(user, event)) return true;
  return reveal !== null && couponCoversTicket(reveal, ticket, event.authorId);
}
