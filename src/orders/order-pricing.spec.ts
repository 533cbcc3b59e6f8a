import type { CartItem } from '../cart/cart.entity';
import fc from 'fast-check';
import { currencyExponent, formatMoney, knownCurrencies, maxMinorUnits, parseMoney } from '../common/money';
import { CouponTerms, lineDiscounts } from '../coupons/coupon-discount';
import type { Coupon } from '../coupons/coupon.entity';
import type { CheckoutCoupon } from '../coupons/coupons.service';
import { fromStripeAmount, stripeStep, toStripeAmount } from '../payments/providers/stripe/stripe-amounts';
import type { Ticket, TicketProvider } from '../tickets/ticket.entity';
import { basePrice, couponLines, orderCouponColumns, paidAtTheDoor, priceOrder } from './order-pricing';

/**
 * A checkout's prices from its cart lines, tickets and coupon: what each unit costs, the total,
 * and what the total makes of the order. The coupon's own arithmetic (rounding, caps) is
 * coupon-discount.spec.ts's; here its result goes through with the rest, as CouponsService
 * hands it over.
 */

/** A price written in US dollars, in cents ('' reads as 0). */
const cents = (price: string): number => parseMoney(price === '' ? '0' : price, { currency: 'USD', exponent: 2, step: 1 }).minor!;
const usd = (minor: number): string => formatMoney(minor, 2);
const ticket = (id: number, price: string | number): Ticket =>
  ({ id, eventId: 1, priceMinor: typeof price === 'number' ? price : cents(price), capacityMode: 'own' }) as Ticket;
const line = (ticketId: number, quantity: number): CartItem => ({ ticketId, quantity }) as CartItem;

/** The coupon as CouponsService.priceCheckout answers it: covering `covered` tickets, null when it covers no unit. */
function couponFor(lines: CartItem[], tickets: Map<number, Ticket>, terms: CouponTerms, covered: number[], step = 1): CheckoutCoupon {
  const priced = lines.map((item) => ({
    ticketId: item.ticketId,
    quantity: item.quantity,
    priceMinor: basePrice(tickets.get(item.ticketId)!, 'tc'),
  }));
  return {
    coupon: { id: 9, code: 'EARLY', ...terms } as Coupon,
    discounts: lineDiscounts(priced, (id) => covered.includes(id), terms, step),
  };
}

interface Case {
  name: string;
  prices: string[];
  /** Quantity per ticket, tickets numbered from 1 in the order of `prices`. */
  quantities: number[];
  provider?: TicketProvider;
  coupon?: { terms: CouponTerms; covered: number[] };
  /** Unit price each line charges, as stored. */
  unitPrices: string[];
  discounts?: string[];
  total: string;
  status: 'pending' | 'completed';
}

const percent = (basisPoints: number): CouponTerms => ({ discountType: 'percent', amount: basisPoints });
const flat = (cents: number): CouponTerms => ({ discountType: 'flat', amount: cents });

