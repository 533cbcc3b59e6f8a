import type * as PayPalSdk from '@paypal/paypal-server-sdk';
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
import { fromPayPalValue, toPayPalValue } from './paypal-amounts';
import { PAYPAL_API_BASES, PayPalSettings } from './paypal.settings';

const SDK_TIMEOUT_MS = 10_000;

type Sdk = typeof PayPalSdk;
let loadedSdk: Sdk | null = null;

/** The SDK, loaded when the first client is made: most instances never configure PayPal. */
function paypalSdk(): Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on demand, and synchronously: the provider's constructor makes the client
  loadedSdk ??= require('@paypal/paypal-server-sdk') as Sdk;
  return loadedSdk;
}

/** A PayPal webhook that is not genuine: headers missing, or PayPal's verify-webhook-signature did not answer SUCCESS. */
export function invalidPayPalSignature(detail: string): ApiError {
  return new ApiError('invalid-paypal-signature', `The PayPal webhook signature is not valid: ${detail}`, 400);
}

/** The headers PayPal signs a delivery with, as verify-webhook-signature takes them. */
const SIGNATURE_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

/** PayPal's error body: the issue (ORDER_NOT_APPROVED, INSTRUMENT_DECLINED …, else its `name`) and what it says. */
function issueOf(error: { body?: unknown }): { issue: string | null; description: string | null } {
  if (typeof error.body !== 'string') return { issue: null, description: null };
  try {
    const parsed = JSON.parse(error.body) as { name?: string; message?: string; details?: Array<{ issue?: string; description?: string }> };
    return {
      issue: parsed.details?.[0]?.issue ?? parsed.name ?? null,
      description: parsed.details?.[0]?.description ?? parsed.message ?? null,
    };
  } catch {
    return { issue: null, description: null };
  }
}

function providerError(error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (loadedSdk && error instanceof loadedSdk.ApiError) {
    const status = error.statusCode;
    const { issue, description } = issueOf(error);
    const text = description ?? (message || `HTTP ${status}`);
    return new PaymentProviderError(issue ? `${text} (${issue})` : text, status >= 500 || status === 429 || status === 408, issue);
  }
  // No answer (connection refused, timeout): the same call may be tried again.
  return new PaymentProviderError(message, true);
}

/** PayPal's value, or a refusal (never retried) when PayPal cannot take the amount exactly. */
function valueOf(amount: number, currency: string): string {
  try {
    return toPayPalValue(amount, currency);
  } catch (error) {
    throw new PaymentProviderError(error instanceof Error ? error.message : String(error), false);
  }
}

/**
 * The official SDK's client. It knows PayPal's live and sandbox hosts only; with PAYPAL_API_BASE (a
 * test double, a proxy) every request it builds, the OAuth token's included, is sent there instead.
 */
function createPayPalClient(settings: PayPalSettings): PayPalSdk.Client {
  const sdk = paypalSdk();
  const official = PAYPAL_API_BASES[settings.environment];
  const rebase = settings.apiBase === official ? null : settings.apiBase;
  class RebasedClient extends sdk.Client {
    // Called by the SDK's own constructor too (for the OAuth controller): no instance fields here.
    override getRequestBuilderFactory(): ReturnType<PayPalSdk.Client['getRequestBuilderFactory']> {
      const factory = super.getRequestBuilderFactory();
      if (rebase === null) return factory;
      return (...args: Parameters<typeof factory>) => {
        const builder = factory(...args);
        builder.interceptRequest((request) => ({
          ...request,
          url: request.url.replace(/^https:\/\/api-m(\.sandbox)?\.paypal\.com/, rebase),
        }));
        return builder;
      };
    }
  }
  return new RebasedClient({
    clientCredentialsAuthCredentials: { oAuthClientId: settings.clientId, oAuthClientSecret: settings.clientSecret },
    environment: settings.environment === 'live' ? sdk.Environment.Production : sdk.Environment.Sandbox,
    timeout: SDK_TIMEOUT_MS,
    // No retry by the SDK: its retry counts every error, a 422 refusal included, as a timeout and
    // would send a refused capture again. The service retries instead (owed calls, the buyer's page,
    // PayPal's redeliveries), each call with its PayPal-Request-Id.
    httpClientOptions: { timeout: SDK_TIMEOUT_MS, retryConfig: { maxNumberOfRetries: 0 } },
  });
}

