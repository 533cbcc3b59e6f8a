import { knownExponent } from '../common/money';
import { ConfigError } from '../config/config-error';
import { moneyRules } from './payment-amounts';
import { paymentProviderNames, readPayments } from './providers/registry';
import { fromPayPalValue, toPayPalValue } from './providers/paypal/paypal-amounts';
import { parseStripeApiBase } from './providers/stripe/stripe.settings';

/** Every registered provider without settings: a provider added to the registry needs no edit here. */
const NO_SETTINGS = Object.fromEntries(paymentProviderNames().map((name) => [name, null]));
/** How the error names the registered providers: "a, b or c". */
const NAMES = paymentProviderNames()
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_0123456789',
  STRIPE_WEBHOOK_SECRET: 'whsec_0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_0123456789',
};

describe('payments configuration', () => {
  it('is manual by default, without Stripe', () => {
    expect(readPayments({})).toEqual({ provider: 'manual', settings: NO_SETTINGS });
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
    expect(() => readPayments({ PAYMENT_PROVIDER: 'braintree' })).toThrow(`PAYMENT_PROVIDER must be ${NAMES}`);
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

describe('PayPal configuration', () => {
  const PAYPAL = {
    PAYMENT_PROVIDER: 'paypal',
    PAYPAL_CLIENT_ID: 'AbClientId0123456789',
    PAYPAL_CLIENT_SECRET: 'EFSecret0123456789',
    PAYPAL_WEBHOOK_ID: 'WH-0123456789',
  };

  it('asks the registry which providers exist, naming them all in the error', () => {
    expect(() => readPayments({ PAYMENT_PROVIDER: 'braintree' })).toThrow(
      new ConfigError('PAYMENT_PROVIDER', `must be ${NAMES} (got "braintree")`),
    );
  });

  it("reads PayPal's credentials, live by default, the sandbox or PAYPAL_API_BASE on request", () => {
    expect(readPayments(PAYPAL).settings.paypal).toEqual({
      clientId: PAYPAL.PAYPAL_CLIENT_ID,
      clientSecret: PAYPAL.PAYPAL_CLIENT_SECRET,
      webhookId: PAYPAL.PAYPAL_WEBHOOK_ID,
      apiBase: 'https://api-m.paypal.com',
      environment: 'live',
    });
    expect(readPayments({ ...PAYPAL, PAYPAL_ENVIRONMENT: 'Sandbox' }).settings.paypal).toMatchObject({
      apiBase: 'https://api-m.sandbox.paypal.com',
      environment: 'sandbox',
    });
    expect(readPayments({ ...PAYPAL, PAYPAL_API_BASE: 'http://127.0.0.1:12112/' }).settings.paypal).toMatchObject({
      apiBase: 'http://127.0.0.1:12112',
    });
    // Credentials without the switch are kept, for the payments taken before a switch away.
    expect(readPayments({ ...PAYPAL, PAYMENT_PROVIDER: 'manual' })).toMatchObject({
      provider: 'manual',
      settings: { paypal: { environment: 'live' } },
    });
  });

  it('refuses paypal without each of its settings, naming the missing one', () => {
    for (const missing of ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID']) {
      expect(() => readPayments({ ...PAYPAL, [missing]: ' ' })).toThrow(
        new ConfigError(missing, 'is required when PAYMENT_PROVIDER=paypal'),
      );
    }
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => readPayments({ ...PAYPAL, PAYPAL_CLIENT_ID: 'has spaces in it' })).toThrow(/PAYPAL_CLIENT_ID must be/);
    expect(() => readPayments({ ...PAYPAL, PAYPAL_CLIENT_SECRET: 'short' })).toThrow(/PAYPAL_CLIENT_SECRET must be/);
    expect(() => readPayments({ ...PAYPAL, PAYPAL_WEBHOOK_ID: 'WH 1' })).toThrow(/PAYPAL_WEBHOOK_ID must be/);
    expect(() => readPayments({ ...PAYPAL, PAYPAL_ENVIRONMENT: 'production' })).toThrow(/PAYPAL_ENVIRONMENT must be live or sandbox/);
    for (const bad of ['localhost:12112', 'ftp://host', 'http://host/v2', 'http://user:pw@host', 'not a url']) {
      expect(() => readPayments({ ...PAYPAL, PAYPAL_API_BASE: bad })).toThrow(/PAYPAL_API_BASE/);
    }
  });

  it('refuses at start-up a currency PayPal does not take, only when PayPal is selected', () => {
    for (const currency of ['KWD', 'ISK', 'INR', 'ZAR']) {
      expect(() => readPayments({ ...PAYPAL, CURRENCY_CODE: currency })).toThrow(/CURRENCY_CODE must be a currency PayPal takes/);
      expect(readPayments({ ...PAYPAL, PAYMENT_PROVIDER: 'manual', CURRENCY_CODE: currency }).provider).toBe('manual');
    }
    for (const currency of ['USD', 'EUR', 'JPY', 'HUF', 'TWD', 'GBP']) {
      expect(readPayments({ ...PAYPAL, CURRENCY_CODE: currency }).provider).toBe('paypal');
    }
  });

  it('charges HUF and TWD in whole units through PayPal: prices move in steps of 1.00', () => {
    const rules = (code: string, provider: string) =>
      moneyRules({ currency: { code, exponent: knownExponent(code) }, payments: { provider } });
    expect(rules('HUF', 'paypal')).toEqual({ currency: 'HUF', exponent: 2, step: 100 });
    expect(rules('TWD', 'paypal')).toEqual({ currency: 'TWD', exponent: 2, step: 100 });
    expect(rules('JPY', 'paypal')).toEqual({ currency: 'JPY', exponent: 0, step: 1 });
    expect(rules('EUR', 'paypal')).toEqual({ currency: 'EUR', exponent: 2, step: 1 });
    expect(rules('HUF', 'manual').step).toBe(1);
  });

  it('writes amounts as PayPal takes them, refusing what it cannot charge, and reads them back exactly', () => {
    expect(toPayPalValue(5000, 'USD')).toBe('50.00');
    expect(toPayPalValue(1, 'EUR')).toBe('0.01');
    expect(toPayPalValue(4502, 'JPY')).toBe('4502');
    expect(toPayPalValue(150000, 'HUF')).toBe('1500');
    expect(() => toPayPalValue(150050, 'HUF')).toThrow('1500.50 HUF cannot be charged through PayPal, which charges in steps of 1.00');
    expect(fromPayPalValue('50.00', 'USD')).toBe(5000);
    expect(fromPayPalValue('50', 'USD')).toBe(5000);
    expect(fromPayPalValue('1500', 'HUF')).toBe(150000);
    expect(fromPayPalValue('4502', 'JPY')).toBe(4502);
    expect(fromPayPalValue('50.001', 'USD')).toBeNull();
    expect(fromPayPalValue('-1', 'USD')).toBeNull();
    expect(fromPayPalValue(undefined, 'USD')).toBeNull();
  });
});
