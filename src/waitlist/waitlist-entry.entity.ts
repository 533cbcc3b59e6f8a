import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'purchased', 'expired', 'cancelled'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/**
 * One person waiting for a sold-out ticket. While `offered`, `offer_quantity` units of the ticket
 * are counted as held (`pending`) in its capacity counter for them until `offer_expires_at`; the
 * move out of `offered` (purchased, expired, cancelled) is one conditional UPDATE, so those units
 * are converted or released exactly once.
 */
@Entity({ name: 'waitlist_entries' })
@Index('IDX_waitlist_queue', ['ticketId', 'status', 'priority', 'id'])
@Index('IDX_waitlist_offer_due', ['status', 'offerExpiresAt'])
@Index('UQ_waitlist_live_email', ['ticketId', 'liveEmail'], { unique: true })
@Index('UQ_waitlist_cancel_token', ['cancelToken'], { unique: true })
@Index('UQ_waitlist_offer_token', ['offerToken'], { unique: true })
export class WaitlistEntry {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  /** The ticket's event, for the managers' checks and filters. */
  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 191 })
  email: string;

  /**
   * The normalised email while the entry is waiting or offered, null once it is done: the unique
   * index on (ticket, live_email) lets an address wait once per ticket at a time.
   */
  @Column({ name: 'live_email', type: 'varchar', length: 191, nullable: true })
  liveEmail: string | null;

  /** Units wanted (1–10). */
  @Column({ type: 'int' })
  quantity: number;

  /** Higher goes first; equal priorities keep the order of joining. */
  @Column({ type: 'int', default: 0 })
  priority: number;

  @Column({ type: 'varchar', length: 16 })
  status: WaitlistStatus;

  /** The secret the person leaves the list with. */
  @Column({ name: 'cancel_token', type: 'varchar', length: 64 })
  cancelToken: string;

  /** The secret a checkout redeems the offer with (cart field `waitlist_offer`); null before an offer. */
  @Column({ name: 'offer_token', type: 'varchar', length: 64, nullable: true })
  offerToken: string | null;

  /** Units held for the offer (at most `quantity`). */
  @Column({ name: 'offer_quantity', type: 'int', nullable: true })
  offerQuantity: number | null;

  @Column({ name: 'offered_at', type: 'datetime', precision: 3, nullable: true })
  offeredAt: Date | null;

  @Column({ name: 'offer_expires_at', type: 'datetime', precision: 3, nullable: true })
  offerExpiresAt: Date | null;

  /** The order that redeemed the offer. */
  @Column({ name: 'order_id', type: 'int', nullable: true })
  orderId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
