/** The payment providers: `manual` (a manager or the signed generic webhook completes) and `stripe`. */
export const PAYMENT_PROVIDER_NAMES = ['manual', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

/** Today's behaviour: nothing moves through the service; managers complete and refund by hand. */
export interface ManualPaymentProvider {
  readonly name: 'manual';
  readonly online: false;
}

export interface IntentRequest {
  orderId: number;
  /** In the currency's minor units as the provider counts them (see payment-amounts.ts). */
  amount: number;
  /** Lower-case ISO 4217. */
  currency: string;
  description: string;
  /** The same key for every attempt to start this order's payment, so that retries never create two. */
  idempotencyKey: string;
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

export interface AcceptedRefund {
  id: string;
  amount: number;
  /** `succeeded` or `pending`: the provider accepted it. */
  status: string;
}

/** A provider that takes the money itself: the order waits for its webhook. */
export interface OnlinePaymentProvider {
  readonly name: Exclude<PaymentProviderName, 'manual'>;
  readonly online: true;
  /** What the buyer's browser initialises the provider's client library with. */
  readonly publishableKey: string;
  createIntent(request: IntentRequest): Promise<CreatedIntent>;
  cancelIntent(intentId: string, idempotencyKey: string): Promise<void>;
  /** Refunds `amount` (null: what is left) of the intent's charge. */
  refund(intentId: string, amount: number | null, idempotencyKey: string, orderId: number): Promise<AcceptedRefund>;
}

export type PaymentProvider = ManualPaymentProvider | OnlinePaymentProvider;

export const MANUAL_PROVIDER: ManualPaymentProvider = { name: 'manual', online: false };

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
