import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { minorUnitsColumn } from '../common/money';

/**
 * Where a provider payment stands. `requires_payment`: the intent waits for the buyer;
 * `unavailable`: the provider could not be reached at checkout (a retry creates the intent);
 * `failed`: the last attempt was declined (the buyer may try again while the hold lasts);
 * `succeeded`, `partially_refunded`, `refunded`; `canceled`: the intent was cancelled (the order
 * ended unpaid, or a manager completed it by hand).
 */
export const PAYMENT_STATUSES = [
  'requires_payment',
  'unavailable',
  'failed',
  'succeeded',
  'partially_refunded',
  'refunded',
  'canceled',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Calls to the provider owed after a commit, retried until the provider answers: cancel the intent, refund it in full. */
export type PaymentAction = 'cancel' | 'refund';

/** The payment of one order through a provider (not written for `manual`). Amounts in minor units. */
@Entity({ name: 'payments' })
@Index('UQ_payments_order', ['orderId'], { unique: true })
@Index('UQ_payments_intent', ['intentId'], { unique: true })
@Index('IDX_payments_action_due', ['pendingAction', 'nextActionAt'])
export class Payment {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'order_id', type: 'int' })
  orderId: number;

  @Column({ type: 'varchar', length: 20 })
  provider: string;

  /**
   * A random part of the payment's idempotency keys at its provider: order ids start again with a
   * new database, and two deployments may share a provider account, so the order id alone could
   * name another deployment's payment. Null for payments made before it existed (their keys keep
   * the second they were placed in).
   */
  @Column({ name: 'key_nonce', type: 'varchar', length: 24, nullable: true })
  keyNonce: string | null;

  /** The PaymentIntent, once created. */
  @Column({ name: 'intent_id', type: 'varchar', length: 255, nullable: true })
  intentId: string | null;

  /** What the buyer's browser confirms the intent with (Stripe.js); shown to the buyer only. */
  @Column({ name: 'client_secret', type: 'varchar', length: 255, nullable: true })
  clientSecret: string | null;

  @Column({ name: 'amount_minor', type: 'bigint', transformer: minorUnitsColumn })
  amountMinor: number;

  /** ISO 4217, lower case as Stripe writes it. */
  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 32 })
  status: PaymentStatus;

  @Column({ name: 'refunded_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  refundedMinor: number;

  @Column({ name: 'failure_message', type: 'varchar', length: 500, nullable: true })
  failureMessage: string | null;

  @Column({ name: 'pending_action', type: 'varchar', length: 16, nullable: true })
  pendingAction: PaymentAction | null;

  @Column({ name: 'action_attempts', type: 'int', default: 0 })
  actionAttempts: number;

  @Column({ name: 'next_action_at', type: 'datetime', precision: 3, nullable: true })
  nextActionAt: Date | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

/** A refund the provider accepted, by its id: refunds seen twice (answer and webhook) count once. */
@Entity({ name: 'payment_refunds' })
@Index('IDX_payment_refunds_payment', ['paymentId'])
export class PaymentRefund {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ name: 'payment_id', type: 'int' })
  paymentId: number;

  @Column({ name: 'amount_minor', type: 'bigint', transformer: minorUnitsColumn })
  amountMinor: number;

  @Column({ type: 'varchar', length: 32 })
  status: string;

  /** `manager` (POST /orders/{id}/refund) or `late_payment` (paid after the hold lapsed, nothing left). */
  @Column({ type: 'varchar', length: 32 })
  reason: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}

/** A provider webhook event already processed: its primary key makes a second delivery a no-op. */
@Entity({ name: 'payment_provider_events' })
@Index('IDX_payment_provider_events_received', ['receivedAt'])
export class PaymentProviderEvent {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  provider: string;

  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 255 })
  eventId: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ name: 'received_at', type: 'datetime', precision: 3 })
  receivedAt: Date;
}
