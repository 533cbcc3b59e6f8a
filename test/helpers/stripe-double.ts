import type { IncomingMessage, ServerResponse } from 'node:http';
import * as qs from 'qs';
import Stripe from 'stripe';
import { LoopbackDouble } from './loopback-double';

/** One request the double received, as the SDK sent it. */
export interface RecordedStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  body: Record<string, any>;
}

interface DoubleIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  description: string | null;
  latest_charge: string | null;
  last_payment_error: { code: string; message: string } | null;
  created: number;
  livemode: false;
}

/**
 * A local stand-in for the few Stripe endpoints the service calls (create, read and cancel a
 * PaymentIntent; create a refund) and the confirmation a buyer's browser makes, on a free loopback
 * port. It keeps Stripe's rules that matter here: test cards (`pm_card_visa`,
 * `pm_card_chargeDeclined`) confirm or decline an intent, an Idempotency-Key answers its first
 * answer again (and refuses other parameters), a succeeded intent cannot be cancelled, a refund
 * cannot exceed what is left, amounts of its three-decimal currencies end in 0 and ISK ones in 00
 * (https://docs.stripe.com/currencies). Every request is recorded; failures can be injected per path.
 * Webhook events are built here and signed with the SDK's test helper.
 */
export class StripeDouble extends LoopbackDouble<RecordedStripeRequest> {
  readonly intents = new Map<string, DoubleIntent>();
  readonly refunds: Array<{ id: string; payment_intent: string; amount: number }> = [];
  private readonly idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  private counter = 0;

  protected internalErrorBody(error: unknown): unknown {
    return { error: { type: 'api_error', message: String(error) } };
  }

  /** The buyer paid: the intent succeeds with a charge. */
  succeed(intentId: string): DoubleIntent {
    const intent = this.intent(intentId);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = `ch_${intentId}`;
    return intent;
  }

  /** The card was declined. */
  decline(intentId: string, message = 'Your card was declined.'): DoubleIntent {
    const intent = this.intent(intentId);
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { code: 'card_declined', message };
    return intent;
  }

