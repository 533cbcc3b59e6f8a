import type { CartItem } from '../cart/cart.entity';
import type { CheckoutCoupon, CouponLine } from '../coupons/coupons.service';
import type { CapacityCount, CapacityLine } from '../tickets/capacity.service';
import type { Ticket, TicketProvider } from '../tickets/ticket.entity';
import type { Order, OrderStatus } from './order.entity';
import { orderTotalTooLarge } from './order-errors';

/**
 * What a checkout charges, pure: each unit at its ticket's price (RSVP free) less the coupon's
 * discount for that ticket (coupon-discount.ts decides it and its rounding), the order's total the
 * sum of its units, all in the currency's minor units (src/common/money.ts): the total is exactly the
 * lines' prices less the discounts, and is what the payment provider is asked for. The total
 * decides the status and which capacity count the order takes.
 */

/** What an order costs and takes: free orders complete at once, paid ones wait for payment. */
export interface OrderPricing {
  /** RSVP answer (null for paid tickets). */
  going: boolean | null;
  unitPrice: (ticket: Ticket) => number;
  totalMinor: number;
  status: OrderStatus;
  /** The capacity to take, none for RSVP "not going". */
  capacity: { lines: CapacityLine[]; count: CapacityCount } | null;
  /** The coupon, when it covers units of the order (never a "not going" one's); `unitPrice` is after its discount. */
  coupon: CheckoutCoupon | null;
  unitDiscount: (ticket: Ticket) => number;
}

/** A unit's price before any coupon, in minor units. */
export function basePrice(ticket: Ticket, provider: TicketProvider): number {
  return provider === 'rsvp' ? 0 : ticket.priceMinor;
}

/** The RSVP answer: going unless `false` was sent; null for paid tickets. */
export function rsvpGoing(provider: TicketProvider, goingAnswer: boolean | undefined): boolean | null {
  return provider === 'rsvp' ? goingAnswer !== false : null;
}

/**
 * The lines the cart's coupon prices at checkout. A "not going" answer takes no place, so none of
 * its units uses the code: they count as none (a code then covers nothing and is not used), though
 * hidden tickets are still checked against the code.
 */
export function couponLines(
  items: CartItem[],
  tickets: Map<number, Ticket>,
  provider: TicketProvider,
  going: boolean | null,
): CouponLine[] {
  return items.map((item) => {
    const ticket = tickets.get(item.ticketId) as Ticket;
    return {
      ticketId: item.ticketId,
      quantity: going === false ? 0 : item.quantity,
      priceMinor: basePrice(ticket, provider),
      hidden: ticket.hiddenWithoutCoupon,
    };
  });
}

/** What an order row records of its coupon (nothing when it covered no unit). */
export function orderCouponColumns(coupon: CheckoutCoupon | null): Pick<Order, 'couponId' | 'couponCode' | 'couponUses' | 'discountMinor'> {
  if (!coupon || coupon.discounts.units === 0) return { couponId: null, couponCode: null, couponUses: 0, discountMinor: 0 };
  return {
    couponId: coupon.coupon.id,
    couponCode: coupon.coupon.code,
    couponUses: coupon.discounts.units,
    discountMinor: coupon.discounts.totalMinor,
  };
}

/**
 * A sale at the door is paid when it is placed (cash, card terminal, or nothing to pay): the order
 * is completed at once and its units are sold, not held.
 */
export function paidAtTheDoor(pricing: OrderPricing): OrderPricing {
  return {
    ...pricing,
    status: 'completed',
    capacity: pricing.capacity && { lines: pricing.capacity.lines, count: 'sold' },
  };
}

/** The prices of the cart lines of `tickets`, with the coupon when it covers any unit of them. */
export function priceOrder(
  items: CartItem[],
  tickets: Map<number, Ticket>,
  provider: TicketProvider,
  goingAnswer: boolean | undefined,
  checkoutCoupon: CheckoutCoupon | null = null,
): OrderPricing {
  const going = rsvpGoing(provider, goingAnswer);
  const coupon = going !== false && checkoutCoupon && checkoutCoupon.discounts.units > 0 ? checkoutCoupon : null;
  const unitDiscount = (ticket: Ticket) => coupon?.discounts.perUnit.get(ticket.id) ?? 0;
  const unitPrice = (ticket: Ticket) => basePrice(ticket, provider) - unitDiscount(ticket);
  const totalMinor = items.reduce((sum, item) => sum + unitPrice(tickets.get(item.ticketId) as Ticket) * item.quantity, 0);
  if (!Number.isSafeInteger(totalMinor)) throw orderTotalTooLarge();
  const status: OrderStatus = totalMinor === 0 ? 'completed' : 'pending';
  const capacity =
    going === false
      ? null
      : {
          lines: items.map((item) => ({ ticket: tickets.get(item.ticketId) as Ticket, quantity: item.quantity })),
          count: status === 'completed' ? ('sold' as const) : ('pending' as const),
        };
  return { going, unitPrice, totalMinor, status, capacity, coupon, unitDiscount };
}
