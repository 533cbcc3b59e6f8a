import { ConfigError, Env } from '../../config/config-error';
import type { PaymentProviderDefinition } from '../payment-provider';
import { manualPayments } from './manual';
import { paypalPayments } from './paypal';
import { stripePayments } from './stripe';

/**
 * THE PAYMENT PROVIDERS, by name: one line each. Config asks this list which names PAYMENT_PROVIDER
 * may take and has each provider read its own settings; PaymentProviders makes the configured ones.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each definition keeps its own settings type
export const PAYMENT_PROVIDERS: ReadonlyArray<PaymentProviderDefinition<any>> = [
  manualPayments, // paid by hand (the default)
  stripePayments, // providers/stripe/
  paypalPayments, // providers/paypal/
];

/** Which payment provider takes the money of paid orders, and every provider's settings (docs/payments.md). */
export interface PaymentProvidersConfig {
  /** PAYMENT_PROVIDER: the registered name of the provider of new paid orders of the commerce provider; `manual` by default. */
  provider: string;
  /** Each registered provider's settings, null where not configured (a provider switched away from still serves its older payments). */
  settings: Record<string, unknown>;
}

export function paymentProviderNames(): string[] {
  return PAYMENT_PROVIDERS.map((definition) => definition.name);
}

export function findPaymentProvider(name: string): PaymentProviderDefinition<unknown> | undefined {
  return PAYMENT_PROVIDERS.find((definition) => definition.name === name);
}

/** PAYMENT_PROVIDER, checked against the registry, and every provider's settings, checked by the provider. */
export function readPayments(env: Env, currency = env.CURRENCY_CODE?.trim().toUpperCase() || 'USD'): PaymentProvidersConfig {
  const names = paymentProviderNames();
  const provider = (env.PAYMENT_PROVIDER ?? '').trim().toLowerCase() || 'manual';
  if (!names.includes(provider)) {
    const choices = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
    throw new ConfigError('PAYMENT_PROVIDER', `must be ${choices} (got "${env.PAYMENT_PROVIDER}")`);
  }
  const settings: Record<string, unknown> = {};
  for (const definition of PAYMENT_PROVIDERS)
    settings[definition.name] = definition.readSettings(env, definition.name === provider, currency);
  return { provider, settings };
}
