import { centsToMoney } from '../common/money';

/**
 * Currencies Stripe counts in whole units (no minor unit): a price of 1000.00 JPY is `amount: 1000`.
 * https://docs.stripe.com/currencies#zero-decimal
 */
const ZERO_DECIMAL_CURRENCIES = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** The currency as the provider writes it: ISO 4217 in lower case. */
export function providerCurrency(code: string): string {
  return code.trim().toLowerCase();
}

/**
 * The provider's amount for `cents` (the service's hundredths of the currency unit). Zero-decimal
 * currencies round to whole units: their prices carry no fraction anyway.
 */
export function toProviderAmount(cents: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(providerCurrency(currency)) ? Math.round(cents / 100) : cents;
}

/** The service's hundredths for a provider amount. */
export function fromProviderAmount(amount: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(providerCurrency(currency)) ? amount * 100 : amount;
}

/**
 * What a refund request of `requested` cents may refund of a payment of `paid` cents of which
 * `refunded` are already refunded: null means all that is left. A string names the problem.
 */
export function refundAmount(paid: number, refunded: number, requested: number | null): { amount: number; full: boolean } | string {
  const left = paid - refunded;
  if (left <= 0) return 'the payment is refunded in full already';
  if (requested === null) return { amount: left, full: true };
  if (!Number.isInteger(requested) || requested <= 0) return 'amount must be more than 0';
  if (requested > left) return `amount must be at most what is left to refund (${centsToMoney(left)})`;
  return { amount: requested, full: requested === left };
}

/** Milliseconds a retried provider call waits after `attempts` failures: 30 s doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
