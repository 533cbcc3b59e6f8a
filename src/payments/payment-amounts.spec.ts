import fc from 'fast-check';
import { knownCurrencies, knownExponent } from '../common/money';
import { moneyRules, refundAmount, retryDelayMs } from './payment-amounts';
import { fromStripeAmount, stripeCurrency, stripeStep, toStripeAmount } from './providers/stripe/stripe-amounts';

describe('payment amounts', () => {
  it('writes currencies as Stripe does: lower case', () => {
    expect(stripeCurrency('USD')).toBe('usd');
    expect(stripeCurrency(' eur ')).toBe('eur');
  });

  it('sends minor units as Stripe counts them', () => {
    expect(toStripeAmount(5000, 'usd')).toBe(5000);
    expect(toStripeAmount(1, 'eur')).toBe(1);
    // Yen and won have no minor unit, for ISO and Stripe alike: 4 502 yen is 4502.
    expect(toStripeAmount(4502, 'JPY')).toBe(4502);
    expect(toStripeAmount(150, 'krw')).toBe(150);
    // Stripe still takes ISK as two decimals ending in 00: 5 ISK is 500.
    expect(toStripeAmount(5, 'isk')).toBe(500);
    // Three decimals, the last one 0.
    expect(toStripeAmount(4120, 'kwd')).toBe(4120);
    // MGA has two decimals for ISO, none for Stripe.
    expect(toStripeAmount(150000, 'mga')).toBe(1500);
    expect(fromStripeAmount(4502, 'jpy')).toBe(4502);
    expect(fromStripeAmount(500, 'isk')).toBe(5);
    expect(fromStripeAmount(1500, 'mga')).toBe(150000);
    expect(fromStripeAmount(2500, 'usd')).toBe(2500);
  });

  it('refuses an amount Stripe cannot charge exactly rather than round it', () => {
    expect(() => toStripeAmount(4125, 'kwd')).toThrow('4.125 KWD cannot be charged through Stripe, which charges in steps of 0.010');
    expect(() => toStripeAmount(150050, 'mga')).toThrow(/steps of 1.00/);
    expect(() => toStripeAmount(1.5, 'usd')).toThrow();
  });

  it("knows Stripe's steps, and applies them only when Stripe takes the money", () => {
    expect(['usd', 'jpy', 'isk', 'huf', 'kwd', 'bhd', 'tnd', 'mga'].map(stripeStep)).toEqual([1, 1, 1, 1, 10, 10, 10, 100]);
    const config = (code: string, provider: string) => ({
      currency: { code, exponent: knownExponent(code) },
      payments: { provider },
    });
    expect(moneyRules(config('KWD', 'stripe'))).toEqual({ currency: 'KWD', exponent: 3, step: 10 });
    expect(moneyRules(config('KWD', 'manual'))).toEqual({ currency: 'KWD', exponent: 3, step: 1 });
    expect(moneyRules(config('JPY', 'stripe'))).toEqual({ currency: 'JPY', exponent: 0, step: 1 });
  });

  it('sends every amount on the step and reads it back, in every currency', () => {
    fc.assert(
      fc.property(fc.constantFrom(...knownCurrencies()), fc.integer({ min: 0, max: 1_000_000_000 }), (currency, steps) => {
        const minor = steps * stripeStep(currency);
        const sent = toStripeAmount(minor, currency);
        expect(Number.isSafeInteger(sent)).toBe(true);
        expect(fromStripeAmount(sent, currency)).toBe(minor);
      }),
    );
  });

  it('refunds what is left by default, a part on request, never more than is left', () => {
    expect(refundAmount(5000, 0, null, 2)).toEqual({ amount: 5000, full: true });
    expect(refundAmount(5000, 1000, null, 2)).toEqual({ amount: 4000, full: true });
    expect(refundAmount(5000, 0, 1000, 2)).toEqual({ amount: 1000, full: false });
    expect(refundAmount(5000, 1000, 4000, 2)).toEqual({ amount: 4000, full: true });
    expect(refundAmount(5000, 0, 5001, 2)).toBe('amount must be at most what is left to refund (50.00)');
    expect(refundAmount(5000, 0, 5001, 0)).toBe('amount must be at most what is left to refund (5000)');
    expect(refundAmount(5000, 0, 0, 2)).toMatch(/more than 0/);
    expect(refundAmount(5000, 5000, null, 2)).toMatch(/in full already/);
    expect(refundAmount(5000, 5000, 1, 2)).toMatch(/in full already/);
  });

  it('waits 30 s after a failed provider call, doubling up to an hour', () => {
    expect(retryDelayMs(1)).toBe(30_000);
    expect(retryDelayMs(2)).toBe(60_000);
    expect(retryDelayMs(5)).toBe(480_000);
    expect(retryDelayMs(20)).toBe(3_600_000);
  });
});
