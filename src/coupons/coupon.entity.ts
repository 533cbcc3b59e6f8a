import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { minorUnitsColumn } from '../common/money';
import type { DiscountType } from './coupon-discount';

/** A coupon or access code (docs/coupons.md). */
@Entity({ name: 'coupons' })
@Index('UQ_coupons_code_key', ['codeKey'], { unique: true })
@Index('IDX_coupons_author', ['authorId', 'id'])
@Index('IDX_coupons_event', ['eventId', 'id'])
export class Coupon {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** The code as its manager wrote it. */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  /** The code lower-cased: codes are unique without regard to case. */
  @Column({ name: 'code_key', type: 'varchar', length: 64 })
  codeKey: string;

  /** Who made it; a coupon without an event applies to all of this author's events. */
  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ name: 'event_id', type: 'int', nullable: true })
  eventId: number | null;

  /** JSON list of ticket ids; null or [] means every ticket in scope. */
  @Column({ name: 'ticket_ids', type: 'text', nullable: true })
  ticketIds: string | null;

  @Column({ name: 'discount_type', type: 'varchar', length: 10 })
  discountType: DiscountType;

  /** percent: basis points; flat: minor units of the currency (src/common/money.ts); none: 0. */
  @Column({ type: 'bigint', default: 0, transformer: minorUnitsColumn })
  amount: number;

  /** Ticket units the code may be used for; null: no limit. */
  @Column({ name: 'max_uses', type: 'int', nullable: true })
  maxUses: number | null;

  /** Ticket units taken by pending and completed orders. */
  @Column({ type: 'int', default: 0 })
  uses: number;

  @Column({ name: 'starts_at', type: 'datetime', nullable: true })
  startsAt: Date | null;

  /** Exclusive: the code works until this instant. */
  @Column({ name: 'ends_at', type: 'datetime', nullable: true })
  endsAt: Date | null;

  /** Whether the code lists and sells tickets flagged `hidden_without_coupon`. */
  @Column({ name: 'reveals_hidden', type: 'boolean', default: false })
  revealsHidden: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

/** The ticket ids of a coupon's JSON column. */
export function couponTicketIds(coupon: Pick<Coupon, 'ticketIds'>): number[] {
  if (!coupon.ticketIds) return [];
  try {
    const parsed: unknown = JSON.parse(coupon.ticketIds);
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}
