import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Inject } from '@nestjs/common';
import type Stripe from 'stripe';
import { DataSource, EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { runInTransaction } from '../common/database/transactions';
import { MetricsService } from '../metrics/metrics.service';
import { OrdersService } from '../orders/orders.service';
import type { StripeWebhookResponse, WebhookOutcome } from './dto/stripe-webhook.response';
import { fromProviderAmount, providerCurrency, toProviderAmount } from './payment-amounts';
import { invalidStripeSignature, stripeNotConfigured } from './payment-errors';
import { Payment } from './payment.entity';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { StripePaymentProvider } from './stripe-payment.provider';

/** Thrown inside the completion's transaction to roll it back: the order cannot be completed, its money goes back. */
class NotFulfillable extends Error {}

/** `owedBy`: the payment whose owed call (a refund) the commit scheduled. */
type Handled = { outcome: WebhookOutcome; unitsSold?: number; provider?: string; owedBy?: number };

function intentIdOf(value: string | { id: string } | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Stripe's webhook: the signature is checked with the SDK over the exact bytes received, each event
 * id is processed once (its row is written in the transaction of its effect), and the order moves
 * through OrdersService as a manager's completion or refund would move it, notifications included.
 */
@Injectable()
export class StripeWebhookService {
  private readonly logger = new Logger(StripeWebhookService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly stripe: StripePaymentProvider,
    private readonly payments: PaymentsService,
    private readonly repository: PaymentsRepository,
    private readonly orders: OrdersService,
    private readonly metrics: MetricsService,
  ) {}

  async receive(rawBody: unknown, signature: string | undefined): Promise<StripeWebhookResponse> {
    if (!this.stripe.configured) throw stripeNotConfigured();
    if (!signature) throw invalidStripeSignature('the header is missing');
    if (!Buffer.isBuffer(rawBody) || rawBody.length === 0) throw invalidStripeSignature('the request has no body');
    let event: Stripe.Event;
    try {
      event = this.stripe.verifyWebhook(rawBody, signature);
    } catch (error) {
      throw invalidStripeSignature(error instanceof Error ? error.message : 'verification failed');
    }
    const handled = await this.dispatch(event);
    if (handled.unitsSold && handled.provider) this.metrics.ticketsSold(handled.provider, handled.unitsSold);
    // After the commit: the refund it owes Stripe, for this payment alone. The event is processed
    // whatever happens now: a failure (Stripe not answering, the database busy) leaves the call to
    // the sweep, which retries it with the same idempotency key, and the answer stays 200, for a
    // redelivery would only be a duplicate.
    if (handled.owedBy !== undefined) {
      await this.payments.runDueActions(handled.owedBy).catch((error: unknown) => {
        this.logger.warn({ paymentId: handled.owedBy, err: error }, 'the owed refund is left to the sweep');
      });
    }
    return { received: true, event_id: event.id, type: event.type, outcome: handled.outcome };
  }

  private dispatch(event: Stripe.Event): Promise<Handled> {
    switch (event.type) {
      case 'payment_intent.succeeded':
        return this.succeeded(event, event.data.object);
      case 'payment_intent.payment_failed':
        return this.once(event, (manager, now) => this.failed(manager, event.data.object, now));
      case 'charge.refunded':
        return this.once(event, (manager, now) => this.refunded(manager, event.data.object, now));
      default:
        return this.once(event, () => Promise.resolve({ outcome: 'ignored' }));
    }
  }

  /** Runs `work` in one transaction with the event's row: a second delivery of the event does nothing. */
  private once(event: Stripe.Event, work: (manager: EntityManager, now: Date) => Promise<Handled>): Promise<Handled> {
    const now = this.clock.now();
    return runInTransaction(this.dataSource, async (manager) => {
      if (!(await this.repository.recordEvent(manager, { provider: 'stripe', eventId: event.id, type: event.type }, now))) {
        return { outcome: 'duplicate' };
      }
      return work(manager, now);
    });
  }

  /**
   * Paid: the order is completed (pending), or, when its hold lapsed, completed again if its
   * tickets can still be taken. Otherwise (sold meanwhile, or the order was cancelled) that
   * transaction is rolled back and a second one marks the order refunded, tells the buyer through
   * the outbox and owes Stripe a full refund.
   */
  private async succeeded(event: Stripe.Event, intent: Stripe.PaymentIntent): Promise<Handled> {
    try {
      return await this.once(event, async (manager, now) => {
        const payment = await this.repository.findByIntent(manager, intent.id);
        if (!payment) return { outcome: 'ignored' };
        // In Stripe's units both: what was taken must be what the order says, to the unit.
        const expected = toProviderAmount(payment.amountMinor, payment.currency);
        if (intent.amount_received !== expected || providerCurrency(intent.currency) !== payment.currency) {
          const taken = `${intent.amount_received} ${intent.currency}`;
          this.logger.error(
            { orderId: payment.orderId, intent: intent.id, taken, expected },
            'Stripe took another amount than the order says',
          );
          await this.repository.recordFailure(
            manager,
            payment.id,
            `Stripe took ${taken} (in its units) for ${expected} ${payment.currency}`,
            now,
          );
          return { outcome: 'amount_mismatch' };
        }
        // First: a payment that succeeded is no longer open, so nothing the completion does cancels it.
        await this.repository.markSucceeded(manager, payment.id, now);
        const completion = await this.orders.completePaid(manager, payment.orderId, now);
        if (completion.kind === 'unfulfillable') throw new NotFulfillable();
        if (completion.kind === 'already_completed') return { outcome: 'already_completed' };
        return { outcome: 'completed', unitsSold: completion.unitsSold, provider: completion.provider };
      });
    } catch (error) {
      if (!(error instanceof NotFulfillable)) throw error;
      return this.once(event, async (manager, now) => {
        const payment = (await this.repository.findByIntent(manager, intent.id)) as Payment;
        await this.orders.refundUnfulfilled(manager, payment.orderId, now);
        await this.repository.scheduleRefund(manager, payment.id, now);
        this.logger.warn({ orderId: payment.orderId, intent: intent.id }, 'paid after the hold lapsed with nothing left: refunding');
        return { outcome: 'refund_scheduled', owedBy: payment.id };
      });
    }
  }

  /** Declined: recorded on the payment; the order stays pending, so the buyer may try again while the hold lasts. */
  private async failed(manager: EntityManager, intent: Stripe.PaymentIntent, now: Date): Promise<Handled> {
    const payment = await this.repository.findByIntent(manager, intent.id);
    if (!payment) return { outcome: 'ignored' };
    const message = intent.last_payment_error?.message ?? intent.last_payment_error?.code ?? 'The payment failed.';
    await this.repository.recordFailure(manager, payment.id, message, now);
    return { outcome: 'failure_recorded' };
  }

  /**
   * Refunded, here or in Stripe's dashboard: the charge carries the total refunded so far. In full,
   * the order moves to refunded (its tickets released, the buyer told); in part it stays completed.
   */
  private async refunded(manager: EntityManager, charge: Stripe.Charge, now: Date): Promise<Handled> {
    const intentId = intentIdOf(charge.payment_intent);
    const payment = intentId ? await this.repository.findByIntent(manager, intentId) : null;
    if (!payment) return { outcome: 'ignored' };
    const refunded = Math.max(payment.refundedMinor, fromProviderAmount(charge.amount_refunded, payment.currency));
    const full = charge.refunded || refunded >= payment.amountMinor;
    const total = full ? Math.max(refunded, payment.amountMinor) : refunded;
    await this.repository.raiseRefunded(manager, payment, total, now);
    if (!full) return { outcome: 'partially_refunded' };
    await this.orders.refundPaid(manager, payment.orderId, now);
    return { outcome: 'refunded' };
  }
}