type PayPalOrder = PayPalSdk.Order;
interface PayPalMoney {
  currency_code?: string;
  value?: string;
}
/** The fields of a webhook's resource the service reads (an order, a capture or a refund, in PayPal's JSON). */
interface PayPalResource {
  id?: string;
  status?: string;
  amount?: PayPalMoney;
  status_details?: { reason?: string };
  supplementary_data?: { related_ids?: { order_id?: string } };
  seller_payable_breakdown?: { total_refunded_amount?: PayPalMoney };
  links?: Array<{ rel?: string; href?: string }>;
}
type PayPalEvent = { id?: string; event_type?: string; resource?: PayPalResource };

/** What a capture's status means for the payment. */
const CAPTURE_STATES: Record<string, ProviderPaymentState['status']> = {
  COMPLETED: 'succeeded',
  PARTIALLY_REFUNDED: 'succeeded',
  REFUNDED: 'refunded',
  DECLINED: 'failed',
  FAILED: 'failed',
};
/** What an order's status means, before any capture. */
const ORDER_STATES: Record<string, ProviderPaymentState['status']> = { APPROVED: 'approved', VOIDED: 'canceled' };

/**
 * PayPal Orders v2 (intent CAPTURE): checkout creates the PayPal order, the buyer approves it with
 * PayPal's JS SDK (or on PayPal's page), and the service captures it, when the buyer's page asks
 * (POST …/orders/{id}/payment/capture) or on CHECKOUT.ORDER.APPROVED. Refunds go to the capture.
 * Webhooks are verified by PayPal's verify-webhook-signature API for PAYPAL_WEBHOOK_ID.
 */
export class PayPalPaymentProvider implements PaymentProvider {
  readonly name = 'paypal';
  private readonly client: PayPalSdk.Client;
  private readonly orders: PayPalSdk.OrdersController;
  private readonly payments: PayPalSdk.PaymentsController;
  private token: PayPalSdk.OAuthToken | undefined;

  constructor(private readonly settings: PayPalSettings) {
    const sdk = paypalSdk();
    this.client = createPayPalClient(settings);
    this.orders = new sdk.OrdersController(this.client);
    this.payments = new sdk.PaymentsController(this.client);
  }

  get publicKey(): string {
    return this.settings.clientId;
  }

  async createPayment(request: CreatePaymentRequest): Promise<CreatedPayment> {
    const value = valueOf(request.amount, request.currency);
    try {
      const { result } = await this.orders.createOrder({
        body: {
          intent: paypalSdk().CheckoutPaymentIntent.Capture,
          purchaseUnits: [
            {
              referenceId: `order-${request.orderId}`,
              customId: String(request.orderId),
              description: request.description,
              amount: { currencyCode: request.currency.toUpperCase(), value },
            },
          ],
        },
        paypalRequestId: request.idempotencyKey,
        prefer: 'return=minimal',
      });
      if (!result.id) throw new PaymentProviderError('the PayPal order came without an id', false);
      return { id: result.id, clientSecret: result.id };
    } catch (error) {
      throw providerError(error);
    }
  }

  async readPayment(paymentId: string): Promise<ProviderPaymentState> {
    try {
      return this.stateOf((await this.orders.getOrder({ id: paymentId })).result);
    } catch (error) {
      throw providerError(error);
    }
  }

  /**
   * Orders v2 has no cancel: an order nobody captures is never charged, and PayPal voids it in
   * time. The service never captures the order of an ended order (but the one whose hold lapsed).
   */
  cancelPayment(): Promise<void> {
    return Promise.resolve();
  }

  async capturePayment(paymentId: string, idempotencyKey: string): Promise<ProviderPaymentState> {
    try {
      const { result } = await this.orders.captureOrder({
        id: paymentId,
        paypalRequestId: idempotencyKey,
        prefer: 'return=representation',
      });
      return this.stateOf(result);
    } catch (error) {
      const failure = providerError(error);
      // Captured before (by the other of the buyer's page and the approval webhook): what was taken.
      if (failure.providerCode === 'ORDER_ALREADY_CAPTURED') return this.readPayment(paymentId);
      throw failure;
    }
  }

