import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn, VirtualColumn } from 'typeorm';
import { minorUnitsColumn } from '../common/money';

export const TICKET_PROVIDERS = ['rsvp', 'tc'] as const;
export type TicketProvider = (typeof TICKET_PROVIDERS)[number];

/** own: its own capacity; capped: the event's pool, at most `capacity`; global: the whole pool; unlimited. */
export const CAPACITY_MODES = ['own', 'capped', 'global', 'unlimited'] as const;
export type CapacityMode = (typeof CAPACITY_MODES)[number];

function counterQuery(alias: string, count: 'sold' | 'pending'): string {
  return `SELECT COALESCE(MAX(counter.${count}), 0) FROM ticket_capacity_counters counter WHERE counter.ticket_id = ${alias}.id`;
}

/** Both drivers may hand an aggregate back as a string or a bigint-like value. */
const countColumn = { from: (value: unknown) => Number(value ?? 0), to: (value: unknown) => value };

@Entity({ name: 'tickets' })
@Index('IDX_tickets_event', ['eventId', 'menuOrder', 'id'])
@Index('IDX_tickets_status', ['status', 'id'])
@Index('IDX_tickets_provider', ['provider'])
@Index('IDX_tickets_created', ['createdAt'])
@Index('IDX_tickets_name', ['name'])
export class Ticket {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** The event the ticket is for (`post_id`). */
  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'author_id', type: 'int', nullable: true })
  authorId: number | null;

  @Column({ type: 'varchar', length: 20 })
  provider: TicketProvider;

  @Column({ type: 'varchar', length: 20, default: 'publish' })
  status: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** In the currency's minor units (src/common/money.ts); 0 is free. */
  @Column({ name: 'price_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  priceMinor: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  sku: string | null;

  @Column({ type: 'varchar', length: 20, default: 'none' })
  iac: string;

  @Column({ name: 'show_description', type: 'boolean', default: true })
  showDescription: boolean;

  @Column({ name: 'menu_order', type: 'int', default: 0 })
  menuOrder: number;

  @Column({ name: 'sale_start_utc', type: 'datetime', nullable: true })
  saleStartUtc: Date | null;

  @Column({ name: 'sale_end_utc', type: 'datetime', nullable: true })
  saleEndUtc: Date | null;

  @Column({ name: 'capacity_mode', type: 'varchar', length: 10 })
  capacityMode: CapacityMode;

  /** The ticket's own cap: the capacity of `own`, the cap of `capped`; null for `global` and `unlimited`. */
  @Column({ type: 'int', nullable: true })
  capacity: number | null;

  /**
   * Units in completed orders (and RSVP "going" answers), read from the ticket's capacity counter
   * (ticket-capacity-counter.entity.ts says why the counts live there); written only through
   * CapacityService.
   */
  @VirtualColumn({ type: 'int', query: (alias) => counterQuery(alias, 'sold'), transformer: countColumn })
  sold: number;

  /** Units held by pending orders, read from the ticket's capacity counter. */
  @VirtualColumn({ type: 'int', query: (alias) => counterQuery(alias, 'pending'), transformer: countColumn })
  pending: number;

  /** Whether people may join the waitlist once the ticket is sold out (src/waitlist). */
  @Column({ type: 'boolean', default: false })
  waitlist: boolean;

  /** Whether units that come back are offered to the waitlist automatically (else a manager offers them). */
  @Column({ name: 'waitlist_auto_offer', type: 'boolean', default: true })
  waitlistAutoOffer: boolean;

  /** Listed and sold only to buyers with a coupon that `reveals_hidden` (src/coupons). */
  @Column({ name: 'hidden_without_coupon', type: 'boolean', default: false })
  hiddenWithoutCoupon: boolean;

  /** Registration questions (src/attendee-questions), JSON; null when the ticket asks none. */
  @Column({ name: 'attendee_information_fields', type: 'text', nullable: true })
  attendeeInformationFields: string | null;

  @Column({ name: 'published_at', type: 'datetime' })
  publishedAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