const cases: Case[] = [
  { name: 'one paid unit', prices: ['25.00'], quantities: [1], unitPrices: ['25.00'], total: '25.00', status: 'pending' },
  {
    name: 'several lines and quantities',
    prices: ['12.50', '0.99', '100'],
    quantities: [3, 7, 1],
    unitPrices: ['12.50', '0.99', '100.00'],
    total: '144.43',
    status: 'pending',
  },
  {
    name: 'a free ticket completes the order',
    prices: ['0.00'],
    quantities: [4],
    unitPrices: ['0.00'],
    total: '0.00',
    status: 'completed',
  },
  {
    name: 'a free ticket beside a paid one waits for payment',
    prices: ['0', '5.5'],
    quantities: [2, 1],
    unitPrices: ['0.00', '5.50'],
    total: '5.50',
    status: 'pending',
  },
  {
    name: 'RSVP is free whatever the ticket says',
    prices: ['30.00'],
    quantities: [2],
    provider: 'rsvp',
    unitPrices: ['0.00'],
    total: '0.00',
    status: 'completed',
  },
  {
    name: 'a percent of an odd amount, per unit, rounded half up to the cent',
    prices: ['9.99'],
    quantities: [3],
    coupon: { terms: percent(1250), covered: [1] },
    // 12.5% of 9.99 = 1.24875 → 1.25 off each unit, 3 × 8.74.
    unitPrices: ['8.74'],
    discounts: ['1.25'],
    total: '26.22',
    status: 'pending',
  },
  {
    name: 'a percent of a few cents, half up',
    prices: ['0.05', '0.04'],
    quantities: [1, 1],
    coupon: { terms: percent(1000), covered: [1, 2] },
    unitPrices: ['0.04', '0.04'],
    discounts: ['0.01', '0.00'],
    total: '0.08',
    status: 'pending',
  },
  {
    name: 'a coupon covering some lines only',
    prices: ['20.00', '20.00'],
    quantities: [1, 2],
    coupon: { terms: flat(500), covered: [2] },
    unitPrices: ['20.00', '15.00'],
    discounts: ['0.00', '5.00'],
    total: '50.00',
    status: 'pending',
  },
  {
    name: 'a fixed discount above the price makes the unit free, never negative',
    prices: ['3.00', '10.00'],
    quantities: [2, 1],
    coupon: { terms: flat(500), covered: [1, 2] },
    unitPrices: ['0.00', '5.00'],
    discounts: ['3.00', '5.00'],
    total: '5.00',
    status: 'pending',
  },
  {
    name: 'a 100% coupon completes the order without payment',
    prices: ['49.90'],
    quantities: [2],
    coupon: { terms: percent(10_000), covered: [1] },
    unitPrices: ['0.00'],
    discounts: ['49.90'],
    total: '0.00',
    status: 'completed',
  },
  {
    name: 'an access code takes nothing off',
    prices: ['15.00'],
    quantities: [2],
    coupon: { terms: { discountType: 'none', amount: 0 }, covered: [1] },
    unitPrices: ['15.00'],
    discounts: ['0.00'],
    total: '30.00',
    status: 'pending',
  },
  {
    name: 'the largest price a ticket may have, many units, stays exact',
    prices: ['9999999999.99'],
    quantities: [100],
    coupon: { terms: percent(3333), covered: [1] },
    unitPrices: ['6666999999.99'],
    discounts: ['3333000000.00'],
    total: '666699999999.00',
    status: 'pending',
  },
];

