import { formatMoney, knownExponent } from '../../../common/money';

/**
 * The currencies PayPal's REST API takes (https://developer.paypal.com/api/rest/reference/currency-codes/),
 * with the decimals it accepts where fewer than ISO 4217's: HUF and TWD have two for ISO but none for
 * PayPal ("decimal amounts cause an error"), so amounts in them move in whole forints and dollars.
 * BRL, CNY and MYR are for in-country PayPal accounts only; PayPal refuses them otherwise.
 */
export const PAYPAL_CURRENCIES: ReadonlySet<string> = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'SEK',
  'SGD',
  'CHF',
  'THB',
  'TWD',
  'USD',
]);
const PAYPAL_WHOLE_UNITS = new Set(['HUF', 'JPY', 'TWD']);

function code(currency: string): string {
  return currency.trim().toUpperCase();
}

/** Decimals of PayPal's amounts in `currency`. */
export function paypalDecimals(currency: string): number {
  return PAYPAL_WHOLE_UNITS.has(code(currency)) ? 0 : knownExponent(code(currency));
}

/** The smallest amount PayPal charges in `currency`, in the service's minor units (100 for HUF and TWD). */
export function paypalStep(currency: string): number {
  return 10 ** Math.max(knownExponent(code(currency)) - paypalDecimals(currency), 0);
}

/**
 * PayPal's `value` for `minor` units of `currency`: a decimal string with PayPal's decimals. An
 * amount off PayPal's step is refused, never rounded.
 */
export function toPayPalValue(minor: number, currency: string): string {
  const exponent = knownExponent(code(currency));
  const step = paypalStep(currency);
  if (!Number.isSafeInteger(minor) || minor < 0 || minor % step !== 0) {
    throw new Error(
      `${formatMoney(minor, exponent)} ${code(currency)} cannot be charged through PayPal, which charges in steps of ${formatMoney(step, exponent)}`,
    );
  }
  return formatMoney(minor / step, paypalDecimals(currency));
}

/** The service's minor units for a PayPal `value`; null when it is not an exact amount with at most the currency's decimals. */
export function fromPayPalValue(value: string | undefined, currency: string): number | null {
  if (value === undefined) return null;
  const exponent = knownExponent(code(currency));
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const decimals = match[2] ?? '';
  if (decimals.length > exponent && /[^0]/.test(decimals.slice(exponent))) return null;
  const minor = Number(match[1]) * 10 ** exponent + Number((decimals.slice(0, exponent) || '0').padEnd(exponent, '0'));
  return Number.isSafeInteger(minor) ? minor : null;
}