  async refund(request: RefundRequest): Promise<AcceptedRefund> {
    const value = valueOf(request.amount, request.currency);
    try {
      const captureId = this.captureOf((await this.orders.getOrder({ id: request.paymentId })).result)?.id;
      if (!captureId) throw new PaymentProviderError(`the PayPal order ${request.paymentId} has no capture to refund`, false);
      const { result } = await this.payments.refundCapturedPayment({
        captureId,
        paypalRequestId: request.idempotencyKey,
        prefer: 'return=representation',
        body: { amount: { currencyCode: request.currency.toUpperCase(), value }, customId: String(request.orderId) },
      });
      const status: string = result.status ?? 'no status';
      if (!result.id || status === 'CANCELLED' || status === 'FAILED') {
        throw new PaymentProviderError(`PayPal did not refund (${status})`, false);
      }
      const refunded = fromPayPalValue(result.amount?.value, request.currency) ?? request.amount;
      return { id: result.id, amount: refunded, status: status === 'COMPLETED' ? 'succeeded' : 'pending' };
    } catch (error) {
      throw providerError(error);
    }
  }

  /**
   * Verified by PayPal (POST /v1/notifications/verify-webhook-signature with the five PAYPAL-*
   * headers, PAYPAL_WEBHOOK_ID and the event exactly as received), then read.
   */
  async parseWebhook(delivery: WebhookDelivery): Promise<PaymentEvent> {
    const headers: Record<string, string> = {};
    for (const [field, header] of Object.entries(SIGNATURE_HEADERS)) {
      const raw = delivery.headers[header];
      const value = Array.isArray(raw) ? raw[0] : raw;
      if (!value) throw invalidPayPalSignature(`the ${header} header is missing`);
      headers[field] = value;
    }
    const text = delivery.rawBody.toString('utf8');
    let event: PayPalEvent;
    try {
      event = JSON.parse(text) as PayPalEvent;
    } catch {
      throw invalidPayPalSignature('the body is not the JSON of an event');
    }
    if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || typeof event.event_type !== 'string') {
      throw invalidPayPalSignature('the body is not the JSON of an event');
    }
    await this.verify(headers, text);
    return this.toPaymentEvent(event as Required<PayPalEvent>);
  }

  private async verify(headers: Record<string, string>, eventJson: string): Promise<void> {
    // The event goes back byte for byte: a parsed and re-serialised copy may not verify.
    const fields = JSON.stringify({ ...headers, webhook_id: this.settings.webhookId });
    const body = `${fields.slice(0, -1)},"webhook_event":${eventJson}}`;
    let answer: Response;
    try {
      answer = await this.authorizedFetch('/v1/notifications/verify-webhook-signature', body);
    } catch (error) {
      throw new ApiError('payment-provider-unavailable', `PayPal could not verify the webhook: ${providerError(error).message}`, 503, {
        retry_after: 5,
      });
    }
    if (answer.status >= 500 || answer.status === 429) {
      throw new ApiError('payment-provider-unavailable', `PayPal could not verify the webhook (HTTP ${answer.status})`, 503, {
        retry_after: 5,
      });
    }
    const result = (await answer.json().catch(() => ({}))) as { verification_status?: string };
    if (!answer.ok || result.verification_status !== 'SUCCESS') {
      throw invalidPayPalSignature(`PayPal answered ${result.verification_status ?? `HTTP ${answer.status}`}`);
    }
  }

  /** A call the SDK does not cover, with the SDK's OAuth token (fetched again when it lapsed). */
  private async authorizedFetch(path: string, body: string): Promise<Response> {
    this.token = await this.client.clientCredentialsAuthManager.updateToken(this.token);
    return fetch(`${this.settings.apiBase}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token.accessToken}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(SDK_TIMEOUT_MS),
    });
  }

  private async toPaymentEvent(event: Required<PayPalEvent>): Promise<PaymentEvent> {
    const base = { id: event.id, type: event.event_type };
    const resource = event.resource ?? {};
    switch (event.event_type) {
      case 'CHECKOUT.ORDER.APPROVED':
        return { ...base, kind: 'approved', paymentId: stringOr(resource.id) };
      case 'CHECKOUT.ORDER.VOIDED':
        return { ...base, kind: 'canceled', paymentId: stringOr(resource.id) };
      case 'PAYMENT.CAPTURE.COMPLETED': {
        const currency = String(resource.amount?.currency_code ?? '').toUpperCase();
        const value = stringOr(resource.amount?.value);
        return {
          ...base,
          kind: 'succeeded',
          paymentId: stringOr(resource.supplementary_data?.related_ids?.order_id),
          amount: currency && value ? fromPayPalValue(value, currency) : null,
          currency,
          detail: `${value ?? '?'} ${currency}`,
        };
      }
      case 'PAYMENT.CAPTURE.DENIED':
      case 'PAYMENT.CAPTURE.DECLINED':
        return {
          ...base,
          kind: 'failed',
          paymentId: stringOr(resource.supplementary_data?.related_ids?.order_id),
          message: `PayPal declined the capture (${String(resource.status_details?.reason ?? resource.status ?? 'DECLINED')}).`,
        };
      case 'PAYMENT.CAPTURE.REFUNDED':
        return this.refundedEvent(base, resource);
      default:
        return { ...base, kind: 'ignored', paymentId: null };
    }
  }

  /**
   * A refund resource names its capture (its `up` link), not the order: the capture says which
   * order it belongs to and whether it is refunded in full.
   */
  private async refundedEvent(base: { id: string; type: string }, resource: PayPalResource): Promise<PaymentEvent> {
    const links = Array.isArray(resource.links) ? resource.links : [];
    const captureId = /\/captures\/([^/]+)$/.exec(links.find((link) => link.rel === 'up')?.href ?? '')?.[1];
    if (!captureId) return { ...base, kind: 'ignored', paymentId: null };
    let capture: PayPalSdk.CapturedPayment;
    try {
      capture = (await this.payments.getCapturedPayment({ captureId })).result;
    } catch (error) {
      const failure = providerError(error);
      if (!failure.transient) return { ...base, kind: 'ignored', paymentId: null };
      throw new ApiError('payment-provider-unavailable', `PayPal did not answer: ${failure.message}`, 503, { retry_after: 5 });
    }
    const currency = String(resource.amount?.currency_code ?? capture.amount?.currencyCode ?? '');
    const total =
      fromPayPalValue(stringOr(resource.seller_payable_breakdown?.total_refunded_amount?.value) ?? undefined, currency) ??
      fromPayPalValue(stringOr(resource.amount?.value) ?? undefined, currency) ??
      0;
    return {
      ...base,
      kind: 'refunded',
      paymentId: capture.supplementaryData?.relatedIds?.orderId ?? null,
      totalRefunded: total,
      full: (capture.status as string | undefined) === 'REFUNDED',
    };
  }

  private captureOf(order: PayPalOrder): PayPalSdk.OrdersCapture | undefined {
    return order.purchaseUnits?.[0]?.payments?.captures?.[0];
  }

  private stateOf(order: PayPalOrder): ProviderPaymentState {
    const capture = this.captureOf(order);
    const currency = (capture?.amount?.currencyCode ?? order.purchaseUnits?.[0]?.amount?.currencyCode ?? '').toUpperCase();
    const orderStatus: string = order.status ?? '';
    if (orderStatus !== 'COMPLETED' || !capture) {
      return { id: order.id ?? '', status: ORDER_STATES[orderStatus] ?? 'open', amount: null, currency };
    }
    // Completed: what the capture says (PENDING while PayPal reviews it).
    const status = CAPTURE_STATES[(capture.status as string | undefined) ?? ''] ?? 'open';
    const amount = status === 'succeeded' || status === 'refunded' ? fromPayPalValue(capture.amount?.value, currency) : null;
    return { id: capture.id ?? order.id ?? '', status, amount, currency };
  }
}

function stringOr(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
