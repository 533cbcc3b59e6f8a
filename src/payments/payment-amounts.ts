import { formatMoney, MoneyRules } from '../common/money';
import type { CurrencyConfig, PaymentsConfig } from '../config/app.config';
import { findPaymentProvider } from './providers/registry';

/**
 * What the deployment's amounts may be: the currency's decimals, and the step the payment provider
 * of new orders charges in (each provider says: Stripe's three-decimal currencies and MGA, PayPal's
 * currencies without decimals; 1 when orders are paid by hand).
 */
export function moneyRules(config: {
  currency: Pick<CurrencyConfig, 'code' | 'exponent'>;
  payments: Pick<PaymentsConfig, 'provider'>;
}): MoneyRules {
  const { code, exponent } = config.currency;
  return { currency: code, exponent, step: findPaymentProvider(config.payments.provider)?.step(code) ?? 1 };
}

/**
 * What a refund request of `requested` minor units may refund of a payment of `paid` of which
 * `refunded` are already refunded: null means all that is left. A string names the problem.
 */
export function refundAmount(
  paid: number,
  refunded: number,
  requested: number | null,
  exponent: number,
): { amount: number; full: boolean } | string {
  const left = paid - refunded;
  if (left <= 0) return 'the payment is refunded in full already';
  if (requested === null) return { amount: left, full: true };
  if (!Number.isInteger(requested) || requested <= 0) return 'amount must be more than 0';
  if (requested > left) return `amount must be at most what is left to refund (${formatMoney(left, exponent)})`;
  return { amount: requested, full: requested === left };
}

/** Milliseconds a retried provider call waits after `attempts` failures: 30 s doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
