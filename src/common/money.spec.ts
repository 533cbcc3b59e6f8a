import fc from 'fast-check';
import {
  currencyExponent,
  describeMoneyProblem,
  divideHalfUp,
  formatMoney,
  formatMoneyGrouped,
  formatMoneyTrimmed,
  knownCurrencies,
  maxMinorUnits,
  minorUnitsColumn,
  moneyToNumber,
  MoneyRules,
  parseMoney,
  percentageOf,
} from './money';

const rules = (currency: string, step = 1): MoneyRules => ({ currency, exponent: currencyExponent(currency)!, step });
const JPY = rules('JPY');
const EUR = rules('EUR');
const KWD = rules('KWD');

describe('money', () => {
  describe('the ISO 4217 exponents', () => {
    it('knows the zero-, two-, three- and four-decimal currencies', () => {
      for (const code of ['JPY', 'KRW', 'CLP', 'ISK', 'VND', 'XOF', 'UGX']) expect([code, currencyExponent(code)]).toEqual([code, 0]);
      for (const code of ['EUR', 'USD', 'GBP', 'CHF', 'MGA', 'HUF', 'IDR', 'RSD', 'TWD'])
        expect([code, currencyExponent(code)]).toEqual([code, 2]);
      for (const code of ['KWD', 'BHD', 'JOD', 'OMR', 'TND', 'IQD', 'LYD']) expect([code, currencyExponent(code)]).toEqual([code, 3]);
      for (const code of ['CLF', 'UYW']) expect([code, currencyExponent(code)]).toEqual([code, 4]);
    });

    it('reads codes in any case and knows no invented or unit-of-account code', () => {
      expect(currencyExponent(' jpy ')).toBe(0);
      for (const code of ['XXX', 'XAU', 'XDR', 'ABC', '']) expect(currencyExponent(code)).toBeUndefined();
    });

    it('lists each code once, three capital letters each', () => {
      const codes = knownCurrencies();
      expect(new Set(codes).size).toBe(codes.length);
      expect(codes.length).toBeGreaterThan(150);
      for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
    });
  });

  describe('parseMoney', () => {
    it('reads decimal strings and numbers into minor units exactly', () => {
      expect(parseMoney('25', EUR)).toEqual({ minor: 2500 });
      expect(parseMoney('25.5', EUR)).toEqual({ minor: 2550 });
      expect(parseMoney(' 0.10 ', EUR)).toEqual({ minor: 10 });
      expect(parseMoney(7.25, EUR)).toEqual({ minor: 725 });
      expect(parseMoney('1500', JPY)).toEqual({ minor: 1500 });
      expect(parseMoney('4.125', KWD)).toEqual({ minor: 4125 });
      expect(parseMoney('.5', EUR)).toEqual({ minor: 50 });
      expect(parseMoney('3.', EUR)).toEqual({ minor: 300 });
    });

    it('takes trailing zeros as no precision', () => {
      expect(parseMoney('1500.00', JPY)).toEqual({ minor: 1500 });
      expect(parseMoney('12.500', EUR)).toEqual({ minor: 1250 });
      expect(parseMoney('000', EUR)).toEqual({ minor: 0 });
    });

    it('refuses a decimal more than the currency has, never rounding it', () => {
      expect(parseMoney('1500.50', JPY)).toEqual({ problem: 'too-many-decimals' });
      expect(parseMoney('25.999', EUR)).toEqual({ problem: 'too-many-decimals' });
      expect(parseMoney('1.0005', KWD)).toEqual({ problem: 'too-many-decimals' });
      expect(parseMoney(0.1 + 0.2, EUR)).toEqual({ problem: 'too-many-decimals' });
    });

    it('refuses what is not a non-negative decimal', () => {
      for (const raw of [
        '-1',
        'abc',
        '1e3',
        '0,5',
        '12.3.4',
        '.',
        '',
        ' ',
        -1,
        NaN,
        Infinity,
        1e21,
        null,
        undefined,
        true,
        {},
        [1],
        '1'.repeat(41),
      ]) {
        expect([raw, parseMoney(raw, EUR)]).toEqual([raw, { problem: 'not-a-number' }]);
      }
    });

    it('refuses more than ten integer digits, in every currency', () => {
      expect(parseMoney('9999999999', JPY)).toEqual({ minor: 9_999_999_999 });
      expect(parseMoney('9999999999.999', KWD)).toEqual({ minor: maxMinorUnits(3) });
      expect(parseMoney('10000000000', JPY)).toEqual({ problem: 'too-large' });
      expect(parseMoney('00000000001.5', EUR)).toEqual({ minor: 150 });
    });

    it('refuses amounts off the provider step', () => {
      const stripeKwd = rules('KWD', 10);
      expect(parseMoney('4.120', stripeKwd)).toEqual({ minor: 4120 });
      expect(parseMoney('4.125', stripeKwd)).toEqual({ problem: 'off-step' });
    });

    it('reads back every amount it formats', () => {
      fc.assert(
        fc.property(fc.constantFrom(...knownCurrencies()), fc.double({ min: 0, max: 1, noNaN: true }), (code, share) => {
          const currency = rules(code);
          const minor = Math.floor(share * maxMinorUnits(currency.exponent));
          expect(parseMoney(formatMoney(minor, currency.exponent), currency)).toEqual({ minor });
        }),
      );
    });
  });

  it('names the field and the rule in its messages', () => {
    expect(describeMoneyProblem('price', 'too-many-decimals', JPY)).toBe('price must be a whole amount: JPY has no decimals');
    expect(describeMoneyProblem('amount', 'too-many-decimals', KWD)).toBe('amount must have at most 3 decimals: KWD has 3');
    expect(describeMoneyProblem('price', 'not-a-number', EUR)).toBe('price must be a non-negative amount such as 25.00');
    expect(describeMoneyProblem('price', 'too-large', JPY)).toBe('price must be at most 9999999999');
    expect(describeMoneyProblem('price', 'off-step', rules('KWD', 10))).toBe(
      'price must be a multiple of 0.010: KWD is charged in steps of 0.010',
    );
  });

  describe('formatting', () => {
    it('writes exactly the currency decimals', () => {
      expect(formatMoney(4500, 0)).toBe('4500');
      expect(formatMoney(450000, 2)).toBe('4500.00');
      expect(formatMoney(4500000, 3)).toBe('4500.000');
      expect(formatMoney(5, 2)).toBe('0.05');
      expect(formatMoney(5, 3)).toBe('0.005');
      expect(formatMoney(0, 2)).toBe('0.00');
      expect(formatMoney(-150, 2)).toBe('-1.50');
    });

    it('groups thousands and trims trailing zeros on request', () => {
      expect(formatMoneyGrouped(102550, 2)).toBe('1,025.50');
      expect(formatMoneyGrouped(1234567, 0)).toBe('1,234,567');
      expect(formatMoneyGrouped(1234567, 3)).toBe('1,234.567');
      expect(formatMoneyTrimmed(2500, 2)).toBe('25');
      expect(formatMoneyTrimmed(2550, 2)).toBe('25.5');
      expect(formatMoneyTrimmed(2500, 0)).toBe('2500');
      expect(formatMoneyTrimmed(1200, 3)).toBe('1.2');
      expect(moneyToNumber(4125, 3)).toBe(4.125);
    });
  });

  describe('rounding', () => {
    it('divides half up', () => {
      expect(divideHalfUp(5n, 10n)).toBe(1n);
      expect(divideHalfUp(4n, 10n)).toBe(0n);
      expect(divideHalfUp(15n, 10n)).toBe(2n);
    });

    it('takes percentages half up to the minor unit or the step', () => {
      expect(percentageOf(1001, 1500)).toBe(150); // 15% of 1 001 yen is 150.15
      expect(percentageOf(5, 1000)).toBe(1); // 10% of 0.05 is 0.005
      expect(percentageOf(4, 1000)).toBe(0);
      expect(percentageOf(1010, 1500, 10)).toBe(150); // 0.1515 KWD in steps of 0.010
      expect(percentageOf(1010, 10_000, 10)).toBe(1010);
      expect(percentageOf(999, 20_000)).toBe(999);
      expect(percentageOf(0, 5000)).toBe(0);
    });

    it('never passes the amount, and keeps to the step', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 1_000_000_000 }),
          fc.integer({ min: 1, max: 10_000 }),
          fc.constantFrom(1, 10, 100),
          (steps, basisPoints, step) => {
            const minor = steps * step;
            const discount = percentageOf(minor, basisPoints, step);
            expect(discount).toBeGreaterThanOrEqual(0);
            expect(discount).toBeLessThanOrEqual(minor);
            expect(discount % step).toBe(0);
          },
        ),
      );
    });
  });

  it('reads BIGINT columns as numbers', () => {
    expect(minorUnitsColumn.from('4500')).toBe(4500);
    expect(minorUnitsColumn.from(12)).toBe(12);
    expect(minorUnitsColumn.from(null)).toBe(0);
  });
});
