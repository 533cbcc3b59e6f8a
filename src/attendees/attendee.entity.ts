import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { minorUnitsColumn } from '../common/money';

@Entity({ name: 'attendees' })
@Index('UQ_attendees_security_code', ['securityCode'], { unique: true })
@Index('UQ_attendees_checkin_secret', ['checkinSecret'], { unique: true })
@Index('IDX_attendees_event_updated', ['eventId', 'updatedAt', 'id'])
@Index('IDX_attendees_ticket', ['ticketId', 'checkedIn'])
@Index('IDX_attendees_event', ['eventId', 'id'])
@Index('IDX_attendees_order', ['orderId'])
@Index('IDX_attendees_order_status', ['orderStatus', 'id'])
@Index('IDX_attendees_user', ['userId'])
@Index('IDX_attendees_created', ['createdAt'])
export class Attendee {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'order_id', type: 'int' })
  orderId: number;

  @Column({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  /** The ticket's event (`post_id`), kept here so that lists filter without a join. */
  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  /** The buyer when signed in. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 20 })
  provider: string;

  @Column({ type: 'varchar', length: 20, default: 'publish' })
  status: string;

  /** The order's status (pending, completed, cancelled, refunded, expired); RSVP answers: yes / no. */
  @Column({ name: 'order_status', type: 'varchar', length: 20 })
  orderStatus: string;

  /** RSVP only: going (true) or not (false). */
  @Column({ name: 'rsvp_going', type: 'boolean', nullable: true })
  rsvpGoing: boolean | null;

  @Column({ name: 'holder_name', type: 'varchar', length: 255 })
  holderName: string;

  @Column({ name: 'holder_email', type: 'varchar', length: 255 })
  holderEmail: string;

  /** Unguessable code printed as a QR code on the ticket; checks the attendee in. */
  @Column({ name: 'security_code', type: 'varchar', length: 64 })
  securityCode: string;

  /**
   * What the QR code holds and the door redeems (src/checkin/): 160 random bits, unique, never shown
   * to the public. Null only between an insert by a writer that sets none and the database trigger
   * that fills it in.
   */
  @Column({ name: 'checkin_secret', type: 'varchar', length: 64, nullable: true })
  checkinSecret: string | null;

  /** When the secret stopped admitting anyone (the order cancelled, refunded or expired). */
  @Column({ name: 'checkin_revoked_at', type: 'datetime', precision: 3, nullable: true })
  checkinRevokedAt: Date | null;

  /** A manager blocked this attendee at the door. */
  @Column({ name: 'checkin_blocked', type: 'boolean', default: false })
  checkinBlocked: boolean;

  /** What this unit cost after its coupon, in minor units (src/common/money.ts). */
  @Column({ name: 'price_paid_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  pricePaidMinor: number;

  /** Hidden from public attendee lists at the buyer's request. */
  @Column({ type: 'boolean', default: false })
  optout: boolean;

  /** Registration answers, JSON. */
  @Column({ type: 'text', nullable: true })
  meta: string | null;

  @Column({ name: 'checked_in', type: 'boolean', default: false })
  checkedIn: boolean;

  @Column({ name: 'checked_in_at', type: 'datetime', nullable: true })
  checkedInAt: Date | null;

  /** Where the check-in came from: `site` (the API) or `app` (a QR scan). */
  @Column({ name: 'checkin_source', type: 'varchar', length: 20, nullable: true })
  checkinSource: string | null;

  @Column({ name: 'checkin_user_id', type: 'int', nullable: true })
  checkinUserId: number | null;

  /** The coupon this unit was bought with (src/coupons), and what it took off the price. */
  @Column({ name: 'coupon_code', type: 'varchar', length: 64, nullable: true })
  couponCode: string | null;

  @Column({ name: 'discount_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  discountMinor: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
