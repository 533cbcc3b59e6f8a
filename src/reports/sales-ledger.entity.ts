import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Counts every sales row carries: units and amounts (minor units) sold, refunded, cancelled, check-ins,
 * and of the units sold those bought with a coupon and what the coupons took off them. The amount
 * columns are named `*_cents` from before other currencies than two-decimal ones: they hold the
 * currency's minor units (yen for JPY, fils for KWD; migration MoneyInMinorUnits).
 */
export const SALES_MEASURES = [
  'sold_units',
  'sold_cents',
  'refunded_units',
  'refunded_cents',
  'cancelled_units',
  'cancelled_cents',
  'checked_in',
  'coupon_units',
  'discount_cents',
] as const;
export type SalesMeasure = (typeof SALES_MEASURES)[number];
export type SalesCounts = Record<SalesMeasure, number>;

const bigintNumber = { from: (value: unknown) => Number(value ?? 0), to: (value: unknown) => value };

/** The SALES_MEASURES columns, shared by the ledger and its daily sums. */
export abstract class SalesMeasureColumns {
  @Column({ name: 'sold_units', type: 'int', default: 0 })
  soldUnits: number;

  @Column({ name: 'sold_cents', type: 'bigint', default: 0, transformer: bigintNumber })
  soldCents: number;

  @Column({ name: 'refunded_units', type: 'int', default: 0 })
  refundedUnits: number;

  @Column({ name: 'refunded_cents', type: 'bigint', default: 0, transformer: bigintNumber })
  refundedCents: number;

  @Column({ name: 'cancelled_units', type: 'int', default: 0 })
  cancelledUnits: number;

  @Column({ name: 'cancelled_cents', type: 'bigint', default: 0, transformer: bigintNumber })
  cancelledCents: number;

  @Column({ name: 'checked_in', type: 'int', default: 0 })
  checkedIn: number;

  /** Units sold with a coupon (migration CouponSales). */
  @Column({ name: 'coupon_units', type: 'int', default: 0 })
  couponUnits: number;

  /** What coupons took off the units sold, minor units. */
  @Column({ name: 'discount_cents', type: 'bigint', default: 0, transformer: bigintNumber })
  discountCents: number;
}

/**
 * One change of an event's sales on a UTC day (a sale, a refund, a check-in, or a folded sum of
 * several), written by database triggers in the writing transaction; the migration SalesLedger says
 * why. Folded into SalesDaily by SalesLedger.
 */
@Entity({ name: 'sales_ledger' })
@Index('IDX_sales_ledger_event_day', ['eventId', 'day'])
export class SalesLedgerEntry extends SalesMeasureColumns {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  /** UTC day, `YYYY-MM-DD`. */
  @Column({ type: 'varchar', length: 10 })
  day: string;
}

/** The folded sales of one ticket on one UTC day. */
@Entity({ name: 'sales_daily' })
@Index('IDX_sales_daily_event_day', ['eventId', 'day'])
export class SalesDaily extends SalesMeasureColumns {
  @PrimaryColumn({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  @PrimaryColumn({ type: 'varchar', length: 10 })
  day: string;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;
}
