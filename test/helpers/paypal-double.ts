import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { LoopbackDouble } from './loopback-double';

/** One request the double received, as the SDK (or the service's verification call) sent it. */
export interface RecordedPayPalRequest {
  method: string;
  path: string;
  requestId: string | undefined;
  authorization: string | undefined;
  body: Record<string, any>;
}

interface Money {
  currency_code: string;
  value: string;
}

interface DoubleCapture {
  id: string;
  status: 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  amount: Money;
  final_capture: true;
  supplementary_data: { related_ids: { order_id: string } };
  links: Array<{ rel: string; href: string; method: string }>;
}

interface DoubleOrder {
  id: string;
  intent: 'CAPTURE';
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  purchase_units: Array<{
    reference_id?: string;
    custom_id?: string;
    description?: string;
    amount: Money;
    payments?: { captures: DoubleCapture[] };
  }>;
  links: Array<{ rel: string; href: string; method: string }>;
  create_time: string;
}

interface DoubleRefund {
  id: string;
  capture_id: string;
  amount: Money;
}

/** PayPal's currencies without decimals (https://developer.paypal.com/api/rest/reference/currency-codes/). */
const WHOLE_UNITS = new Set(['HUF', 'JPY', 'TWD']);

/**
 * A local stand-in for the PayPal REST endpoints the service calls, on a free loopback port: the
 * OAuth token (client credentials), Orders v2 create / read / capture, captures read and refund,
 * and verify-webhook-signature. It keeps PayPal's rules that matter here: every call but the
 * token's needs the bearer token it issued; a PayPal-Request-Id answers its first success again; an
 * order is captured only once the buyer approved it (422 ORDER_NOT_APPROVED) and only once; a
 * refund cannot exceed what is left; HUF, JPY and TWD amounts have no decimals. Webhooks are signed
 * here (signWebhook) over the transmission id, time, webhook id and the CRC32 of the exact body, as
 * PayPal signs them, and verified only for the webhook id the double was made for.
 */
