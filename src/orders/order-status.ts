import type { CapacityCount } from '../tickets/capacity.service';
import type { OrderStatus } from './order.entity';

/**
 * The attendee `order_status` values that hold a valid ticket: counted as sold, listed publicly,
 * admitted at the door, sent their ticket. Completed orders, and RSVPs answered "going". The sales
 * ledger's triggers (migrations SalesLedger and CouponSales) say the same in SQL.
 */
export const VALID_TICKET_ORDER_STATUSES = ['completed', 'yes'] as const;

export function holdsValidTicket(attendeeOrderStatus: string): boolean {
  return (VALID_TICKET_ORDER_STATUSES as readonly string[]).includes(attendeeOrderStatus);
}

/** What managers, buyers and the payment webhook can do to an order. */
export type OrderAction = 'complete' | 'cancel' | 'refund';

const ALLOWED_FROM: Record<OrderAction, readonly OrderStatus[]> = {
  complete: ['pending'],
  cancel: ['pending', 'completed'],
  refund: ['completed'],
};

export const ACTION_TARGET: Record<OrderAction, OrderStatus> = {
  complete: 'completed',
  cancel: 'cancelled',
  refund: 'refunded',
};

/**
 * pending → completed (paid), cancelled, expired (hold lapsed); completed → cancelled, refunded.
 * Cancelled, refunded and expired orders are final.
 */
export function canTransition(action: OrderAction, from: OrderStatus): boolean {
  return ALLOWED_FROM[action].includes(from);
}

/** Which capacity count an order in `status` holds its units in: none once it has ended. */
export function heldCount(status: OrderStatus): CapacityCount | null {
  if (status === 'pending') return 'pending';
  if (status === 'completed') return 'sold';
  return null;
}

/**
 * The `order_status` its attendees carry: the order's status, except that answered RSVPs read
 * `yes` (going) or `no` (not going) as in the original.
 */
export function attendeeOrderStatus(provider: string, orderStatus: OrderStatus, rsvpGoing: boolean | null): string {
  if (provider === 'rsvp' && orderStatus === 'completed') return rsvpGoing === false ? 'no' : 'yes';
  return orderStatus;
}