  intent(intentId: string): DoubleIntent {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`the double has no intent ${intentId}`);
    return intent;
  }

  /** A charge object as charge.refunded carries it: the total refunded so far. */
  charge(intentId: string): Record<string, unknown> {
    const intent = this.intent(intentId);
    const refunded = this.refunds.filter((refund) => refund.payment_intent === intentId).reduce((sum, refund) => sum + refund.amount, 0);
    return {
      id: `ch_${intentId}`,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: refunded,
      refunded: refunded >= intent.amount,
      currency: intent.currency,
      payment_intent: intentId,
      metadata: intent.metadata,
    };
  }

  /** A webhook event body as Stripe sends it. */
  event(type: string, object: unknown, id = `evt_${(this.counter += 1)}_${Date.now()}`): string {
    return JSON.stringify({
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
  }

  /** The `Stripe-Signature` header Stripe would send for `payload`, made by the SDK's test helper. */
  static sign(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
    return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://double');
    const body = qs.parse(raw) as Record<string, any>;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    const method = request.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, idempotencyKey, authorization: request.headers.authorization, body });

    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.counter}` });
      response.end(JSON.stringify(payload));
    };
    for (const [prefix, failure] of this.failures) {
      if (url.pathname.startsWith(prefix) && failure.remaining > 0) {
        failure.remaining -= 1;
        return send(failure.status, failure.body ?? { error: { type: 'api_error', message: 'The double was told to fail.' } });
      }
    }
    if (method === 'POST' && idempotencyKey) {
      const scope = `${url.pathname} ${idempotencyKey}`;
      const seen = this.idempotent.get(scope);
      if (seen) {
        if (seen.params !== raw) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          });
        }
        response.setHeader('idempotent-replayed', 'true');
        return send(seen.status, seen.body);
      }
      const [status, answer] = this.route(method, url.pathname, body);
      if (status < 500) this.idempotent.set(scope, { params: raw, status, body: answer });
      return send(status, answer);
    }
    const [status, answer] = this.route(method, url.pathname, body);
    return send(status, answer);
  }

  private route(method: string, path: string, body: Record<string, any>): [number, unknown] {
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(body);
    const read = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && read) {
      const intent = this.intents.get(read[1]);
      return intent ? [200, intent] : missing(read[1]);
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) return this.cancelIntent(cancel[1], body);
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    if (method === 'POST' && confirm) return this.confirmIntent(confirm[1], body);
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(body);
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } }];
  }

  private createIntent(body: Record<string, any>): [number, unknown] {
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 1) return invalid('Invalid positive integer', 'parameter_invalid_integer');
    if (typeof body.currency !== 'string' || !/^[a-z]{3}$/.test(body.currency)) return invalid('Invalid currency', 'parameter_invalid');
    const unchargeable = unchargeableAmount(amount, body.currency);
    if (unchargeable) return unchargeable;
    this.counter += 1;
    const id = `pi_double_${this.counter}`;
    const intent: DoubleIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: body.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${this.counter}`,
      metadata: (body.metadata as Record<string, string>) ?? {},
      description: (body.description as string) ?? null,
      latest_charge: null,
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    this.intents.set(id, intent);
    return [200, intent];
  }

  /** Stripe's test cards: `pm_card_visa` succeeds, `pm_card_chargeDeclined` is declined. */
  private confirmIntent(id: string, body: Record<string, any>): [number, unknown] {
    const intent = this.intents.get(id);
    if (!intent) return missing(id);
    if (intent.status !== 'requires_payment_method') {
      return invalid(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
        'payment_intent_unexpected_state',
      );
    }
    if (body.payment_method === 'pm_card_visa') return [200, this.succeed(id)];
    if (body.payment_method === 'pm_card_chargeDeclined') {
      this.decline(id);
      return [402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', payment_intent: intent } }];
    }
    return invalid(`No such PaymentMethod: '${String(body.payment_method)}'`, 'resource_missing');
  }

  private cancelIntent(id: string, body: Record<string, any>): [number, unknown] {
    const intent = this.intents.get(id);
    if (!intent) return missing(id);
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        'payment_intent_unexpected_state',
      );
    }
    intent.status = 'canceled';
    return [200, { ...intent, cancellation_reason: body.cancellation_reason ?? null }];
  }

  private createRefund(body: Record<string, any>): [number, unknown] {
    const intent = this.intents.get(String(body.payment_intent));
    if (!intent) return missing(String(body.payment_intent));
    if (intent.status !== 'succeeded')
      return invalid('This PaymentIntent does not have a successful charge to refund.', 'charge_not_refundable');
    const left =
      intent.amount - this.refunds.filter((refund) => refund.payment_intent === intent.id).reduce((sum, refund) => sum + refund.amount, 0);
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      return invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'charge_exceeds_source_limit');
    }
    const unchargeable = unchargeableAmount(amount, intent.currency);
    if (unchargeable) return unchargeable;
    this.counter += 1;
    const refund = { id: `re_double_${this.counter}`, payment_intent: intent.id, amount };
    this.refunds.push(refund);
    return [
      200,
      {
        ...refund,
        object: 'refund',
        status: 'succeeded',
        currency: intent.currency,
        charge: `ch_${intent.id}`,
        metadata: body.metadata ?? {},
      },
    ];
  }
}

/** Stripe's rules for amounts in a currency: three-decimal ones end in 0, ISK (two decimals kept for compatibility) in 00. */
function unchargeableAmount(amount: number, currency: string): [number, unknown] | null {
  const step = ['bhd', 'jod', 'kwd', 'omr', 'tnd'].includes(currency) ? 10 : currency === 'isk' ? 100 : 1;
  return amount % step === 0 ? null : invalid(`Amounts in ${currency} must be multiples of ${step}.`, 'amount_invalid');
}

function invalid(message: string, code: string): [number, unknown] {
  return [400, { error: { type: 'invalid_request_error', code, message } }];
}

function missing(id: string): [number, unknown] {
  return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${id}'` } }];
}
