import { formatMoney, knownExponent } from '../../../common/money';

/**
 * Amounts as Stripe counts them (https://docs.stripe.com/currencies), from the service's minor
 * units (ISO 4217 exponent, src/common/money.ts). Stripe mostly counts in the same minor unit;
 * where it differs, its own rules win:
 * - its zero-decimal currencies are counted in whole units: all ISO zero-decimal ones, plus MGA
 *   (ISO: 2 decimals), which can then be charged in whole ariary only;
 * - ISK, zero-decimal for ISO and Stripe alike, is still sent as a two-decimal amount ending in 00;
 * - the three-decimal currencies are sent in their minor unit with a last digit of 0, so amounts
 *   move in steps of 10 of it (0.010 KWD).
 */
const STRIPE_WHOLE_UNITS = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const STRIPE_TWO_DECIMAL_ZERO_DECIMAL = new Set(['ISK']);

/** The currency as Stripe writes it: ISO 4217 in lower case. */
export function stripeCurrency(code: string): string {
  return code.trim().toLowerCase();
}

function isoExponent(currency: string): number {
  return knownExponent(currency);
}

/** Decimals of Stripe's amounts in `currency`. */
function stripeDecimals(currency: string): number {
  const code = currency.trim().toUpperCase();
  if (STRIPE_WHOLE_UNITS.has(code)) return 0;
  if (STRIPE_TWO_DECIMAL_ZERO_DECIMAL.has(code)) return 2;
  return isoExponent(code);
}

/** The smallest amount Stripe charges in `currency`, in the service's minor units. */
export function stripeStep(currency: string): number {
  const exponent = isoExponent(currency);
  const coarser = 10 ** Math.max(exponent - stripeDecimals(currency), 0);
  return exponent === 3 ? Math.max(coarser, 10) : coarser;
}

/**
 * Stripe's amount for `minor` (the service's minor units of `currency`). An amount Stripe
 * cannot charge exactly (off its step: prices set before the switch to Stripe) is refused rather
 * than rounded, so that what is charged is always what the order says.
 */
export function toStripeAmount(minor: number, currency: string): number {
  const step = stripeStep(currency);
  if (!Number.isSafeInteger(minor) || minor % step !== 0) {
    throw new Error(
      `${formatMoney(minor, isoExponent(currency))} ${currency.toUpperCase()} cannot be charged through Stripe, which charges in steps of ${formatMoney(step, isoExponent(currency))}`,
    );
  }
  const shift = stripeDecimals(currency) - isoExponent(currency);
  return shift >= 0 ? minor * 10 ** shift : minor / 10 ** -shift;
}

/** The service's minor units for a Stripe amount. */
export function fromStripeAmount(amount: number, currency: string): number {
  const shift = stripeDecimals(currency) - isoExponent(currency);
  return shift >= 0 ? Math.round(amount / 10 ** shift) : amount * 10 ** -shift;
}

/** Like fromStripeAmount, but null when the amount is no whole number of the service's minor units (an ISK amount not ending in 00). */
export function fromStripeAmountExactly(amount: number, currency: string): number | null {
  const minor = fromStripeAmount(amount, currency);
  return Number.isSafeInteger(amount) && toStripeAmount0(minor, currency) === amount ? minor : null;
}

function toStripeAmount0(minor: number, currency: string): number {
  const shift = stripeDecimals(currency) - isoExponent(currency);
  return shift >= 0 ? minor * 10 ** shift : minor / 10 ** -shift;
}
