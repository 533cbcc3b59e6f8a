import { fromProviderAmount, providerCurrency, refundAmount, retryDelayMs, toProviderAmount } from './payment-amounts';

describe('payment amounts', () => {
  it('writes currencies as Stripe does: lower case', () => {
    expect(providerCurrency('USD')).toBe('usd');
    expect(providerCurrency(' eur ')).toBe('eur');
  });

  it('sends hundredths as they are, and whole units for zero-decimal currencies', () => {
    expect(toProviderAmount(5000, 'usd')).toBe(5000);
    expect(toProviderAmount(1, 'eur')).toBe(1);
    expect(toProviderAmount(100_000, 'JPY')).toBe(1000);
    expect(toProviderAmount(150, 'krw')).toBe(2);
    expect(fromProviderAmount(1000, 'jpy')).toBe(100_000);
    expect(fromProviderAmount(2500, 'usd')).toBe(2500);
  });

  it('refunds what is left by default, a part on request, never more than is left', () => {
    expect(refundAmount(5000, 0, null)).toEqual({ amount: 5000, full: true });
    expect(refundAmount(5000, 1000, null)).toEqual({ amount: 4000, full: true });
    expect(refundAmount(5000, 0, 1000)).toEqual({ amount: 1000, full: false });
    expect(refundAmount(5000, 1000, 4000)).toEqual({ amount: 4000, full: true });
    expect(refundAmount(5000, 0, 5001)).toBe('amount must be at most what is left to refund (50.00)');
    expect(refundAmount(5000, 0, 0)).toMatch(/more than 0/);
    expect(refundAmount(5000, 5000, null)).toMatch(/in full already/);
    expect(refundAmount(5000, 5000, 1)).toMatch(/in full already/);
  });

  it('waits 30 s after a failed provider call, doubling up to an hour', () => {
    expect(retryDelayMs(1)).toBe(30_000);
    expect(retryDelayMs(2)).toBe(60_000);
    expect(retryDelayMs(5)).toBe(480_000);
    expect(retryDelayMs(20)).toBe(3_600_000);
  });
});
