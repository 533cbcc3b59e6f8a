import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type Stripe from 'stripe';
import { appConfig, StripeConfig } from '../config/app.config';
import { stripeNotConfigured } from './payment-errors';
import { AcceptedRefund, CreatedIntent, IntentRequest, OnlinePaymentProvider, PaymentProviderError } from './payment-provider';

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
  const message = error instanceof Error ? error.message : String(error);
  const code = loadedSdk && error instanceof loadedSdk.errors.StripeError ? (error.code ?? error.type) : null;
  return new PaymentProviderError(message, isTransient(error), code ?? null);
}

/** The official SDK with the configured keys; STRIPE_API_BASE points it at a test double or a proxy. */
export function createStripeClient(config: StripeConfig): Stripe {
  const StripeClient = stripeSdk();
  return new StripeClient(config.secretKey, {
    maxNetworkRetries: SDK_RETRIES,
    timeout: SDK_TIMEOUT_MS,
    appInfo: { name: 'cal' },
    ...(config.apiBase ? { host: config.apiBase.host, port: config.apiBase.port, protocol: config.apiBase.protocol } : {}),
  });
}

/** Stripe PaymentIntents and refunds, and the signature check of its webhooks. */
@Injectable()
export class StripePaymentProvider implements OnlinePaymentProvider {
  readonly name = 'stripe' as const;
  readonly online = true as const;
  private readonly settings: StripeConfig | null;
  private readonly client: Stripe | null;

  constructor(@Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.settings = config.payments.stripe;
    this.client = this.settings ? createStripeClient(this.settings) : null;
  }

  get configured(): boolean {
    return this.client !== null;
  }

  get publishableKey(): string {
    return this.configuredSettings().publishableKey;
  }

  async createIntent(request: IntentRequest): Promise<CreatedIntent> {
    try {
      const intent = await this.sdk().paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency,
          description: request.description,
          metadata: { order_id: String(request.orderId) },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!intent.client_secret) throw new PaymentProviderError('the PaymentIntent came without a client_secret', false);
      return { id: intent.id, clientSecret: intent.client_secret };
    } catch (error) {
      throw error instanceof PaymentProviderError ? error : providerError(error);
    }
  }

  async cancelIntent(intentId: string, idempotencyKey: string): Promise<void> {
    try {
      await this.sdk().paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' }, { idempotencyKey });
    } catch (error) {
      throw providerError(error);
    }
  }

  async refund(intentId: string, amount: number | null, idempotencyKey: string, orderId: number): Promise<AcceptedRefund> {
    try {
      const refund = await this.sdk().refunds.create(
        { payment_intent: intentId, ...(amount === null ? {} : { amount }), metadata: { order_id: String(orderId) } },
        { idempotencyKey },
      );
      return { id: refund.id, amount: refund.amount, status: refund.status ?? 'pending' };
    } catch (error) {
      throw providerError(error);
    }
  }

  /**
   * The event of a webhook request, verified with the SDK: the raw body, the `Stripe-Signature`
   * header and STRIPE_WEBHOOK_SECRET, with a timestamp at most the tolerance old. Throws the SDK's
   * StripeSignatureVerificationError otherwise.
   */
  verifyWebhook(rawBody: Buffer, signature: string): Stripe.Event {
    const settings = this.configuredSettings();
    return this.sdk().webhooks.constructEvent(rawBody, signature, settings.webhookSecret, settings.webhookToleranceSeconds);
  }

  private sdk(): Stripe {
    if (!this.client) throw stripeNotConfigured();
    return this.client;
  }

  private configuredSettings(): StripeConfig {
    if (!this.settings) throw stripeNotConfigured();
    return this.settings;
  }
}
