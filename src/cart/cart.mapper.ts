import type { RequestContext } from '../auth/request-context';
import { formatMoney } from '../common/money';
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
  /** The ticket's unit price, in minor units. */
  priceMinor: number;
  /** The ticket is sold only with an access code that reveals it (`hidden_without_coupon`). */
  hidden: boolean;
}

/** The cart's coupon and what it takes off one unit of each ticket it covers (minor units). */
export interface CartCouponView {
  coupon: AppliedCoupon;
  perUnit: ReadonlyMap<number, number>;
  /** The currency's decimals, which the prices are shown with. */
  exponent: number;
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
    const price = line.provider === 'rsvp' ? 0 : line.priceMinor;
    const discount = coupon.perUnit.get(line.ticketId) ?? 0;
    const { exponent } = coupon;
    return {
      ...shown,
      price: formatMoney(price, exponent),
      discount: formatMoney(discount, exponent),
      discounted_price: formatMoney(price - discount, exponent),
    };
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
