import type { ValueTransformer } from 'typeorm';

/**
 * Money (docs/api.md "Money"): integers in the currency's minor units inside, strings with exactly
 * the currency's decimals at the API edge ("4500" yen, "4500.00" euros, "4500.000" dinars). This
 * module owns the ISO 4217 exponents and the parsing, formatting and rounding; everything else asks
 * it. The amounts are safe integers: ten integer digits at most, plus the currency's decimals.
 */

/**
 * ISO 4217 minor units (the exponent) of the currencies of List One that have one, plus the
 * recently withdrawn ANG, CUC, HRK, SLL and ZWL so that a deployment set to one still starts.
 * A small table rather than a dependency: ICU's (Intl) differs from ISO for a dozen currencies
 * (IQD, MGA, RSD…), and no maintained package carries just this.
 */
const EXPONENTS: Readonly<Record<string, number>> = (() => {
  const table: Record<string, number> = {};
  const groups: Array<[number, string]> = [
    [0, 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'],
    [3, 'BHD IQD JOD KWD LYD OMR TND'],
    [4, 'CLF UYW'],
    [
      2,
      'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW ' +
        'CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF ' +
        'IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV ' +
        'MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD ' +
        'SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL',
    ],
  ];
  for (const [exponent, codes] of groups) for (const code of codes.split(' ')) table[code] = exponent;
  return table;
})();

/** The ISO 4217 exponent of `code` (upper case), or undefined for a code the table does not know. */
export function currencyExponent(code: string): number | undefined {
  return EXPONENTS[code.trim().toUpperCase()];
}

/** The exponent of a code already checked (the configured currency, an order's): an unknown one is a bug. */
export function knownExponent(code: string): number {
  const exponent = currencyExponent(code);
  if (exponent === undefined) throw new Error(`${code} is not an ISO 4217 currency code`);
  return exponent;
}

/** Every currency code the service accepts. */
export function knownCurrencies(): string[] {
  return Object.keys(EXPONENTS).sort();
}

/** What an amount of the deployment's money may be. */
export interface MoneyRules {
  /** ISO 4217 code, for messages. */
  currency: string;
  /** Decimals of the currency (ISO 4217 exponent). */
  exponent: number;
  /**
   * Minor units an amount moves by: 1, or more where the payment provider charges coarser amounts
   * (Stripe takes the three-decimal currencies in tens of their minor unit: src/payments/payment-amounts.ts).
   */
  step: number;
}

/** Integer digits an amount may have, whatever the currency: 9 999 999 999 at most. */
export const MAX_MONEY_INTEGER_DIGITS = 10;

/** The largest amount the validators accept, in minor units of a currency of `exponent` decimals. */
export function maxMinorUnits(exponent: number): number {
  return 10 ** (MAX_MONEY_INTEGER_DIGITS + exponent) - 1;
}

export type MoneyProblem = 'not-a-number' | 'too-many-decimals' | 'too-large' | 'off-step';

export type ParsedMoney = { minor: number; problem?: undefined } | { minor?: undefined; problem: MoneyProblem };

const DECIMAL = /^(\d*)(?:\.(\d*))?$/;
/** Longer text is no amount anyone means (and is not worth parsing). */
const MAX_TEXT_LENGTH = 40;

/**
 * A non-negative amount as sent (a decimal string such as "25", "25.5", "25.50", or a JSON number)
 * in minor units. Trailing zeros carry no precision ("1500.00" is 1500 yen); a significant decimal
 * more than the currency has is refused, never rounded.
 */
export function parseMoney(raw: unknown, rules: MoneyRules): ParsedMoney {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw) || raw < 0) return { problem: 'not-a-number' };
    text = String(raw);
  } else if (typeof raw === 'string') {
    text = raw.trim();
  } else {
    return { problem: 'not-a-number' };
  }
  const match = text.length <= MAX_TEXT_LENGTH ? DECIMAL.exec(text) : null;
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return { problem: 'not-a-number' };
  const integerDigits = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > rules.exponent) return { problem: 'too-many-decimals' };
  if (integerDigits.length > MAX_MONEY_INTEGER_DIGITS) return { problem: 'too-large' };
  const minor = Number(integerDigits || '0') * 10 ** rules.exponent + Number(fraction.padEnd(rules.exponent, '0') || '0');
  if (minor % rules.step !== 0) return { problem: 'off-step' };
  return { minor };
}

/** Why `field` was refused, in words a client can show. */
export function describeMoneyProblem(field: string, problem: MoneyProblem, rules: MoneyRules): string {
  switch (problem) {
    case 'not-a-number':
      return `${field} must be a non-negative amount such as ${formatMoney(25 * 10 ** rules.exponent, rules.exponent)}`;
    case 'too-many-decimals':
      return rules.exponent === 0
        ? `${field} must be a whole amount: ${rules.currency} has no decimals`
        : `${field} must have at most ${rules.exponent} decimal${rules.exponent === 1 ? '' : 's'}: ${rules.currency} has ${rules.exponent}`;
    case 'too-large':
      return `${field} must be at most ${formatMoney(maxMinorUnits(rules.exponent), rules.exponent)}`;
    case 'off-step':
      return `${field} must be a multiple of ${formatMoney(rules.step, rules.exponent)}: ${rules.currency} is charged in steps of ${formatMoney(rules.step, rules.exponent)}`;
  }
}

/** `minor` as a decimal string with exactly `exponent` decimals: 4500 → "4500" (0), "45.00" (2), "4.500" (3). */
export function formatMoney(minor: number, exponent: number): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** As formatMoney, with thousands separators: "1,025.50". */
export function formatMoneyGrouped(minor: number, exponent: number, thousandsSeparator = ','): string {
  const [units, fraction] = formatMoney(minor, exponent).split('.');
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, thousandsSeparator);
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** As formatMoney without trailing zeros: "25.00" → "25", "25.50" → "25.5" (how the original stores prices). */
export function formatMoneyTrimmed(minor: number, exponent: number): string {
  const text = formatMoney(minor, exponent);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** The amount as a number of major units, for spreadsheets (exact for every amount the validators accept). */
export function moneyToNumber(minor: number, exponent: number): number {
  return Number(formatMoney(minor, exponent));
}

/** `dividend / divisor` rounded half up, for non-negative integers (BigInt: products of amounts pass 2^53). */
export function divideHalfUp(dividend: bigint, divisor: bigint): bigint {
  return (dividend + divisor / 2n) / divisor;
}

/** 100% in basis points: percentages are kept in hundredths of a percent. */
export const FULL_PERCENT_BASIS_POINTS = 10_000;

/**
 * `basisPoints` of `minor`, rounded half up to a multiple of `step` (10% of 0.05 is 0.01, of 0.04 is
 * 0.00); never more than `minor`.
 */
export function percentageOf(minor: number, basisPoints: number, step = 1): number {
  if (!Number.isSafeInteger(minor) || minor <= 0 || basisPoints <= 0) return 0;
  const points = BigInt(Math.min(basisPoints, FULL_PERCENT_BASIS_POINTS));
  const steps = divideHalfUp(BigInt(minor) * points, BigInt(FULL_PERCENT_BASIS_POINTS) * BigInt(step));
  return Math.min(Number(steps) * step, minor);
}

/** A BIGINT column of minor units: MySQL drivers hand BIGINT over as a string. */
export const minorUnitsColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? 0 : Number(value)),
};
