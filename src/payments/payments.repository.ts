import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { KeptInserts } from '../common/database/kept-statements';
import { isUniqueViolation } from '../common/database/transactions';
import { Order } from '../orders/order.entity';
import { Payment, PaymentAction, PaymentProviderEvent, PaymentRefund, PaymentStatus } from './payment.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** Payments still waiting for the buyer: the ones an ended order cancels. */
const OPEN_STATUSES: PaymentStatus[] = ['requires_payment', 'unavailable', 'failed'];

/** Every statement of the payments module. */
@Injectable()
export class PaymentsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The checkout's INSERT: its SQL written once per shape. */
  private readonly inserts = new KeptInserts();

  /** The checkout's payment row (held with the checkout's other writes while its transaction holds them). */
  async insert(row: Omit<Payment, 'id' | 'updatedAt'>): Promise<void> {
    const manager = this.tx.manager;
    await this.inserts.insert(manager, Payment, [{ ...row, updatedAt: row.createdAt }]);
  }

  /** The order a checkout answer names, as stored (its status and hold may have moved since). */
  findOrder(orderId: number): Promise<Order | null> {
    return this.tx.manager.findOne(Order, { where: { id: orderId } });
  }

  findByOrder(orderId: number): Promise<Payment | null> {
    const manager = this.tx.manager;
    return manager.findOne(Payment, { where: { orderId } });
  }

  findByIntent(intentId: string): Promise<Payment | null> {
    const manager = this.tx.manager;
    return manager.findOne(Payment, { where: { intentId } });
  }

  /** The payment with this provider id, outside any transaction. */
  findByProviderId(intentId: string): Promise<Payment | null> {
    return this.tx.manager.findOne(Payment, { where: { intentId } });
  }

  /** Stores the intent once: a concurrent start of the same payment got the same intent (same idempotency key). */
  async setIntent(paymentId: number, intentId: string, clientSecret: string, now: Date): Promise<void> {
    await this.tx.dataSource
      .createQueryBuilder()
      .update(Payment)
      .set({ intentId, clientSecret, status: 'requires_payment', failureMessage: null, updatedAt: now })
      .where('id = :paymentId AND intent_id IS NULL', { paymentId })
      .execute();
  }

  async recordStartFailure(paymentId: number, message: string, now: Date): Promise<void> {
    await this.tx.dataSource
      .createQueryBuilder()
      .update(Payment)
      .set({ failureMessage: message.slice(0, 500), updatedAt: now })
      .where('id = :paymentId AND intent_id IS NULL', { paymentId })
      .execute();
  }

  /** The order ended unpaid: an open payment is canceled, and its intent (if any) cancelled at the provider after the commit. */
  async cancelOpen(orderId: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Payment)
      .set({
        status: 'canceled',
        pendingAction: () => "CASE WHEN intent_id IS NULL THEN NULL ELSE 'cancel' END",
        actionAttempts: 0,
        nextActionAt: now,
        updatedAt: now,
      })
      .where('order_id = :orderId AND status IN (:...open)', { orderId, open: OPEN_STATUSES })
      .execute();
  }

  /** The buyer paid: whatever was owed to the provider for this payment (a cancel) is dropped. */
  async markSucceeded(paymentId: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Payment)
      .set({ status: 'succeeded', failureMessage: null, pendingAction: null, nextActionAt: null, updatedAt: now })
      .where('id = :paymentId AND status IN (:...unpaid)', { paymentId, unpaid: [...OPEN_STATUSES, 'canceled'] })
      .execute();
  }

  /** Paid, but nothing to sell: a full refund is owed, made after the commit and retried until Stripe takes it. */
  async scheduleRefund(paymentId: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Payment)
      .set({ status: 'succeeded', failureMessage: null, pendingAction: 'refund', actionAttempts: 0, nextActionAt: now, updatedAt: now })
      .where('id = :paymentId AND status IN (:...unrefunded)', { paymentId, unrefunded: [...OPEN_STATUSES, 'canceled', 'succeeded'] })
      .execute();
  }

  /** The provider cancelled an open payment: it can no longer be paid. */
  async markCanceled(paymentId: number, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Payment)
      .set({ status: 'canceled', updatedAt: now })
      .where('id = :paymentId AND status IN (:...open)', { paymentId, open: OPEN_STATUSES })
      .execute();
    return Boolean(result.affected);
  }

  async recordFailure(paymentId: number, message: string, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Payment)
      .set({ status: 'failed', failureMessage: message.slice(0, 500), updatedAt: now })
      .where('id = :paymentId AND status IN (:...open)', { paymentId, open: OPEN_STATUSES })
      .execute();
    return Boolean(result.affected);
  }

  /** Raises the refunded amount (never lowers it: the answer of a refund and Stripe's webhook may come in either order). */
  async raiseRefunded(payment: Payment, refundedMinor: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    const status: PaymentStatus = refundedMinor >= payment.amountMinor ? 'refunded' : 'partially_refunded';
    await manager
      .createQueryBuilder()
      .update(Payment)
      .set({
        refundedMinor,
        status,
        updatedAt: now,
        ...(status === 'refunded' ? { pendingAction: null, nextActionAt: null } : {}),
      })
      .where('id = :paymentId AND refunded_minor < :refundedMinor', { paymentId: payment.id, refundedMinor })
      .execute();
  }

  /** Records an accepted refund once; the total of the payment's known refunds. */
  async addRefund(refund: PaymentRefund): Promise<number> {
    const manager = this.tx.manager;
    const known = await manager.findOne(PaymentRefund, { where: { id: refund.id } });
    if (!known) await manager.insert(PaymentRefund, refund);
    const row = await manager
      .createQueryBuilder(PaymentRefund, 'refund')
      .select('COALESCE(SUM(refund.amountMinor), 0)', 'total')
      .where('refund.paymentId = :paymentId', { paymentId: refund.paymentId })
      .getRawOne<{ total: number | string }>();
    return Number(row?.total ?? 0);
  }

  /**
   * Marks a provider event processed, in the transaction of its effect; false when it was
   * processed before (the primary key refuses it again; a concurrent second delivery waits for the
   * first's commit, then is refused).
   */
  async recordEvent(event: Omit<PaymentProviderEvent, 'receivedAt'>, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    try {
      await manager.insert(PaymentProviderEvent, { ...event, receivedAt: now });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Whether a provider event was processed already (outside a transaction: a hint, recordEvent decides). */
  async eventRecorded(provider: string, eventId: string): Promise<boolean> {
    return (await this.tx.manager.count(PaymentProviderEvent, { where: { provider, eventId } })) > 0;
  }

  /** Payments with a provider call owed now, oldest first. */
  dueActions(now: Date, limit: number, paymentId?: number): Promise<Payment[]> {
    return this.tx.manager.find(Payment, {
      where: { pendingAction: Not(IsNull()), nextActionAt: LessThanOrEqual(now), ...(paymentId === undefined ? {} : { id: paymentId }) },
      order: { nextActionAt: 'ASC' },
      take: limit,
    });
  }

  /**
   * Claims a due action for one caller: the attempt count moves only if nobody else moved it, and
   * the next attempt is pushed out so that another instance does not run it meanwhile.
   */
  async claimAction(payment: Payment, next: Date): Promise<boolean> {
    const result = await this.tx.dataSource
      .createQueryBuilder()
      .update(Payment)
      .set({ actionAttempts: payment.actionAttempts + 1, nextActionAt: next })
      .where('id = :id AND pending_action = :action AND action_attempts = :attempts', {
        id: payment.id,
        action: payment.pendingAction,
        attempts: payment.actionAttempts,
      })
      .execute();
    return Boolean(result.affected);
  }

  async finishAction(paymentId: number, action: PaymentAction, error: string | null, now: Date): Promise<void> {
    await this.tx.dataSource
      .createQueryBuilder()
      .update(Payment)
      .set({ pendingAction: null, nextActionAt: null, lastError: error?.slice(0, 1000) ?? null, updatedAt: now })
      .where('id = :paymentId AND pending_action = :action', { paymentId, action })
      .execute();
  }

  async purgeEvents(before: Date): Promise<void> {
    await this.tx.dataSource.createQueryBuilder().delete().from(PaymentProviderEvent).where('received_at < :before', { before }).execute();
  }

  /** The payments of a page of orders. */
  paymentsOf(orderIds: number[]): Promise<Payment[]> {
    return this.tx.manager.find(Payment, { where: { orderId: In(orderIds) } });
  }

  async noteActionError(paymentId: number, error: string): Promise<void> {
    await this.tx.dataSource
      .createQueryBuilder()
      .update(Payment)
      .set({ lastError: error.slice(0, 1000) })
      .where('id = :paymentId', { paymentId })
      .execute();
  }
}
