import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RequestContext } from '../auth/request-context';
import { CLOCK, Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { formatMoney, knownExponent } from '../common/money';
import { MetricsService } from '../metrics/metrics.service';
import type { OrderResponse } from '../orders/dto/order.response';
import { OrdersService } from '../orders/orders.service';
import type { PaymentWebhookResponse, WebhookOutcome } from './dto/payment-webhook.response';
import { paymentNotApproved, paymentNotCapturable, paymentProviderRefused, paymentProviderUnavailable } from './payment-errors';
import { PaymentEvent, PaymentProvider, PaymentProviderError, ProviderPaymentState, WebhookDelivery } from './payment-provider';
import { PaymentProviders } from './payment-providers';
import { Payment, PaymentStatus } from './payment.entity';
import { PaymentsRepository } from './payments.repository';
import { captureIdempotencyKey, PaymentsService } from './payments.service';
import { TransactionHost } from '../common/database/transaction-host';
import type { OrderViewer } from '../access/order-access';

/** Thrown inside the completion's transaction to roll it back: the order cannot be completed, its money goes back. */
class NotFulfillable extends Error {}

/** `owedBy`: the payment whose owed call (a refund) the commit scheduled. */
type Handled = { outcome: WebhookOutcome; unitsSold?: number; provider?: string; owedBy?: number };

type Succeeded = Extract<PaymentEvent, { kind: 'succeeded' }>;

/** Payments whose money was taken already: nothing to capture again. */
const TAKEN: PaymentStatus[] = ['succeeded', 'partially_refunded', 'refunded'];

/** The provider's error code when a capture comes before the buyer approved (PayPal's ORDER_NOT_APPROVED). */
const NOT_APPROVED_CODES = new Set(['ORDER_NOT_APPROVED']);

function unknownProvider(name: string): ApiError {
  return new ApiError('rest_no_route', `No payment provider is named "${name}".`, 404);
}

/**
 * What a payment provider's event does to an order, once for every provider: the provider verifies
 * and reads its webhook into a PaymentEvent (payment-provider.ts), and this service applies it.
 * Each event is processed once (its id's row is written in the transaction of its effect), and the
 * order moves through OrdersService as a manager's completion or refund would move it,
 * notifications included:
 * - succeeded: the amount and currency must be the order's to the unit (else amount_mismatch, not
 *   completed); the order is completed, or completed again after its hold lapsed if its tickets
 *   can still be taken, or else marked refunded with a full refund owed to the provider;
 * - approved (providers whose buyer approves and the service captures): captured, then as succeeded;
 * - failed: recorded, the order stays pending; refunded: the total raised, in full the order refunded;
 * - canceled: an open payment is marked canceled; ignored: acknowledged.
 */
@Injectable()
export class PaymentEventsService {
  private readonly logger = new Logger(PaymentEventsService.name);

  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentsService,
    private readonly repository: PaymentsRepository,
    private readonly orders: OrdersService,
    private readonly metrics: MetricsService,
  ) {}

  /** A webhook delivery to `{prefix}/tickets/v1/payments/{providerName}/webhook`. */
  async receive(providerName: string, rawBody: unknown, headers: WebhookDelivery['headers']): Promise<PaymentWebhookResponse> {
    if (!this.providers.isRegistered(providerName)) throw unknownProvider(providerName);
    const provider = this.providers.get(providerName);
    const event = await provider.parseWebhook({ rawBody: Buffer.isBuffer(rawBody) ? rawBody : Buffer.alloc(0), headers });
    const handled = await this.apply(provider, event);
    return { received: true, event_id: event.id, type: event.type, outcome: handled.outcome };
  }

  /**
   * The buyer approved the payment at the provider and the buyer's page asks for the capture (or
   * the provider's approval webhook did): the money is taken, and the order completed as by a
   * succeeded event. Only the order's buyer or its managers; the order answered as GET would.
   */
  async captureForBuyer(orderId: number, viewer: OrderViewer, context: RequestContext): Promise<OrderResponse> {
    await this.orders.get(orderId, viewer, context);
    const payment = await this.repository.findByOrder(orderId);
    if (!payment || payment.intentId === null) throw paymentNotCapturable('the order is not paid through a provider that captures');
    const provider = this.providers.get(payment.provider);
    if (!provider.capturePayment) throw paymentNotCapturable(`${payment.provider} takes the money itself when the buyer pays`);
    if (!TAKEN.includes(payment.status)) {
      const order = await this.repository.findOrder(orderId);
      if (order && order.status !== 'pending' && order.status !== 'expired') throw paymentNotCapturable(`the order is ${order.status}`);
      await this.afterCommit(await this.capture(provider, payment, true));
    }
    return this.orders.get(orderId, viewer, context);
  }

  private async apply(provider: PaymentProvider, event: PaymentEvent): Promise<Handled> {
    let handled: Handled;
    switch (event.kind) {
      case 'approved':
        handled = await this.approved(provider, event);
        break;
      case 'succeeded':
        handled = await this.succeeded(provider, event);
        break;
      case 'failed':
        handled = await this.once(provider, event, (now, payment) => this.failed(payment, event.message, now));
        break;
      case 'refunded':
        handled = await this.once(provider, event, (now, payment) => this.refunded(payment, event.totalRefunded, event.full, now));
        break;
      case 'canceled':
        handled = await this.once(provider, event, async (now, payment) =>
          (await this.repository.markCanceled(payment.id, now)) ? { outcome: 'canceled' } : { outcome: 'ignored' },
        );
        break;
      default:
        handled = await this.once(provider, event, null);
    }
    await this.afterCommit(handled);
    return handled;
  }

  /**
   * After the commit: the metrics, and the refund it owes the provider, for this payment alone. The
   * event is processed whatever happens now: a failure (the provider not answering, the database
   * busy) leaves the call to the sweep, which retries it with the same idempotency key, and the
   * answer stays 200, for a redelivery would only be a duplicate.
   */
  private async afterCommit(handled: Handled): Promise<void> {
    if (handled.unitsSold && handled.provider) this.metrics.ticketsSold(handled.provider, handled.unitsSold);
    if (handled.owedBy !== undefined) {
      await this.payments.runDueActions(handled.owedBy).catch((error: unknown) => {
        this.logger.warn({ paymentId: handled.owedBy, err: error }, 'the owed refund is left to the sweep');
      });
    }
  }

  /**
   * Runs `work` in one transaction with the event's row: a second delivery of the event does
   * nothing. `work` gets the payment the event is about; events about none of this provider's
   * payments (or `work` null) are acknowledged as ignored, once.
   */
  private once(
    provider: PaymentProvider,
    event: Pick<PaymentEvent, 'id' | 'type' | 'paymentId'>,
    work: ((now: Date, payment: Payment) => Promise<Handled>) | null,
  ): Promise<Handled> {
    const now = this.clock.now();
    return this.tx.run(async () => {
      if (!(await this.repository.recordEvent({ provider: provider.name, eventId: event.id, type: event.type.slice(0, 64) }, now))) {
        return { outcome: 'duplicate' };
      }
      if (!work || event.paymentId === null) return { outcome: 'ignored' };
      const payment = await this.repository.findByIntent(event.paymentId);
      if (!payment || payment.provider !== provider.name) return { outcome: 'ignored' };
      return work(now, payment);
    });
  }

  /**
   * Approved at the provider: captured now, and the event recorded once that is done (a capture the
   * provider did not answer leaves it unrecorded, so its redelivery captures). The capture's own
   * key makes a second capture a no-op at the provider, and its id makes it count once here.
   */
  private async approved(provider: PaymentProvider, event: PaymentEvent): Promise<Handled> {
    if (await this.repository.eventRecorded(provider.name, event.id)) return { outcome: 'duplicate' };
    const payment = event.paymentId === null ? null : await this.repository.findByProviderId(event.paymentId);
    if (!payment || payment.provider !== provider.name || !provider.capturePayment) return this.once(provider, event, null);
    const order = await this.repository.findOrder(payment.orderId);
    const taken = TAKEN.includes(payment.status);
    const capturable = !taken && (!order || order.status === 'pending' || order.status === 'expired');
    // Not captured for an order that ended otherwise (cancelled, completed by hand): PayPal voids it in time.
    const handled: Handled = capturable
      ? await this.capture(provider, payment, false)
      : { outcome: taken ? 'already_completed' : 'ignored' };
    const recorded = await this.once(provider, { ...event, paymentId: null }, null);
    return recorded.outcome === 'duplicate' ? recorded : handled;
  }

  /**
   * Takes the money of an approved payment and applies the answer as the provider's succeeded (or
   * failed) event, keyed by the capture's id, so that the capture's answer and the provider's own
   * capture webhook count once. `forBuyer`: provider errors become the route's answers.
   */
  private async capture(provider: PaymentProvider, payment: Payment, forBuyer: boolean): Promise<Handled> {
    let state: ProviderPaymentState;
    try {
      state = await (provider.capturePayment as NonNullable<PaymentProvider['capturePayment']>)(
        payment.intentId as string,
        captureIdempotencyKey(payment),
      );
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      if (error.providerCode && NOT_APPROVED_CODES.has(error.providerCode)) throw paymentNotApproved();
      // Not answered: a webhook answered 503 is delivered again by the provider; the buyer's page may retry.
      if (error.transient) throw paymentProviderUnavailable(error.message);
      if (forBuyer) throw paymentProviderRefused(error.message);
      const refusal = error.message;
      return this.once(
        provider,
        { id: `capture-refused:${payment.intentId}`, type: 'capture', paymentId: payment.intentId },
        (now, found) => this.failed(found, refusal, now),
      );
    }
    const base = { id: `capture:${state.id}`, type: 'capture', paymentId: payment.intentId };
    if (state.status === 'succeeded') {
      return this.succeeded(provider, {
        ...base,
        kind: 'succeeded',
        amount: state.amount,
        currency: state.currency,
        detail: `${state.amount === null ? '?' : formatMoney(state.amount, knownExponent(state.currency))} ${state.currency}`,
      });
    }
    if (state.status === 'failed') {
      return this.once(provider, base, (now, found) => this.failed(found, 'The provider declined the capture.', now));
    }
    // Pending at the provider (a review): its capture webhook completes the order later.
    return { outcome: 'ignored' };
  }

  /**
   * Paid: the order is completed (pending), or, when its hold lapsed, completed again if its
   * tickets can still be taken. Otherwise (sold meanwhile, or the order was cancelled) that
   * transaction is rolled back and a second one marks the order refunded, tells the buyer through
   * the outbox and owes the provider a full refund.
   */
  private async succeeded(provider: PaymentProvider, event: Succeeded): Promise<Handled> {
    try {
      return await this.once(provider, event, async (now, payment) => {
        // What was taken must be what the order says, to the unit, in its currency.
        if (event.amount !== payment.amountMinor || event.currency.toUpperCase() !== payment.currency.toUpperCase()) {
          const expected = `${formatMoney(payment.amountMinor, knownExponent(payment.currency))} ${payment.currency.toUpperCase()}`;
          this.logger.error(
            { orderId: payment.orderId, payment: payment.intentId, provider: provider.name, taken: event.detail, expected },
            'the payment provider took another amount than the order says',
          );
          await this.repository.recordFailure(payment.id, `${provider.name} took ${event.detail} for ${expected}`, now);
          return { outcome: 'amount_mismatch' };
        }
        // First: a payment that succeeded is no longer open, so nothing the completion does cancels it.
        await this.repository.markSucceeded(payment.id, now);
        const completion = await this.orders.completePaid(payment.orderId, now);
        if (completion.kind === 'unfulfillable') throw new NotFulfillable();
        if (completion.kind === 'already_completed') return { outcome: 'already_completed' };
        return { outcome: 'completed', unitsSold: completion.unitsSold, provider: completion.provider };
      });
    } catch (error) {
      if (!(error instanceof NotFulfillable)) throw error;
      return this.once(provider, event, async (now, payment) => {
        await this.orders.refundUnfulfilled(payment.orderId, now);
        await this.repository.scheduleRefund(payment.id, now);
        this.logger.warn(
          { orderId: payment.orderId, payment: payment.intentId },
          'paid after the hold lapsed with nothing left: refunding',
        );
        return { outcome: 'refund_scheduled', owedBy: payment.id };
      });
    }
  }

  /** Declined: recorded on the payment; the order stays pending, so the buyer may try again while the hold lasts. */
  private async failed(payment: Payment, message: string, now: Date): Promise<Handled> {
    await this.repository.recordFailure(payment.id, message, now);
    return { outcome: 'failure_recorded' };
  }

  /**
   * Refunded, here or at the provider: `totalRefunded` is the total so far. In full, the order
   * moves to refunded (its tickets released, the buyer told); in part it stays completed.
   */
  private async refunded(payment: Payment, totalRefunded: number, full: boolean, now: Date): Promise<Handled> {
    const refunded = Math.max(payment.refundedMinor, totalRefunded);
    const inFull = full || refunded >= payment.amountMinor;
    const total = inFull ? Math.max(refunded, payment.amountMinor) : refunded;
    await this.repository.raiseRefunded(payment, total, now);
    if (!inFull) return { outcome: 'partially_refunded' };
    await this.orders.refundPaid(payment.orderId, now);
    return { outcome: 'refunded' };
  }
}
