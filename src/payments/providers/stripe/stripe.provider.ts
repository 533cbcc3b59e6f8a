import type Stripe from 'stripe';
import { ApiError } from '../../../common/errors/api-error';
import {
  AcceptedRefund,
  CreatedPayment,
  CreatePaymentRequest,
  PaymentEvent,
  PaymentProvider,
  PaymentProviderError,
  ProviderPaymentState,
  RefundRequest,
  WebhookDelivery,
} from '../../payment-provider';
import { fromStripeAmount, fromStripeAmountExactly, stripeCurrency, toStripeAmount } from './stripe-amounts';
import type { StripeSettings } from './stripe.settings';

/** Requests are retried by the SDK once, with the same idempotency key, before a call counts as failed. */
const SDK_RETRIES = 1;
const SDK_TIMEOUT_MS = 10_000;

type StripeSdk = typeof Stripe;
let loadedSdk: StripeSdk | null = null;

/**
 * The SDK, loaded when the first client is made: most instances never configure Stripe, and loading
 * it took about 150 ms of every start (each test file's boot included).
 */
function stripeSdk(): StripeSdk {
  if (!loadedSdk) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- on demand, and synchronously: the provider's constructor makes the client
    const loaded = require('stripe') as StripeSdk & { default?: StripeSdk };
    loadedSdk = loaded.default ?? loaded;
  }
  return loadedSdk;
}

/** Whether a failure of the SDK is worth the same call again: no answer, a 5xx, a 429 or a lock on Stripe's side. */
function isTransient(error: unknown): boolean {
  // Without the SDK loaded, nothing came from it.
  if (!loadedSdk || !(error instanceof loadedSdk.errors.StripeError)) return true;
  const errors = loadedSdk.errors;
  return (
    error instanceof errors.StripeConnectionError ||
    error instanceof errors.StripeAPIError ||
    error instanceof errors.StripeRateLimitError ||
    error.code === 'lock_timeout' ||
    (error.statusCode ?? 0) >= 500
  );
}

function providerError(error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = loadedSdk && error instanceof loadedSdk.errors.StripeError ? (error.code ?? error.type) : null;
  return new PaymentProviderError(message, isTransient(error), code ?? null);
}

/** A Stripe webhook without a valid `Stripe-Signature` (missing, forged, wrong secret, outside the tolerance). */
export function invalidStripeSignature(detail: string): ApiError {
  return new ApiError('invalid-stripe-signature', `The Stripe-Signature header is not valid: ${detail}`, 400);
}

/** The official SDK with the configured keys; STRIPE_API_BASE points it at a test double or a proxy. */
export function createStripeClient(config: StripeSettings): Stripe {
  const StripeClient = stripeSdk();
  return new StripeClient(config.secretKey, {
    maxNetworkRetries: SDK_RETRIES,
    timeout: SDK_TIMEOUT_MS,
    appInfo: { name: 'cal' },
    ...(config.apiBase ? { host: config.apiBase.host, port: config.apiBase.port, protocol: config.apiBase.protocol } : {}),
  });
}

/** Stripe's amount, or a refusal (never retried) when Stripe cannot charge it exactly. */
function stripeAmountOf(amount: number, currency: string): number {
  try {
    return toStripeAmount(amount, currency);
  } catch (error) {
    throw new PaymentProviderError(error instanceof Error ? error.message : String(error), false);
  }
}

function intentIdOf(value: string | { id: string } | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value : value.id;
}

const INTENT_STATUSES: Record<string, ProviderPaymentState['status']> = {
  succeeded: 'succeeded',
  canceled: 'canceled',
};

/** Stripe PaymentIntents and refunds, and the signature check of its webhooks. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly client: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.client = createStripeClient(settings);
  }

  get publicKey(): string {
    return this.settings.publishableKey;
  }

  async createPayment(request: CreatePaymentRequest): Promise<CreatedPayment> {
    const amount = stripeAmountOf(request.amount, request.currency);
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount,
          currency: stripeCurrency(request.currency),
          description: request.description,
          metadata: { order_id: String(request.orderId) },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!intent.client_secret) throw new PaymentProviderError('the PaymentIntent came without a client_secret', false);
      return { id: intent.id, clientSecret: intent.client_secret };
    } catch (error) {
      throw providerError(error);
    }
  }

  async readPayment(paymentId: string): Promise<ProviderPaymentState> {
    try {
      return this.stateOf(await this.client.paymentIntents.retrieve(paymentId));
    } catch (error) {
      throw providerError(error);
    }
  }

  async cancelPayment(paymentId: string, idempotencyKey: string): Promise<void> {
    try {
      await this.client.paymentIntents.cancel(paymentId, { cancellation_reason: 'abandoned' }, { idempotencyKey });
    } catch (error) {
      throw providerError(error);
    }
  }

  async refund(request: RefundRequest): Promise<AcceptedRefund> {
    const amount = stripeAmountOf(request.amount, request.currency);
    try {
      const refund = await this.client.refunds.create(
        {
          payment_intent: request.paymentId,
          amount,
          metadata: { order_id: String(request.orderId) },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { id: refund.id, amount: fromStripeAmount(refund.amount, request.currency), status: refund.status ?? 'pending' };
    } catch (error) {
      throw providerError(error);
    }
  }

  /**
   * Verified with the SDK: the raw body, the `Stripe-Signature` header and STRIPE_WEBHOOK_SECRET,
   * with a timestamp at most the tolerance old. payment_intent.succeeded, payment_intent.payment_failed
   * and charge.refunded are read; other types are acknowledged and ignored.
   */
  parseWebhook(delivery: WebhookDelivery): Promise<PaymentEvent> {
    const header = delivery.headers['stripe-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature) throw invalidStripeSignature('the header is missing');
    if (delivery.rawBody.length === 0) throw invalidStripeSignature('the request has no body');
    let event: Stripe.Event;
    try {
      event = this.client.webhooks.constructEvent(
        delivery.rawBody,
        signature,
        this.settings.webhookSecret,
        this.settings.webhookToleranceSeconds,
      );
    } catch (error) {
      throw invalidStripeSignature(error instanceof Error ? error.message : 'verification failed');
    }
    return Promise.resolve(this.toPaymentEvent(event));
  }

  private toPaymentEvent(event: Stripe.Event): PaymentEvent {
    const base = { id: event.id, type: event.type };
    switch (event.type) {
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        return {
          ...base,
          kind: 'succeeded',
          paymentId: intent.id,
          amount: fromStripeAmountExactly(intent.amount_received, intent.currency),
          currency: intent.currency.toUpperCase(),
          detail: `${intent.amount_received} ${intent.currency} (in Stripe's units)`,
        };
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const message = intent.last_payment_error?.message ?? intent.last_payment_error?.code ?? 'The payment failed.';
        return { ...base, kind: 'failed', paymentId: intent.id, message };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        return {
          ...base,
          kind: 'refunded',
          paymentId: intentIdOf(charge.payment_intent),
          totalRefunded: fromStripeAmount(charge.amount_refunded, charge.currency),
          full: charge.refunded,
        };
      }
      default:
        return { ...base, kind: 'ignored', paymentId: null };
    }
  }

  private stateOf(intent: Stripe.PaymentIntent): ProviderPaymentState {
    const status = INTENT_STATUSES[intent.status] ?? 'open';
    return {
      id: intent.id,
      status,
      amount: status === 'succeeded' ? fromStripeAmountExactly(intent.amount_received, intent.currency) : null,
      currency: intent.currency.toUpperCase(),
    };
  }
}