describe('order pricing', () => {
  it.each(cases)('$name', ({ prices, quantities, provider = 'tc', coupon, unitPrices, discounts, total, status }) => {
    const tickets = new Map(prices.map((price, index) => [index + 1, ticket(index + 1, price)]));
    const items = quantities.map((quantity, index) => line(index + 1, quantity));
    const checkoutCoupon = coupon ? couponFor(items, tickets, coupon.terms, coupon.covered) : null;
    const pricing = priceOrder(items, tickets, provider, undefined, checkoutCoupon);
    const lines = items.map((item) => tickets.get(item.ticketId)!);
    expect(lines.map((entry) => usd(pricing.unitPrice(entry)))).toEqual(unitPrices);
    expect(lines.map((entry) => usd(pricing.unitDiscount(entry)))).toEqual(discounts ?? lines.map(() => '0.00'));
    expect(usd(pricing.totalMinor)).toBe(total);
    expect(pricing.status).toBe(status);
    // The order takes sold units when it completes at once, held ones while it waits for payment.
    expect(pricing.capacity?.count).toBe(status === 'completed' ? 'sold' : 'pending');
    expect(pricing.capacity?.lines.map((entry) => [entry.ticket.id, entry.quantity])).toEqual(
      items.map((item) => [item.ticketId, item.quantity]),
    );
  });

  it('adds up the order total from its units, discount included', () => {
    const tickets = new Map([
      [1, ticket(1, '9.99')],
      [2, ticket(2, '0.10')],
    ]);
    const items = [line(1, 3), line(2, 7)];
    const coupon = couponFor(items, tickets, percent(1500), [1, 2]);
    const pricing = priceOrder(items, tickets, 'tc', undefined, coupon);
    const beforeDiscount = 3 * 999 + 7 * 10;
    expect(pricing.totalMinor).toBe(beforeDiscount - coupon.discounts.totalMinor);
    // 15% of 9.99 = 1.4985 → 1.50; of 0.10 = 0.015 → 0.02.
    expect(coupon.discounts.totalMinor).toBe(3 * 150 + 7 * 2);
  });

  it('completes a sale paid at the door at once, its units sold, its prices and discount as online', () => {
    const tickets = new Map([[1, ticket(1, '30.00')]]);
    const items = [line(1, 2)];
    const coupon = couponFor(items, tickets, percent(1000), [1]);
    const online = priceOrder(items, tickets, 'tc', undefined, coupon);
    const door = paidAtTheDoor(online);
    expect({ status: online.status, count: online.capacity?.count }).toEqual({ status: 'pending', count: 'pending' });
    expect({ status: door.status, count: door.capacity?.count }).toEqual({ status: 'completed', count: 'sold' });
    expect({ total: usd(door.totalMinor), unit: usd(door.unitPrice(tickets.get(1)!)), coupon: door.coupon }).toEqual({
      total: '54.00',
      unit: '27.00',
      coupon: online.coupon,
    });
    expect(door.capacity?.lines).toEqual(online.capacity?.lines);
  });

  it('reads RSVP answers: going unless told otherwise, and "not going" takes no capacity', () => {
    const tickets = new Map([[1, ticket(1, '0')]]);
    const items = [line(1, 2)];
    expect(priceOrder(items, tickets, 'rsvp', undefined).going).toBe(true);
    expect(priceOrder(items, tickets, 'rsvp', true).going).toBe(true);
    const notGoing = priceOrder(items, tickets, 'rsvp', false);
    expect(notGoing).toMatchObject({ going: false, capacity: null, status: 'completed', totalMinor: 0 });
    expect(priceOrder(items, tickets, 'tc', undefined).going).toBeNull();
  });

  it('lets no "not going" unit use the coupon: none is priced, and the order records no coupon', () => {
    const tickets = new Map([
      [1, { ...ticket(1, '0'), hiddenWithoutCoupon: true }],
      [2, { ...ticket(2, '0'), hiddenWithoutCoupon: false }],
    ]);
    const items = [line(1, 2), line(2, 1)];
    expect(couponLines(items, tickets, 'rsvp', false)).toEqual([
      { ticketId: 1, quantity: 0, priceMinor: 0, hidden: true },
      { ticketId: 2, quantity: 0, priceMinor: 0, hidden: false },
    ]);
    expect(couponLines(items, tickets, 'rsvp', true).map((entry) => entry.quantity)).toEqual([2, 1]);
    // Even a coupon priced on every unit is not the order's when the answer is "not going".
    const notGoing = priceOrder(items, tickets, 'rsvp', false, couponFor(items, tickets, percent(1000), [1, 2]));
    expect(notGoing.coupon).toBeNull();
    expect(orderCouponColumns(notGoing.coupon)).toEqual({ couponId: null, couponCode: null, couponUses: 0, discountMinor: 0 });
    const going = priceOrder(items, tickets, 'rsvp', true, couponFor(items, tickets, percent(1000), [1, 2]));
    expect(orderCouponColumns(going.coupon)).toMatchObject({ couponId: 9, couponUses: 3 });
  });

  it('treats a coupon that covers no unit as none', () => {
    const tickets = new Map([[1, ticket(1, '10.00')]]);
    const items = [line(1, 1)];
    const uncovering = couponFor(items, tickets, percent(5000), []);
    const pricing = priceOrder(items, tickets, 'tc', undefined, uncovering);
    expect(pricing.coupon).toBeNull();
    expect(pricing.totalMinor).toBe(1000);
    expect(orderCouponColumns(pricing.coupon)).toEqual({ couponId: null, couponCode: null, couponUses: 0, discountMinor: 0 });
  });

  it('records on the order the coupon, the units it covered as uses, and the whole discount', () => {
    const tickets = new Map([
      [1, ticket(1, '9.99')],
      [2, ticket(2, '20.00')],
      [3, ticket(3, '0')],
    ]);
    const items = [line(1, 3), line(2, 1), line(3, 2)];
    const pricing = priceOrder(items, tickets, 'tc', undefined, couponFor(items, tickets, percent(1250), [1, 3]));
    // Free units count as uses of the code too.
    expect(orderCouponColumns(pricing.coupon)).toEqual({ couponId: 9, couponCode: 'EARLY', couponUses: 5, discountMinor: 375 });
  });

  it.each([
    ['25', 'tc', 2500],
    ['25.5', 'tc', 2550],
    ['0.01', 'tc', 1],
    ['25.00', 'rsvp', 0],
    // Not a price: nothing to charge.
    ['', 'tc', 0],
  ] as const)('prices a unit of %p (%s) at %d cents before any coupon', (price, provider, expected) => {
    expect(basePrice(ticket(1, price), provider)).toBe(expected);
  });

  it('prices in the currency minor units: yen have none, dinars three', () => {
    // 3 × 1 500 JPY, 15% off 1 001 JPY (150.15 → 150): no fraction of a yen anywhere.
    const yen = new Map([
      [1, ticket(1, 1500)],
      [2, ticket(2, 1001)],
    ]);
    const yenItems = [line(1, 3), line(2, 1)];
    const yenPricing = priceOrder(yenItems, yen, 'tc', undefined, couponFor(yenItems, yen, percent(1500), [2]));
    expect([yenPricing.unitPrice(yen.get(1)!), yenPricing.unitPrice(yen.get(2)!), yenPricing.totalMinor]).toEqual([1500, 851, 5351]);
    expect(formatMoney(yenPricing.totalMinor, 0)).toBe('5351');
    // 15% off 1.010 KWD: 0.152 to the fils, 0.150 in Stripe's steps of 0.010.
    const dinars = new Map([[1, ticket(1, 1010)]]);
    const dinarItems = [line(1, 2)];
    const byHand = priceOrder(dinarItems, dinars, 'tc', undefined, couponFor(dinarItems, dinars, percent(1500), [1]));
    const throughStripe = priceOrder(
      dinarItems,
      dinars,
      'tc',
      undefined,
      couponFor(dinarItems, dinars, percent(1500), [1], stripeStep('KWD')),
    );
    expect([formatMoney(byHand.totalMinor, 3), formatMoney(throughStripe.totalMinor, 3)]).toEqual(['1.716', '1.720']);
  });

  /**
   * The rule the whole chain keeps: the order's total is the sum of its lines less the discounts,
   * and the payment provider is asked for exactly it, in its own units, for every currency.
   */
  it('charges the provider exactly the order total: sum of the lines less the discounts, in every currency', () => {
    const currencies = fc.oneof(fc.constantFrom('JPY', 'EUR', 'USD', 'KWD'), fc.constantFrom(...knownCurrencies()));
    const terms = fc.oneof(
      fc.integer({ min: 1, max: 10_000 }).map(percent),
      fc.integer({ min: 1, max: 5_000_000 }).map(flat),
      fc.constant<CouponTerms>({ discountType: 'none', amount: 0 }),
    );
    fc.assert(
      fc.property(
        currencies,
        fc.array(fc.record({ price: fc.integer({ min: 0, max: 10_000_000 }), quantity: fc.integer({ min: 1, max: 20 }) }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.option(fc.record({ terms, covered: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }) }), { nil: null }),
        fc.boolean(),
        (currency, lines, coupon, throughStripe) => {
          const exponent = currencyExponent(currency)!;
          const step = throughStripe ? stripeStep(currency) : 1;
          // Prices as the validators let them in: within the largest amount and on the provider's step.
          const tickets = new Map(
            lines.map((entry, index) => [
              index + 1,
              ticket(index + 1, Math.min(entry.price * step, maxMinorUnits(exponent) - (maxMinorUnits(exponent) % step))),
            ]),
          );
          const items = lines.map((entry, index) => line(index + 1, entry.quantity));
          const covered = coupon ? items.filter((_, index) => coupon.covered[index]).map((item) => item.ticketId) : [];
          const flatOnStep =
            coupon && coupon.terms.discountType === 'flat' ? { ...coupon.terms, amount: coupon.terms.amount * step } : coupon?.terms;
          const checkoutCoupon = coupon && flatOnStep ? couponFor(items, tickets, flatOnStep, covered, step) : null;
          const pricing = priceOrder(items, tickets, 'tc', undefined, checkoutCoupon);

          const linesBefore = items.reduce((sum, item) => sum + basePrice(tickets.get(item.ticketId)!, 'tc') * item.quantity, 0);
          const discounts = items.reduce((sum, item) => sum + pricing.unitDiscount(tickets.get(item.ticketId)!) * item.quantity, 0);
          expect(pricing.totalMinor).toBe(linesBefore - discounts);
          expect(pricing.coupon?.discounts.totalMinor ?? 0).toBe(discounts);
          for (const item of items) expect(pricing.unitPrice(tickets.get(item.ticketId)!)).toBeGreaterThanOrEqual(0);
          // What the order says, as its API answer prints it, is what the provider is asked for.
          const printed = formatMoney(pricing.totalMinor, exponent);
          expect(parseMoney(printed, { currency, exponent, step: 1 }).minor).toBe(pricing.totalMinor);
          if (throughStripe) {
            const sent = toStripeAmount(pricing.totalMinor, currency);
            expect(Number.isSafeInteger(sent)).toBe(true);
            expect(fromStripeAmount(sent, currency)).toBe(pricing.totalMinor);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
