import { formatMoney, percentageOf } from '../common/money';

export { FULL_PERCENT_BASIS_POINTS } from '../common/money';

/**
 * The arithmetic of coupons, pure: amounts in the currency's minor units (src/common/money.ts) and
 * basis points, never floats.
 *
 * Rounding rule: a percent discount is worked out per ticket unit and rounded half up to the
 * minor unit, or to the payment provider's step where it charges coarser amounts (10% of 0.05 EUR
 * is 0.01, of 0.04 EUR is 0.00; 15% of 1 001 JPY is 150); a discount is never more than the unit's
 * price and never below 0, so a unit never costs less than 0. Every unit of a line gets the same
 * discount, and the order's discount is the sum of its units' discounts, so the order's total is
 * exactly the sum of its lines less the discounts, and is what the provider is asked to charge.
 */

export const DISCOUNT_TYPES = ['percent', 'flat', 'none'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** What the discount rules need of a coupon. */
export interface CouponTerms {
  discountType: DiscountType;
  /** percent: basis points (1250 = 12.5%); flat: minor units off each unit; none: 0. */
  amount: number;
}

/** What one unit of a ticket priced `priceMinor` gets off; percentages rounded half up to `step` minor units. */
export function unitDiscount(priceMinor: number, terms: CouponTerms, step = 1): number {
  if (!Number.isSafeInteger(priceMinor) || priceMinor <= 0) return 0;
  if (terms.discountType === 'none' || terms.amount <= 0) return 0;
  if (terms.discountType === 'flat') return Math.min(terms.amount, priceMinor);
  return percentageOf(priceMinor, terms.amount, step);
}

export interface PricedLine {
  ticketId: number;
  quantity: number;
  /** The unit's price before the coupon, in minor units. */
  priceMinor: number;
}

export interface LineDiscounts {
  /** Discount per unit of each ticket the coupon applies to. */
  perUnit: Map<number, number>;
  /** Units the coupon applies to: the uses it takes. */
  units: number;
  /** The sum of every unit's discount, in minor units. */
  totalMinor: number;
}

/** The discounts of `lines` where `applies` says the coupon covers the ticket (percentages rounded to `step`). */
export function lineDiscounts(lines: PricedLine[], applies: (ticketId: number) => boolean, terms: CouponTerms, step = 1): LineDiscounts {
  const perUnit = new Map<number, number>();
  let units = 0;
  let totalMinor = 0;
  for (const line of lines) {
    if (line.quantity <= 0 || !applies(line.ticketId)) continue;
    const discount = unitDiscount(line.priceMinor, terms, step);
    perUnit.set(line.ticketId, discount);
    units += line.quantity;
    totalMinor += discount * line.quantity;
  }
  return { perUnit, units, totalMinor };
}

/** What a coupon's validity depends on besides the tickets. */
export interface CouponWindow {
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  uses: number;
}

export type CouponProblem = 'not-started' | 'ended' | 'used-up';

/** Why the coupon cannot be used for `units` more units at `now`, or null. `ends_at` is exclusive. */
export function couponProblem(coupon: CouponWindow, now: Date, units = 0): CouponProblem | null {
  if (coupon.startsAt && now.getTime() < coupon.startsAt.getTime()) return 'not-started';
  if (coupon.endsAt && now.getTime() >= coupon.endsAt.getTime()) return 'ended';
  if (coupon.maxUses !== null && coupon.uses + Math.max(units, 1) > coupon.maxUses) return 'used-up';
  return null;
}

/** The stored form of a code for the unique index: codes are case-insensitive. */
export function codeKey(code: string): string {
  return code.trim().toLowerCase();
}

const PERCENT_PATTERN = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/**
 * A percent `amount` as sent ("12.5", 12.5) in basis points. Null when it is not a non-negative
 * decimal with at most two decimals. Flat amounts are money: src/common/money.ts reads them.
 */
export function parsePercent(raw: unknown): number | null {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw) || raw < 0) return null;
    text = String(raw);
  } else if (typeof raw === 'string') text = raw.trim();
  else return null;
  const match = PERCENT_PATTERN.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** `amount` for the API: percent "12.5" (no trailing zeros), flat with the currency's `exponent` decimals ("5.00", "500" yen), none "0". */
export function formatAmount(terms: CouponTerms, exponent: number): string {
  if (terms.discountType === 'none') return '0';
  if (terms.discountType === 'flat') return formatMoney(terms.amount, exponent);
  const whole = Math.floor(terms.amount / 100);
  const fraction = String(terms.amount % 100).padStart(2, '0');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed === '' ? String(whole) : `${whole}.${trimmed}`;
}
