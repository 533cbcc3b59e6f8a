import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * What a row asks the worker to do: `event` rows are the notifications written with the change
 * that caused them; the worker turns each into `email` and `webhook` rows, one per recipient or
 * endpoint, which it then delivers (and retries) one by one.
 */
export const OUTBOX_CHANNELS = ['event', 'email', 'webhook', 'purge'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

export const OUTBOX_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

@Entity({ name: 'outbox_messages' })
@Index('IDX_outbox_due', ['status', 'nextAttemptAt'])
@Index('IDX_outbox_endpoint', ['endpointId', 'id'])
@Index('IDX_outbox_created', ['createdAt'])
export class OutboxMessage {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  channel: OutboxChannel;

  /** `event` and `webhook`: the event type (`order.placed`); `email`: the template (`order-confirmation`). */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** JSON: the event's data (ids and statuses at the time of the change). */
  @Column({ type: 'text' })
  payload: string;

  /** `email`: the recipient's address. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  recipient: string | null;

  /** `webhook`: the endpoint it goes to. */
  @Column({ name: 'endpoint_id', type: 'int', nullable: true })
  endpointId: number | null;

  /** `webhook`: the Standard Webhooks `webhook-id`, the same for every attempt and redelivery, for deduplication. */
  @Column({ name: 'message_id', type: 'varchar', length: 64, nullable: true })
  messageId: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: OutboxStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  /**
   * When the row may next be claimed. A worker that claims it moves this past the time its
   * attempt may take (the lease), so a worker that dies mid-attempt leaves it to be claimed again.
   */
  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt: Date;

  /** The claim of the attempt under way: only that worker may record its outcome. */
  @Column({ name: 'claim_token', type: 'varchar', length: 36, nullable: true })
  claimToken: string | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  /** `webhook`: the HTTP status of the last answer. */
  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'delivered_at', type: 'datetime', precision: 3, nullable: true })
  deliveredAt: Date | null;
}
