import { ConfigError, Env } from '../../../config/config-error';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string;
  /** STRIPE_API_BASE, parsed into the SDK's host/port/protocol: a test double or a proxy; null: Stripe itself. */
  apiBase: { host: string; port: number; protocol: 'http' | 'https' } | null;
  /** How old a webhook's signed timestamp may be, in seconds (replays beyond it are refused). */
  webhookToleranceSeconds: number;
}

/** The settings Stripe needs (STRIPE_API_BASE and STRIPE_WEBHOOK_TOLERANCE_SECONDS are optional). */
export const STRIPE_VARIABLES = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'] as const;

/** STRIPE_API_BASE: `http(s)://host[:port]` without a path. */
export function parseStripeApiBase(raw: string | undefined): StripeSettings['apiBase'] {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError('STRIPE_API_BASE', `must be an http(s) URL such as http://127.0.0.1:12111 (got "${raw}")`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.username
  ) {
    throw new ConfigError('STRIPE_API_BASE', `must be an http(s) URL with a host and an optional port, nothing else (got "${raw}")`);
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, protocol };
}

function readStripeKey(env: Env, name: string, prefixes: string[]): string | null {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return null;
  if (!prefixes.some((prefix) => value.startsWith(prefix)) || !/^[A-Za-z0-9_]{8,255}$/.test(value)) {
    throw new ConfigError(name, `must be a Stripe key starting with ${prefixes.join(' or ')} (letters, digits and _)`);
  }
  return value;
}

function readTolerance(env: Env): number {
  const raw = env.STRIPE_WEBHOOK_TOLERANCE_SECONDS;
  if (raw === undefined || raw === '') return 300;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError('STRIPE_WEBHOOK_TOLERANCE_SECONDS', `must be a positive integer (got "${raw}")`);
  }
  return Number(raw);
}

/**
 * The Stripe keys. Selected, it needs all three; keys without the switch are checked and kept
 * (webhooks of intents created before a switch to another provider are still verified).
 */
export function readStripeSettings(env: Env, selected: boolean): StripeSettings | null {
  const secretKey = readStripeKey(env, 'STRIPE_SECRET_KEY', ['sk_', 'rk_']);
  const webhookSecret = readStripeKey(env, 'STRIPE_WEBHOOK_SECRET', ['whsec_']);
  const publishableKey = readStripeKey(env, 'STRIPE_PUBLISHABLE_KEY', ['pk_']);
  const apiBase = parseStripeApiBase(env.STRIPE_API_BASE);
  const webhookToleranceSeconds = readTolerance(env);
  const keys = { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_PUBLISHABLE_KEY: publishableKey };
  const missing = Object.entries(keys).filter(([, value]) => value === null);
  if (selected && missing.length > 0) throw new ConfigError(missing[0][0], 'is required when PAYMENT_PROVIDER=stripe');
  return secretKey && webhookSecret && publishableKey
    ? { secretKey, webhookSecret, publishableKey, apiBase, webhookToleranceSeconds }
    : null;
}
