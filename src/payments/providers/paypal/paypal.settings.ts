import { ConfigError, Env } from '../../../config/config-error';
import { PAYPAL_CURRENCIES } from './paypal-amounts';

export interface PayPalSettings {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave the webhook endpoint (Developer Dashboard → the app → Webhooks); verifications name it. */
  webhookId: string;
  /** Where the API is: PAYPAL_API_BASE (a test double, a proxy), else PayPal's live or sandbox API per PAYPAL_ENVIRONMENT. */
  apiBase: string;
  environment: 'live' | 'sandbox';
}

/** The settings PayPal needs (PAYPAL_ENVIRONMENT and PAYPAL_API_BASE are optional). */
export const PAYPAL_VARIABLES = ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const;

export const PAYPAL_API_BASES = { live: 'https://api-m.paypal.com', sandbox: 'https://api-m.sandbox.paypal.com' } as const;

function readToken(name: string, raw: string | undefined, pattern: RegExp, what: string): string | null {
  const value = raw?.trim();
  if (value === undefined || value === '') return null;
  if (!pattern.test(value)) throw new ConfigError(name, `must be ${what}`);
  return value;
}

/** PAYPAL_API_BASE: `http(s)://host[:port]` without a path. */
export function parsePayPalApiBase(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError('PAYPAL_API_BASE', `must be an http(s) URL such as http://127.0.0.1:12112 (got "${raw}")`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.username
  ) {
    throw new ConfigError('PAYPAL_API_BASE', `must be an http(s) URL with a host and an optional port, nothing else (got "${raw}")`);
  }
  return url.origin;
}

/**
 * The PayPal REST app's credentials and webhook id. Selected (PAYMENT_PROVIDER=paypal), it needs
 * all three and a currency PayPal takes; credentials without the switch are checked and kept, so
 * that payments taken before a switch away are still refunded and their webhooks verified.
 */
export function readPayPalSettings(env: Env, selected: boolean, currency: string): PayPalSettings | null {
  const clientId = readToken(
    'PAYPAL_CLIENT_ID',
    env.PAYPAL_CLIENT_ID,
    /^[A-Za-z0-9_-]{8,255}$/,
    "the REST app's client id (letters, digits, _ and -)",
  );
  const clientSecret = readToken(
    'PAYPAL_CLIENT_SECRET',
    env.PAYPAL_CLIENT_SECRET,
    /^[A-Za-z0-9_-]{8,255}$/,
    "the REST app's secret (letters, digits, _ and -)",
  );
  const webhookId = readToken(
    'PAYPAL_WEBHOOK_ID',
    env.PAYPAL_WEBHOOK_ID,
    /^[A-Za-z0-9_-]{4,64}$/,
    "the webhook's id as PayPal shows it (letters, digits, _ and -)",
  );
  const rawEnvironment = (env.PAYPAL_ENVIRONMENT ?? '').trim().toLowerCase() || 'live';
  if (rawEnvironment !== 'live' && rawEnvironment !== 'sandbox') {
    throw new ConfigError('PAYPAL_ENVIRONMENT', `must be live or sandbox (got "${env.PAYPAL_ENVIRONMENT}")`);
  }
  const apiBase = parsePayPalApiBase(env.PAYPAL_API_BASE) ?? PAYPAL_API_BASES[rawEnvironment];
  const keys = { PAYPAL_CLIENT_ID: clientId, PAYPAL_CLIENT_SECRET: clientSecret, PAYPAL_WEBHOOK_ID: webhookId };
  const missing = Object.entries(keys).filter(([, value]) => value === null);
  if (selected && missing.length > 0) throw new ConfigError(missing[0][0], 'is required when PAYMENT_PROVIDER=paypal');
  if (selected && !PAYPAL_CURRENCIES.has(currency.toUpperCase())) {
    throw new ConfigError(
      'CURRENCY_CODE',
      `must be a currency PayPal takes when PAYMENT_PROVIDER=paypal (${[...PAYPAL_CURRENCIES].sort().join(', ')}; got "${currency}")`,
    );
  }
  return clientId && clientSecret && webhookId ? { clientId, clientSecret, webhookId, apiBase, environment: rawEnvironment } : null;
}
