import type { RequestContext } from '../auth/request-context';
import { centsToMoney, moneyToCents } from '../common/money';
import type { AppliedCoupon } from '../coupons/dto/coupon.response';
import type { CartMeta, CartResponse, CartTicket } from './dto/cart.response';

/** A cart line with what the response needs of its ticket. */
export interface CartLineView {
  ticketId: number;
  provider: string;
  quantity: number;
  optout: boolean;
  /** Stored registration answers, JSON. */
  meta: string | null;
  eventId: number;
  iac: string;
  /** The ticket's unit price ("25.00"). */
  price: string;
}

/** The cart's coupon and what it takes off one unit of each ticket it covers (minor units). */
export interface CartCouponView {
  coupon: AppliedCoupon;
  perUnit: ReadonlyMap<number, number>;
}

export function parseStoredItems(meta: string | null): unknown[] | null {
  if (meta === null) return null;
  try {
    const parsed: unknown = JSON.parse(meta);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The cart response, keys in the recorded order. As the original, the URLs are filled only when
 * the cart shows tickets and the request named an event (`post_id`).
 */
export function toCartResponse(
  lines: CartLineView[],
  postId: number | undefined,
  context: RequestContext,
  coupon: CartCouponView | null = null,
): CartResponse {
  const tickets = lines.map((line): CartTicket => {
    const shown: CartTicket = {
      ticket_id: line.ticketId,
      quantity: line.quantity,
      post_id: line.eventId,
      optout: line.optout ? 1 : 0,
      iac: line.iac,
      provider: line.provider,
    };
    if (!coupon) return shown;
    const price = line.provider === 'rsvp' ? 0 : (moneyToCents(line.price) ?? 0);
    const discount = coupon.perUnit.get(line.ticketId) ?? 0;
    return { ...shown, price: centsToMoney(price), discount: centsToMoney(discount), discounted_price: centsToMoney(price - discount) };
  });
  const meta: CartMeta[] = [];
  for (const line of lines) {
    const items = parseStoredItems(line.meta);
    if (items) meta.push({ ticket_id: line.ticketId, provider: line.provider, items });
  }
  const withUrls = tickets.length > 0 && postId !== undefined;
  return {
    tickets,
    meta,
    cart_url: withUrls ? `${context.namespaceUrl('tickets', 'cart')}?post_id=${postId}` : '',
    checkout_url: withUrls ? context.namespaceUrl('tickets', 'cart/checkout') : '',
    ...(coupon ? { coupon: coupon.coupon } : {}),
  };
}
