import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { eventLimitCondition, managesEveryEvent, tokenEventLimit } from './event-access';
import { hasCapability } from '../auth/roles';

/**
 * Who sees an order: its buyer (the user who placed it, or the holder of its cart), and the
 * managers of its events (event-access.ts: `managesAllEvents`, `managesAnyEvent`); the order list
 * shows buyers their own and those who manage every event all.
 */

/** Who is asking about an order: the signed-in user (if any) and the cart token the request carries. */
export interface OrderViewer {
  user?: AuthenticatedUser;
  cartToken: string | null;
}

/** The buyer of an order: the user who placed it, or the holder of the cart it came from. */
export function isBuyer(order: { userId: number | null; cartToken: string | null }, viewer: OrderViewer): boolean {
  if (viewer.user && order.userId === viewer.user.id) return true;
  return !!viewer.cartToken && order.cartToken === viewer.cartToken;
}

/**
 * An order list over `alias`: managers (`manage_attendees`) see every order; buyers their own, by
 * user or by cart token. False when the caller can see none (anonymous, without a cart).
 */
export function applyOrderVisibility<T extends ObjectLiteral>(builder: SelectQueryBuilder<T>, alias: string, viewer: OrderViewer): boolean {
  if (managesEveryEvent(viewer.user)) return true;
  if (!viewer.user && !viewer.cartToken) return false;
  // A manager's token limited to events: the orders with an attendee of those events.
  const limited = tokenEventLimit(viewer.user) !== null && hasCapability(viewer.user, 'manage_attendees');
  const ofEvents = limited ? eventLimitCondition(viewer.user, builder, 'limited_attendee.event_id') : null;
  builder.andWhere(
    new Brackets((own) => {
      if (viewer.user) own.orWhere(`${alias}.userId = :userId`, { userId: viewer.user.id });
      if (viewer.cartToken) own.orWhere(`${alias}.cartToken = :cartToken`, { cartToken: viewer.cartToken });
      if (ofEvents) own.orWhere(`${alias}.id IN (SELECT limited_attendee.order_id FROM attendees limited_attendee WHERE ${ofEvents})`);
    }),
  );
  return true;
}