export class PayPalDouble extends LoopbackDouble<RecordedPayPalRequest> {
  readonly orders = new Map<string, DoubleOrder>();
  readonly refunds: DoubleRefund[] = [];
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private readonly tokens = new Set<string>();
  private readonly signingKey = randomUUID();
  private counter = 0;
  /** The next capture is declined (INSTRUMENT_DECLINED at capture time, as PayPal answers a card refused late). */
  declineNextCapture = false;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
    readonly webhookId: string,
  ) {
    super();
  }

  protected internalErrorBody(error: unknown): unknown {
    return { name: 'INTERNAL_SERVER_ERROR', message: String(error) };
  }

  override clear(): void {
    super.clear();
    this.declineNextCapture = false;
  }

  order(orderId: string): DoubleOrder {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`the double has no order ${orderId}`);
    return order;
  }

  /** The buyer approved the order on PayPal (the JS SDK's onApprove follows). */
  approve(orderId: string): DoubleOrder {
    const order = this.order(orderId);
    if (order.status === 'CREATED') order.status = 'APPROVED';
    return order;
  }

  captureOf(orderId: string): DoubleCapture {
    const capture = this.order(orderId).purchase_units[0].payments?.captures[0];
    if (!capture) throw new Error(`the order ${orderId} has no capture`);
    return capture;
  }

  /** A webhook event body as PayPal sends it. */
  event(eventType: string, resource: unknown, id = `WH-DOUBLE-${(this.counter += 1)}-${Date.now()}`): string {
    return JSON.stringify({
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: eventType.startsWith('CHECKOUT.') ? 'checkout-order' : eventType.endsWith('REFUNDED') ? 'refund' : 'capture',
      resource_version: '2.0',
      event_type: eventType,
      summary: eventType,
      resource,
    });
  }

  /** A refund resource as PAYMENT.CAPTURE.REFUNDED carries it: its `up` link names the capture. */
  refundResource(refund: DoubleRefund): Record<string, unknown> {
    const capture = this.findCapture(refund.capture_id);
    const total = this.refunds
      .filter((one) => one.capture_id === refund.capture_id)
      .reduce((sum, one) => sum + Number(one.amount.value), 0);
    return {
      id: refund.id,
      status: 'COMPLETED',
      amount: refund.amount,
      seller_payable_breakdown: {
        total_refunded_amount: { currency_code: refund.amount.currency_code, value: this.format(total, refund.amount.currency_code) },
      },
      links: [{ rel: 'up', href: `https://api-m.paypal.com/v2/payments/captures/${capture?.id}`, method: 'GET' }],
    };
  }

  /** The PAYPAL-* headers PayPal would send with `body` for the webhook `webhookId` (the double's, unless told). */
  signWebhook(body: string, webhookId = this.webhookId, transmissionTime = new Date().toISOString()): Record<string, string> {
    const transmissionId = randomUUID();
    return {
      'PayPal-Auth-Algo': 'SHA256withRSA',
      'PayPal-Cert-Url': 'https://api-m.paypal.com/v1/notifications/certs/CERT-double',
      'PayPal-Transmission-Id': transmissionId,
      'PayPal-Transmission-Time': transmissionTime,
      'PayPal-Transmission-Sig': this.signature(transmissionId, transmissionTime, webhookId, body),
    };
  }

  private signature(transmissionId: string, time: string, webhookId: string, body: string): string {
    return createHmac('sha256', this.signingKey)
      .update(`${transmissionId}|${time}|${webhookId}|${crc32(Buffer.from(body, 'utf8'))}`)
      .digest('base64');
  }

  private findCapture(captureId: string): DoubleCapture | undefined {
    for (const order of this.orders.values()) {
      const capture = order.purchase_units[0].payments?.captures.find((one) => one.id === captureId);
      if (capture) return capture;
    }
    return undefined;
  }

  private format(value: number, currency: string): string {
    return value.toFixed(WHOLE_UNITS.has(currency) ? 0 : 2);
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://double');
    const method = request.method ?? 'GET';
    const requestId = request.headers['paypal-request-id'] as string | undefined;
    let body: Record<string, any> = {};
    if (raw !== '') {
      try {
        body = request.headers['content-type']?.includes('json')
          ? (JSON.parse(raw) as Record<string, any>)
          : Object.fromEntries(new URLSearchParams(raw));
      } catch {
        body = {};
      }
    }
    this.requests.push({ method, path: url.pathname, requestId, authorization: request.headers.authorization, body });

    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': `debug-${this.counter}` });
      response.end(JSON.stringify(payload));
    };
    for (const [prefix, failure] of this.failures) {
      if (url.pathname.startsWith(prefix) && failure.remaining > 0) {
        failure.remaining -= 1;
        return send(failure.status, failure.body ?? { name: 'INTERNAL_SERVER_ERROR', message: 'The double was told to fail.' });
      }
    }
    if (method === 'POST' && url.pathname === '/v1/oauth2/token') return send(...this.token(request.headers.authorization, body));
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !this.tokens.has(bearer)) {
      return send(401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    if (method === 'POST' && url.pathname === '/v1/notifications/verify-webhook-signature') return send(...this.verify(body, raw));
    if (method === 'POST' && requestId) {
      const scope = `${url.pathname} ${requestId}`;
      const seen = this.idempotent.get(scope);
      if (seen) return send(seen.status, seen.body);
      const [status, answer] = this.route(method, url.pathname, body);
      // Only what succeeded is answered again: a capture refused before the buyer approved may be asked again.
      if (status < 300) this.idempotent.set(scope, { status, body: answer });
      return send(status, answer);
    }
    return send(...this.route(method, url.pathname, body));
  }

  private token(authorization: string | undefined, body: Record<string, any>): [number, unknown] {
    const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
    if (authorization !== expected || body.grant_type !== 'client_credentials') {
      return [401, { error: 'invalid_client', error_description: 'Client Authentication failed' }];
    }
    const token = `A21AA-double-${randomUUID()}`;
    this.tokens.add(token);
    return [
      200,
      {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-double',
        expires_in: 32400,
        nonce: randomUUID(),
      },
    ];
  }

  /** PayPal's verification: the headers' signature over the exact event bytes, for the webhook id asked about. */
  private verify(body: Record<string, any>, raw: string): [number, unknown] {
    const marker = raw.indexOf('"webhook_event":');
    if (marker < 0 || !raw.endsWith('}')) return invalid('webhook_event is required');
    const eventJson = raw.slice(marker + '"webhook_event":'.length, -1);
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'];
    const absent = fields.filter((field) => typeof body[field] !== 'string' || body[field] === '');
    if (absent.length > 0) return invalid(`${absent.join(', ')} required`);
    const genuine =
      body.webhook_id === this.webhookId &&
      body.transmission_sig === this.signature(body.transmission_id as string, body.transmission_time as string, this.webhookId, eventJson);
    return [200, { verification_status: genuine ? 'SUCCESS' : 'FAILURE' }];
  }

  private route(method: string, path: string, body: Record<string, any>): [number, unknown] {
    if (method === 'POST' && path === '/v2/checkout/orders') return this.createOrder(body);
    const read = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path);
    if (method === 'GET' && read) {
      const order = this.orders.get(read[1]);
      return order ? [200, order] : notFound('RESOURCE_NOT_FOUND', `order ${read[1]}`);
    }
    const capture = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(path);
    if (method === 'POST' && capture) return this.captureOrder(capture[1]);
    const readCapture = /^\/v2\/payments\/captures\/([^/]+)$/.exec(path);
    if (method === 'GET' && readCapture) {
      const found = this.findCapture(readCapture[1]);
      return found ? [200, found] : notFound('RESOURCE_NOT_FOUND', `capture ${readCapture[1]}`);
    }
    const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (method === 'POST' && refund) return this.refundCapture(refund[1], body);
    return [404, { name: 'RESOURCE_NOT_FOUND', message: `No route ${method} ${path}` }];
  }

  private createOrder(body: Record<string, any>): [number, unknown] {
    if (body.intent !== 'CAPTURE') return invalid('intent must be CAPTURE');
    const unit = (body.purchase_units as DoubleOrder['purchase_units'] | undefined)?.[0];
    const amount = unit?.amount;
    if (!amount || !/^[A-Z]{3}$/.test(amount.currency_code ?? '')) return invalid('CURRENCY_NOT_SUPPORTED');
    const decimals = WHOLE_UNITS.has(amount.currency_code) ? 0 : 2;
    const pattern = decimals === 0 ? /^\d+$/ : /^\d+(\.\d{1,2})?$/;
    if (!pattern.test(amount.value) || Number(amount.value) <= 0)
      return unprocessable('DECIMAL_PRECISION', `value ${amount.value} in ${amount.currency_code}`);
    this.counter += 1;
    const id = `5O${String(this.counter).padStart(6, '0')}DOUBLE${Date.now() % 100000}`;
    const order: DoubleOrder = {
      id,
      intent: 'CAPTURE',
      status: 'CREATED',
      purchase_units: [
        { reference_id: unit.reference_id, custom_id: unit.custom_id, description: unit.description, amount: { ...amount } },
      ],
      links: [
        { rel: 'self', href: `https://api-m.paypal.com/v2/checkout/orders/${id}`, method: 'GET' },
        { rel: 'approve', href: `https://www.paypal.com/checkoutnow?token=${id}`, method: 'GET' },
        { rel: 'capture', href: `https://api-m.paypal.com/v2/checkout/orders/${id}/capture`, method: 'POST' },
      ],
      create_time: new Date().toISOString(),
    };
    this.orders.set(id, order);
    return [201, order];
  }

  private captureOrder(orderId: string): [number, unknown] {
    const order = this.orders.get(orderId);
    if (!order) return notFound('RESOURCE_NOT_FOUND', `order ${orderId}`);
    if (order.status === 'COMPLETED') return unprocessable('ORDER_ALREADY_CAPTURED', 'Order already captured.');
    if (order.status !== 'APPROVED') return unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    if (this.declineNextCapture) {
      this.declineNextCapture = false;
      return unprocessable('INSTRUMENT_DECLINED', 'The instrument presented was either declined by the processor or bank.');
    }
    this.counter += 1;
    const unit = order.purchase_units[0];
    const captureId = `3C${String(this.counter).padStart(6, '0')}DOUBLE`;
    unit.payments = {
      captures: [
        {
          id: captureId,
          status: 'COMPLETED',
          amount: { ...unit.amount },
          final_capture: true,
          supplementary_data: { related_ids: { order_id: order.id } },
          links: [{ rel: 'refund', href: `https://api-m.paypal.com/v2/payments/captures/${captureId}/refund`, method: 'POST' }],
        },
      ],
    };
    order.status = 'COMPLETED';
    return [201, order];
  }

  private refundCapture(captureId: string, body: Record<string, any>): [number, unknown] {
    const capture = this.findCapture(captureId);
    if (!capture) return notFound('RESOURCE_NOT_FOUND', `capture ${captureId}`);
    if (capture.status === 'REFUNDED') return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.');
    const currency = capture.amount.currency_code;
    const refunded = this.refunds
      .filter((refund) => refund.capture_id === captureId)
      .reduce((sum, refund) => sum + Number(refund.amount.value), 0);
    const left = Number(capture.amount.value) - refunded;
    const asked = body.amount as Money | undefined;
    if (asked && asked.currency_code !== currency)
      return unprocessable('REFUND_CURRENCY_MISMATCH', `${asked.currency_code} is not ${currency}`);
    const value = asked ? Number(asked.value) : left;
    if (!(value > 0) || value > left + 1e-9) return unprocessable('REFUND_AMOUNT_EXCEEDED', `${value} is more than ${left} left`);
    this.counter += 1;
    const refund: DoubleRefund = {
      id: `9R${String(this.counter).padStart(6, '0')}DOUBLE`,
      capture_id: captureId,
      amount: { currency_code: currency, value: this.format(value, currency) },
    };
    this.refunds.push(refund);
    capture.status = Math.abs(left - value) < 1e-9 ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    return [201, this.refundResource(refund)];
  }
}

function invalid(message: string): [number, unknown] {
  return [400, { name: 'INVALID_REQUEST', message, details: [{ issue: 'INVALID_PARAMETER_VALUE', description: message }] }];
}

function unprocessable(issue: string, description: string): [number, unknown] {
  return [
    422,
    { name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed.', details: [{ issue, description }] },
  ];
}

function notFound(issue: string, what: string): [number, unknown] {
  return [404, { name: 'RESOURCE_NOT_FOUND', message: `The specified resource does not exist: ${what}`, details: [{ issue }] }];
}
