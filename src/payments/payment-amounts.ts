import { formatMoney, knownExponent, MoneyRules } from '../common/money';
import type { CurrencyConfig, PaymentsConfig } from '../config/app.config';

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

/** The currency as the provider writes it: ISO 4217 in lower case. */
export function providerCurrency(code: string): string {
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
 * What the deployment's amounts may be: the currency's decimals, and the step the payment provider
 * charges in (Stripe's three-decimal currencies and MGA; 1 when orders are paid by hand).
 */
export function moneyRules(config: {
  currency: Pick<CurrencyConfig, 'code' | 'exponent'>;
  payments: Pick<PaymentsConfig, 'provider'>;
}): MoneyRules {
  const { code, exponent } = config.currency;
  return { currency: code, exponent, step: config.payments.provider === 'stripe' ? stripeStep(code) : 1 };
}

/**
 * The provider's amount for `minor` (the service's minor units of `currency`). An amount Stripe
 * cannot charge exactly (off its step: prices set before the switch to Stripe) is refused rather
 * than rounded, so that what is charged is always what the order says.
 */
export function toProviderAmount(minor: number, currency: string): number {
  const step = stripeStep(currency);
  if (!Number.isSafeInteger(minor) || minor % step !== 0) {
    throw new Error(
      `${formatMoney(minor, isoExponent(currency))} ${currency.toUpperCase()} cannot be charged through Stripe, which charges in steps of ${formatMoney(step, isoExponent(currency))}`,
    );
  }
  const shift = stripeDecimals(currency) - isoExponent(currency);
  return shift >= 0 ? minor * 10 ** shift : minor / 10 ** -shift;
}

/** The service's minor units for a provider amount. */
export function fromProviderAmount(amount: number, currency: string): number {
  const shift = stripeDecimals(currency) - isoExponent(currency);
  return shift >= 0 ? Math.round(amount / 10 ** shift) : amount * 10 ** -shift;
}

/**
 * What a refund request of `requested` minor units may refund of a payment of `paid` of which
 * `refunded` are already refunded: null means all that is left. A string names the problem.
 */
export function refundAmount(
  paid: number,
  refunded: number,
  requested: number | null,
  exponent: number,
): { amount: number; full: boolean } | string {
  const left = paid - refunded;
  if (left <= 0) return 'the payment is refunded in full already';
  if (requested === null) return { amount: left, full: true };
  if (!Number.isInteger(requested) || requested <= 0) return 'amount must be more than 0';
  if (requested > left) return `amount must be at most what is left to refund (${formatMoney(left, exponent)})`;
  return { amount: requested, full: requested === left };
}

/** Milliseconds a retried provider call waits after `attempts` failures: 30 s doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
