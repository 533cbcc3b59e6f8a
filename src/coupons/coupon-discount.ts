/**
 * The arithmetic of coupons, pure: amounts in minor units (cents) and basis points, never floats.
 *
 * Rounding rule: a percent discount is worked out per ticket unit and rounded half up to the
 * minor unit (10% of 0.05 is 0.01, 10% of 0.04 is 0.00); a discount is never more than the unit's
 * price and never below 0, so a unit never costs less than 0. The order's discount is the sum of
 * its units' discounts, so totals add up exactly.
 */

export const DISCOUNT_TYPES = ['percent', 'flat', 'none'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** 100% in basis points: percent amounts are stored in hundredths of a percent. */
export const FULL_PERCENT_BASIS_POINTS = 10_000;

/** What the discount rules need of a coupon. */
export interface CouponTerms {
  discountType: DiscountType;
  /** percent: basis points (1250 = 12.5%); flat: minor units off each unit; none: 0. */
  amount: number;
}

/** What one unit of a ticket priced `priceCents` gets off. */
export function unitDiscount(priceCents: number, terms: CouponTerms): number {
  if (!Number.isSafeInteger(priceCents) || priceCents <= 0) return 0;
  if (terms.discountType === 'none' || terms.amount <= 0) return 0;
  if (terms.discountType === 'flat') return Math.min(terms.amount, priceCents);
  const basisPoints = BigInt(Math.min(terms.amount, FULL_PERCENT_BASIS_POINTS));
  // Half up: add half the divisor before the integer division (BigInt: price × basis points may pass 2^53).
  const rounded = (BigInt(priceCents) * basisPoints + BigInt(FULL_PERCENT_BASIS_POINTS / 2)) / BigInt(FULL_PERCENT_BASIS_POINTS);
  return Math.min(Number(rounded), priceCents);
}

export interface PricedLine {
  ticketId: number;
  quantity: number;
  priceCents: number;
}

export interface LineDiscounts {
  /** Discount per unit of each ticket the coupon applies to. */
  perUnit: Map<number, number>;
  /** Units the coupon applies to: the uses it takes. */
  units: number;
  /** The sum of every unit's discount. */
  totalCents: number;
}

/** The discounts of `lines` where `applies` says the coupon covers the ticket. */
export function lineDiscounts(lines: PricedLine[], applies: (ticketId: number) => boolean, terms: CouponTerms): LineDiscounts {
  const perUnit = new Map<number, number>();
  let units = 0;
  let totalCents = 0;
  for (const line of lines) {
    if (line.quantity <= 0 || !applies(line.ticketId)) continue;
    const discount = unitDiscount(line.priceCents, terms);
    perUnit.set(line.ticketId, discount);
    units += line.quantity;
    totalCents += discount * line.quantity;
  }
  return { perUnit, units, totalCents };
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

/** The stored form of a code for the unique index: codes are case-insensitive. */
export function codeKey(code: string): string {
  return code.trim().toLowerCase();
}

const AMOUNT_PATTERN = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/**
 * `amount` as sent ("12.5", 12.5, "5.00") in hundredths: basis points for percent, minor units
 * for flat. Null when it is not a non-negative decimal with at most two decimals.
 */
export function parseAmount(raw: unknown): number | null {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw) || raw < 0) return null;
    text = String(raw);
  } else if (typeof raw === 'string') text = raw.trim();
  else return null;
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** `amount` for the API: percent "12.5" (no trailing zeros), flat "5.00", none "0". */
export function formatAmount(terms: CouponTerms): string {
  if (terms.discountType === 'none') return '0';
  const whole = Math.floor(terms.amount / 100);
  const fraction = String(terms.amount % 100).padStart(2, '0');
  if (terms.discountType === 'flat') return `${whole}.${fraction}`;
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed === '' ? String(whole) : `${whole}.${trimmed}`;
}
