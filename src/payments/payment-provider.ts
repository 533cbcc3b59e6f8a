import type { Env } from '../config/config-error';

/**
 * THE PAYMENT PROVIDER INTERFACE (docs/payments.md, "Adding a provider"). A provider is one folder
 * under `providers/` exporting a `PaymentProviderDefinition`, listed once in `providers/registry.ts`.
 * Everything the service does to an order because of a payment (complete it, record a failure,
 * refund a late payment, check the amount) is written once above the providers, in
 * PaymentsService and PaymentEventsService; a provider only talks to its API and translates.
 *
 * Amounts cross this interface in the service's minor units (ISO 4217 exponent, src/common/money.ts)
 * with an upper-case ISO currency code; each provider converts to its API's own units.
 */
export interface PaymentProvider {
  readonly name: string;
  /** What the buyer's browser initialises the provider's library with (Stripe's publishable key, PayPal's client id). */
  readonly publicKey: string;
  /** Starts the payment of an order; retried with the same idempotency key until the provider answers. */
  createPayment(request: CreatePaymentRequest): Promise<CreatedPayment>;
  /** The payment as the provider sees it now. */
  readPayment(paymentId: string): Promise<ProviderPaymentState>;
  /** The order ended unpaid: the buyer must not be able to pay any more (a no-op where the provider cannot cancel). */
  cancelPayment(paymentId: string, idempotencyKey: string): Promise<void>;
  /**
   * Providers whose buyer approves and the merchant then takes the money (PayPal's capture): takes
   * it. Absent for providers where the buyer's payment is final (Stripe).
   */
  capturePayment?(paymentId: string, idempotencyKey: string): Promise<ProviderPaymentState>;
  /** Refunds `amount` minor units of `currency` of a payment that succeeded. */
  refund(request: RefundRequest): Promise<AcceptedRefund>;
  /**
   * A webhook delivery, verified (throws the provider's 400 ApiError when it is not genuine) and
   * read into one provider-neutral event.
   */
  parseWebhook(delivery: WebhookDelivery): Promise<PaymentEvent>;
}

export interface CreatePaymentRequest {
  orderId: number;
  /** Minor units of `currency`. */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  description: string;
  /** The same key for every attempt to start this order's payment, so that retries never create two. */
  idempotencyKey: string;
}

export interface CreatedPayment {
  /** The provider's id of the payment (Stripe: the PaymentIntent; PayPal: the order). */
  id: string;
  /** What the buyer's browser completes the payment with (Stripe: the client secret; PayPal: the order id). */
  clientSecret: string;
}

export interface ProviderPaymentState {
  id: string;
  status: 'open' | 'approved' | 'succeeded' | 'failed' | 'canceled' | 'refunded';
  /** What was taken, in minor units; null when nothing was, or when it is no whole number of minor units. */
  amount: number | null;
  /** ISO 4217, upper case. */
  currency: string;
}

export interface RefundRequest {
  paymentId: string;
  orderId: number;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  idempotencyKey: string;
}

export interface AcceptedRefund {
  id: string;
  /** Minor units. */
  amount: number;
  /** `succeeded` or `pending`: the provider accepted it. */
  status: string;
}

export interface WebhookDelivery {
  /** The exact bytes received (signatures cover them). */
  rawBody: Buffer;
  /** Request headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * What a webhook says happened to a payment, in the service's terms. `paymentId` is the provider's
 * id of the payment (as CreatedPayment.id); null when the event is about none.
 */
export type PaymentEvent = { id: string; type: string; paymentId: string | null } & (
  | { kind: 'approved' }
  | { kind: 'succeeded'; amount: number | null; currency: string; detail: string }
  | { kind: 'failed'; message: string }
  | { kind: 'refunded'; totalRefunded: number; full: boolean }
  | { kind: 'canceled' }
  | { kind: 'ignored' }
);

/**
 * One provider as the registry knows it: its name, how it reads and checks its own settings at
 * start-up, the smallest amount it charges, and how to make it. Pure: config reads the settings
 * through it without starting anything.
 */
export interface PaymentProviderDefinition<Settings = unknown> {
  readonly name: string;
  /** The variables it needs to be configured, named by payment-provider-not-configured. */
  readonly variables: readonly string[];
  /**
   * Its settings from the environment: null when it is not configured. Throws a ConfigError naming
   * the variable when one is bad, or missing while `selected` (PAYMENT_PROVIDER names it);
   * `currency` is the site's CURRENCY_CODE, which the provider may not take.
   */
  readSettings(env: Env, selected: boolean, currency: string): Settings | null;
  /** The smallest amount it charges in `currency`, in minor units (1 for most). */
  step(currency: string): number;
  /** The provider, with its settings; absent for `manual`, whose orders are paid by hand. */
  create?(settings: Settings, clock: { now(): Date }): PaymentProvider;
}

/** Declares a provider, keeping its settings' type between readSettings and create. */
export function definePaymentProvider<Settings>(definition: PaymentProviderDefinition<Settings>): PaymentProviderDefinition<Settings> {
  return definition;
}

/**
 * A provider call that failed. `transient`: the provider could not be reached or answered 5xx/429,
 * so the same call (same idempotency key) may be tried again; otherwise it refused the request.
 */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    readonly providerCode: string | null = null,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
