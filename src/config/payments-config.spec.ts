import { parseStripeApiBase } from '../payments/providers/stripe/stripe.settings';
import { ConfigError, readPayments } from './app.config';

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_0123456789',
  STRIPE_WEBHOOK_SECRET: 'whsec_0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_0123456789',
};

describe('payments configuration', () => {
  it('is manual by default, without Stripe', () => {
    expect(readPayments({})).toEqual({ provider: 'manual', settings: { manual: null, stripe: null } });
  });

  it('reads the Stripe keys, the tolerance and the API base', () => {
    expect(readPayments({ PAYMENT_PROVIDER: 'Stripe', ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toMatchObject({
      provider: 'stripe',
      settings: {
        stripe: {
          secretKey: KEYS.STRIPE_SECRET_KEY,
          webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET,
          publishableKey: KEYS.STRIPE_PUBLISHABLE_KEY,
          apiBase: { host: '127.0.0.1', port: 12111, protocol: 'http' },
          webhookToleranceSeconds: 300,
        },
      },
    });
    expect(readPayments({ PAYMENT_PROVIDER: 'stripe', ...KEYS, STRIPE_WEBHOOK_TOLERANCE_SECONDS: '60' }).settings.stripe).toMatchObject({
      apiBase: null,
      webhookToleranceSeconds: 60,
    });
  });

  it('refuses stripe without each of its keys, naming the missing one', () => {
    for (const missing of Object.keys(KEYS)) {
      const env = { PAYMENT_PROVIDER: 'stripe', ...KEYS, [missing]: '' };
      expect(() => readPayments(env)).toThrow(new ConfigError(missing, 'is required when PAYMENT_PROVIDER=stripe'));
    }
  });

  it('refuses unknown providers and keys of the wrong kind', () => {
    expect(() => readPayments({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER must be manual or stripe/);
    expect(() => readPayments({ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_0123456789' })).toThrow(/STRIPE_SECRET_KEY must be a Stripe key/);
    expect(() => readPayments({ ...KEYS, STRIPE_WEBHOOK_SECRET: 'secret with spaces' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => readPayments({ ...KEYS, STRIPE_PUBLISHABLE_KEY: 'sk_live_0123456789' })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
  });

  it('parses STRIPE_API_BASE into the SDK host, port and protocol, and refuses anything else', () => {
    expect(parseStripeApiBase(undefined)).toBeNull();
    expect(parseStripeApiBase('https://stripe-proxy.internal')).toEqual({ host: 'stripe-proxy.internal', port: 443, protocol: 'https' });
    expect(parseStripeApiBase('http://localhost')).toEqual({ host: 'localhost', port: 80, protocol: 'http' });
    expect(parseStripeApiBase('http://[::1]:8080/')).toEqual({ host: '::1', port: 8080, protocol: 'http' });
    for (const bad of ['localhost:12111', 'ftp://host', 'http://host/v1', 'http://user:pw@host', 'http://host?x=1', 'not a url']) {
      expect(() => parseStripeApiBase(bad)).toThrow(/STRIPE_API_BASE/);
    }
  });
});
