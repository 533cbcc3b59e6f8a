import { codeKey, couponProblem, formatAmount, lineDiscounts, parsePercent, unitDiscount } from './coupon-discount';
import { couponCoversTicket } from '../access/coupon-access';

describe('coupon arithmetic', () => {
  describe('unitDiscount', () => {
    it('takes a percent of the unit price, rounded half up to the minor unit', () => {
      expect(unitDiscount(2500, { discountType: 'percent', amount: 1000 })).toBe(250);
      // 10% of 0.05 = 0.005 → 0.01 (half up); 10% of 0.04 = 0.004 → 0.00.
      expect(unitDiscount(5, { discountType: 'percent', amount: 1000 })).toBe(1);
      expect(unitDiscount(4, { discountType: 'percent', amount: 1000 })).toBe(0);
      // 12.5% of 9.99 = 1.24875 → 1.25; 33.33% of 1.00 = 0.3333 → 0.33.
      expect(unitDiscount(999, { discountType: 'percent', amount: 1250 })).toBe(125);
      expect(unitDiscount(100, { discountType: 'percent', amount: 3333 })).toBe(33);
      // 15% of 0.10 = 0.015 → 0.02.
      expect(unitDiscount(10, { discountType: 'percent', amount: 1500 })).toBe(2);
      // In yen the minor unit is the yen: 15% of 1 001 JPY = 150.15 → 150.
      expect(unitDiscount(1001, { discountType: 'percent', amount: 1500 })).toBe(150);
    });

    it('rounds percentages to the payment provider step (Stripe takes KWD in steps of 0.010)', () => {
      // 15% of 1.010 KWD = 0.1515 → 0.150; 50% of 0.030 = 0.015 → 0.020.
      expect(unitDiscount(1010, { discountType: 'percent', amount: 1500 }, 10)).toBe(150);
      expect(unitDiscount(30, { discountType: 'percent', amount: 5000 }, 10)).toBe(20);
      expect(unitDiscount(1010, { discountType: 'percent', amount: 1500 })).toBe(152);
    });

    it('never takes more than the price, never less than 0', () => {
      expect(unitDiscount(2500, { discountType: 'percent', amount: 10_000 })).toBe(2500);
      expect(unitDiscount(2500, { discountType: 'percent', amount: 20_000 })).toBe(2500);
      expect(unitDiscount(300, { discountType: 'flat', amount: 500 })).toBe(300);
      expect(unitDiscount(0, { discountType: 'flat', amount: 500 })).toBe(0);
      expect(unitDiscount(-5, { discountType: 'percent', amount: 1000 })).toBe(0);
      expect(unitDiscount(2500, { discountType: 'flat', amount: -1 })).toBe(0);
    });

    it('gives access codes (none) no discount', () => {
      expect(unitDiscount(2500, { discountType: 'none', amount: 0 })).toBe(0);
      expect(unitDiscount(2500, { discountType: 'none', amount: 1000 })).toBe(0);
    });

    it('stays exact on the largest prices a ticket may have', () => {
      const price = 999_999_999_999; // 9,999,999,999.99
      expect(unitDiscount(price, { discountType: 'percent', amount: 3333 })).toBe(333_300_000_000);
      expect(unitDiscount(price, { discountType: 'percent', amount: 9999 })).toBe(999_899_999_999);
    });
  });

  describe('lineDiscounts', () => {
    it('adds per-unit discounts of the covered lines and counts their units', () => {
      const result = lineDiscounts(
        [
          { ticketId: 1, quantity: 3, priceMinor: 999 },
          { ticketId: 2, quantity: 2, priceMinor: 5000 },
          { ticketId: 3, quantity: 0, priceMinor: 5000 },
        ],
        (id) => id !== 2,
        { discountType: 'percent', amount: 1250 },
      );
      expect(result.units).toBe(3);
      expect(result.perUnit).toEqual(new Map([[1, 125]]));
      expect(result.totalMinor).toBe(375);
    });

    it('counts units of free tickets and access codes as uses', () => {
      const result = lineDiscounts([{ ticketId: 1, quantity: 2, priceMinor: 0 }], () => true, { discountType: 'none', amount: 0 });
      expect(result).toEqual({ perUnit: new Map([[1, 0]]), units: 2, totalMinor: 0 });
    });
  });

  describe('couponProblem', () => {
    const at = (iso: string) => new Date(iso);
    const base = { startsAt: at('2030-01-01T00:00:00Z'), endsAt: at('2030-02-01T00:00:00Z'), maxUses: 10, uses: 8 };

    it('refuses before the start and from the end on', () => {
      expect(couponProblem(base, at('2029-12-31T23:59:59Z'))).toBe('not-started');
      expect(couponProblem(base, at('2030-01-01T00:00:00Z'))).toBeNull();
      expect(couponProblem(base, at('2030-02-01T00:00:00Z'))).toBe('ended');
    });

    it('refuses more units than the uses left', () => {
      const now = at('2030-01-15T00:00:00Z');
      expect(couponProblem(base, now, 2)).toBeNull();
      expect(couponProblem(base, now, 3)).toBe('used-up');
      expect(couponProblem({ ...base, uses: 10 }, now)).toBe('used-up');
      expect(couponProblem({ ...base, maxUses: null, uses: 1000 }, now, 50)).toBeNull();
    });
  });

  it('covers the tickets of its event, or of its author, limited to its ticket list', () => {
    const ticket = { id: 7, eventId: 3 };
    expect(couponCoversTicket({ eventId: 3, authorId: 1, ticketIds: [] }, ticket, 99)).toBe(true);
    expect(couponCoversTicket({ eventId: 4, authorId: 1, ticketIds: [] }, ticket, 1)).toBe(false);
    expect(couponCoversTicket({ eventId: null, authorId: 1, ticketIds: [] }, ticket, 1)).toBe(true);
    expect(couponCoversTicket({ eventId: null, authorId: 1, ticketIds: [] }, ticket, 2)).toBe(false);
    expect(couponCoversTicket({ eventId: 3, authorId: 1, ticketIds: [8] }, ticket, 1)).toBe(false);
    expect(couponCoversTicket({ eventId: 3, authorId: 1, ticketIds: [7, 8] }, ticket, 1)).toBe(true);
  });

  it('parses percentages in basis points and formats amounts, flat ones with the currency decimals', () => {
    expect(parsePercent('12.5')).toBe(1250);
    expect(parsePercent(12.5)).toBe(1250);
    expect(parsePercent('5')).toBe(500);
    expect(parsePercent('0.01')).toBe(1);
    expect(parsePercent('1.234')).toBeNull();
    expect(parsePercent('-1')).toBeNull();
    expect(parsePercent('1e3')).toBeNull();
    expect(parsePercent({})).toBeNull();
    expect(formatAmount({ discountType: 'percent', amount: 1250 }, 0)).toBe('12.5');
    expect(formatAmount({ discountType: 'percent', amount: 1000 }, 3)).toBe('10');
    expect(formatAmount({ discountType: 'flat', amount: 500 }, 2)).toBe('5.00');
    expect(formatAmount({ discountType: 'flat', amount: 500 }, 0)).toBe('500');
    expect(formatAmount({ discountType: 'flat', amount: 500 }, 3)).toBe('0.500');
    expect(formatAmount({ discountType: 'none', amount: 0 }, 2)).toBe('0');
  });

  it('compares codes without case', () => {
    expect(codeKey(' Early-Bird ')).toBe('early-bird');
  });
});
