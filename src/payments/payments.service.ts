import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { RequestContext } from '../auth/request-context';
import { CLOCK, Clock } from '../common/clock';
import { formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import { invalidParam } from '../common/errors/api-error';
import { describeMoneyProblem, formatMoney, knownExponent, parseMoney } from '../common/money';
import { appConfig } from '../config/app.config';
import type { OrderResponse } from '../orders/dto/order.response';
import { Order } from '../orders/order.entity';
import type { OrderPaymentResponse } from './dto/order-payment.response';
import { moneyRules, refundAmount, retryDelayMs } from './payment-amounts';
import { paymentProviderRefused, paymentProviderUnavailable } from './payment-errors';
import { AcceptedRefund, PaymentProvider, PaymentProviderError } from './payment-provider';
import { PaymentProviders } from './payment-providers';
import { Payment, PaymentRefund, PaymentStatus } from './payment.entity';
import { PaymentsRepository } from './payments.repository';
import { TransactionHost } from '../common/database/transaction-host';

/** How long processed provider event ids are kept (Stripe stops retrying a delivery after three days, PayPal too). */
const PROCESSED_EVENTS_KEPT_DAYS = 30;
/** Owed provider calls run per pass; the next pass takes the rest. */
const ACTION_BATCH = 50;
/** A payment whose money can be refunded through the provider. */
const REFUNDABLE: PaymentStatus[] = ['succeeded', 'partially_refunded'];
/** Statuses in which the buyer can still pay: the client secret is shown then only. */
const OPEN: PaymentStatus[] = ['requires_payment', 'failed'];

type KeyedPayment = Pick<Payment, 'orderId' | 'createdAt' | 'keyNonce'>;

/**
 * The part of the idempotency keys that names the payment: its order and its random nonce (ids
 * restart with a new database). Payments older than the nonce have the second they were placed in.
 */
function keyBase(payment: KeyedPayment): string {
  return `cal-order-${payment.orderId}-${payment.keyNonce ?? Math.floor(payment.createdAt.getTime() / 1000)}`;
}

/** A new payment's nonce: 16 random bytes, 22 characters. */
export function newKeyNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** The provider's idempotency key of an order's payment: every attempt to start it uses this one. */
export function intentIdempotencyKey(payment: KeyedPayment): string {
  return `${keyBase(payment)}-intent`;
}

/** The key of the capture of an order's payment (providers whose buyer approves and the service captures). */
export function captureIdempotencyKey(payment: KeyedPayment): string {
  return `${keyBase(payment)}-capture`;
}

/**
 * Which provider takes an order's money, and the provider side of an order's life: the payment
 * created after checkout commits, cancelled when the order ends unpaid, refunds through it, each
 * through the provider the payment row names. The order's own moves (pending → completed …) stay
 * with OrdersService; what a provider's event does to an order is in PaymentEventsService. Provider calls never run inside a database transaction: what must happen
 * after a commit is written as an owed action (`pending_action`) in that transaction and run after
 * it, retried with the same idempotency key until the provider answers.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger(PaymentsService.name);

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: PaymentsRepository,
    private readonly providers: PaymentProviders,
  ) {}

  /**
   * PAYMENT_PROVIDER applies to paid orders of the commerce provider (`tc`); free orders and RSVPs
   * complete at checkout and never need one.
   */
  providerFor(orderProvider: string, totalMinor: number): PaymentProvider | null {
    if (orderProvider !== 'tc' || totalMinor <= 0) return null;
    return this.providers.forNewOrders();
  }

  /** Checkout, inside its transaction: a pending order paid online gets its payment row (the intent comes after the commit). */
  async orderPlaced(order: Order, totalMinor: number): Promise<void> {
    if (order.status !== 'pending') return;
    const provider = this.providerFor(order.provider, totalMinor);
    if (!provider) return;
    // Lower case, as the first provider (Stripe) wrote it; compared without case.
    const currency = order.currency.trim().toLowerCase();
    await this.repository.insert({
      orderId: order.id,
      provider: provider.name,
      keyNonce: newKeyNonce(),
      intentId: null,
      clientSecret: null,
      amountMinor: totalMinor,
      currency,
      status: 'unavailable',
      refundedMinor: 0,
      failureMessage: null,
      pendingAction: null,
      actionAttempts: 0,
      nextActionAt: null,
      lastError: null,
      createdAt: order.createdAt,
    });
  }

  /**
   * Checkout's answer (first or replayed) with its payment, after the commit: orders paid by hand
   * are answered as they are, without a statement more.
   */
  async attachPayment(body: OrderResponse, context: RequestContext): Promise<OrderResponse> {
    // Whether the answer's total (a formatted amount) is more than 0: any digit but 0.
    const paid = /[1-9]/.test(body.total);
    if (!this.providerFor(body.provider, paid ? 1 : 0)) return body;
    const order = await this.repository.findOrder(body.id);
    const payment = order ? await this.startPayment(order, context) : undefined;
    return payment ? { ...body, payment } : body;
  }

  /**
   * After checkout's commit (and on every replay of it): creates the order's payment at its
   * provider if it has none yet, with the idempotency key derived from the order, so a retry never
   * makes a second one. When the provider cannot be reached the order stays pending, holding its tickets until its hold
   * lapses, and the answer says `unavailable`; the next replay tries again. Undefined for orders
   * paid by hand.
   */
  async startPayment(order: Order, context: RequestContext): Promise<OrderPaymentResponse | undefined> {
    let payment = await this.repository.findByOrder(order.id);
    if (!payment) return undefined;
    if (payment.intentId === null && payment.status === 'unavailable' && order.status === 'pending') {
      const now = this.clock.now();
      try {
        const intent = await this.providers.get(payment.provider).createPayment({
          orderId: order.id,
          amount: payment.amountMinor,
          currency: payment.currency.toUpperCase(),
          description: `Order #${order.id}`,
          idempotencyKey: intentIdempotencyKey(payment),
        });
        await this.repository.setIntent(payment.id, intent.id, intent.clientSecret, now);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.warn(
          { err: error, orderId: order.id, provider: payment.provider },
          'creating the payment failed; the order stays pending',
        );
        await this.repository.recordStartFailure(payment.id, message, now);
      }
      payment = await this.repository.findByOrder(order.id);
    }
    return payment ? this.present(payment, order, context) : undefined;
  }

  /** The answers of a page of orders with their payments: one query, none when no provider is configured. */
  async describeAll(orders: Order[], responses: OrderResponse[], context: RequestContext): Promise<OrderResponse[]> {
    if (!this.providers.any || orders.length === 0) return responses;
    const byOrder = new Map(
      (await this.repository.paymentsOf(orders.map((order) => order.id))).map((payment) => [payment.orderId, payment]),
    );
    return responses.map((response, index) => {
      const payment = byOrder.get(orders[index].id);
      return payment ? { ...response, payment: this.present(payment, orders[index], context) } : response;
    });
  }

  /** Forgets provider events processed more than PROCESSED_EVENTS_KEPT_DAYS ago: providers retry a delivery for three days at most. */
  async purgeProcessedEvents(now: Date): Promise<void> {
    await this.repository.purgeEvents(new Date(now.getTime() - PROCESSED_EVENTS_KEPT_DAYS * 86_400_000));
  }

  /** The payment part of an order's answer; undefined for orders paid by hand. */
  async describe(order: Order, context: RequestContext): Promise<OrderPaymentResponse | undefined> {
    const payment = await this.repository.findByOrder(order.id);
    return payment ? this.present(payment, order, context) : undefined;
  }

  /**
   * The order no longer waits for its online payment (hold expired, cancelled, or completed by a
   * manager), inside that transaction: an open intent is cancelled after the commit, so the buyer
   * cannot pay it any more. A payment that already succeeded is left alone.
   */
  async orderEnded(orderId: number, now: Date): Promise<void> {
    await this.repository.cancelOpen(orderId, now);
  }

  /**
   * A manager's refund of a completed order paid online: refunds `amount` (a decimal string with no
   * more decimals than the currency has, in the provider's steps; all that is left when absent)
   * through the provider and records it once the provider accepted it.
   * `full` says whether nothing is left, so the order moves to refunded; null when the order was
   * not paid online (then the refund is the manual one).
   */
  async refundThroughProvider(order: Order, amount: string | undefined): Promise<{ full: boolean } | null> {
    const payment = await this.repository.findByOrder(order.id);
    if (!payment || payment.intentId === null || !REFUNDABLE.includes(payment.status)) return null;
    const rules = { ...moneyRules(this.config), exponent: knownExponent(payment.currency) };
    const parsed = amount === undefined ? null : parseMoney(amount, rules);
    if (parsed?.problem) throw invalidParam('amount', describeMoneyProblem('amount', parsed.problem, rules));
    const decision = refundAmount(payment.amountMinor, payment.refundedMinor, parsed ? parsed.minor : null, rules.exponent);
    if (typeof decision === 'string') throw invalidParam('amount', decision);
    let refund;
    try {
      refund = await this.providers.get(payment.provider).refund({
        paymentId: payment.intentId,
        orderId: order.id,
        amount: decision.amount,
        currency: payment.currency.toUpperCase(),
        idempotencyKey: `${keyBase(payment)}-refund-${payment.refundedMinor}-${decision.amount}`,
      });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      throw error.transient ? paymentProviderUnavailable(error.message) : paymentProviderRefused(error.message);
    }
    const refunded = await this.recordRefund(payment, refund, 'manager');
    return { full: refunded >= payment.amountMinor };
  }

  /**
   * Provider calls owed after earlier commits (cancel an ended order's intent, refund a payment that
   * came too late), each claimed by one caller and retried with growing delays while the provider
   * cannot be reached; a refusal ends it (logged and kept in `last_error`). Runs after the expiry
   * sweep (all of them) and after a webhook that owes one (`paymentId`'s alone, so that concurrent
   * webhooks do not contend for each other's). Returns how many calls went through.
   */
  async runDueActions(paymentId?: number): Promise<number> {
    const now = this.clock.now();
    let done = 0;
    for (const payment of await this.repository.dueActions(now, ACTION_BATCH, paymentId)) {
      const action = payment.pendingAction;
      if (!action || !payment.intentId) continue;
      if (!(await this.repository.claimAction(payment, new Date(now.getTime() + retryDelayMs(payment.actionAttempts + 1))))) continue;
      try {
        const provider = this.providers.get(payment.provider);
        if (action === 'cancel') {
          await provider.cancelPayment(payment.intentId, `${keyBase(payment)}-cancel`);
        } else {
          const refund = await provider.refund({
            paymentId: payment.intentId,
            orderId: payment.orderId,
            amount: payment.amountMinor - payment.refundedMinor,
            currency: payment.currency.toUpperCase(),
            idempotencyKey: `${keyBase(payment)}-late-refund`,
          });
          await this.recordRefund(payment, refund, 'late_payment');
        }
        await this.repository.finishAction(payment.id, action, null, this.clock.now());
        done += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof PaymentProviderError && !error.transient) {
          this.logger.warn({ orderId: payment.orderId, action, err: error }, 'the payment provider refused an owed call; not retried');
          await this.repository.finishAction(payment.id, action, message, this.clock.now());
        } else {
          this.logger.warn({ orderId: payment.orderId, action, err: error }, 'an owed payment provider call failed; retried later');
          await this.repository.noteActionError(payment.id, message);
        }
      }
    }
    return done;
  }

  /** Stores an accepted refund and raises the payment's refunded total; returns that total. */
  private async recordRefund(payment: Payment, refund: AcceptedRefund, reason: string): Promise<number> {
    const now = this.clock.now();
    return this.tx.run(async () => {
      const total = await this.repository.addRefund(
        Object.assign(new PaymentRefund(), {
          id: refund.id,
          paymentId: payment.id,
          amountMinor: refund.amount,
          status: refund.status,
          reason,
          createdAt: now,
        }),
      );
      const current = (await this.repository.findByOrder(payment.orderId)) as Payment;
      const refunded = Math.max(current.refundedMinor, total);
      await this.repository.raiseRefunded(current, refunded, now);
      return refunded;
    });
  }

  private present(payment: Payment, order: Order, context: RequestContext): OrderPaymentResponse {
    const zone = resolveTimeZone(context.siteTimezone) ?? 'UTC';
    const open = order.status === 'pending' && OPEN.includes(payment.status);
    const response: OrderPaymentResponse = {
      provider: payment.provider,
      status: payment.status,
      client_secret: open ? payment.clientSecret : null,
      publishable_key: this.providers.find(payment.provider)?.publicKey ?? '',
      expires_at: order.status === 'pending' && order.expiresAt ? formatInZone(order.expiresAt, zone) : null,
      amount: formatMoney(payment.amountMinor, knownExponent(payment.currency)),
      amount_refunded: formatMoney(payment.refundedMinor, knownExponent(payment.currency)),
    };
    if (payment.failureMessage && (payment.status === 'failed' || payment.status === 'unavailable')) {
      response.failure_message = payment.failureMessage;
    }
    return response;
  }
}
