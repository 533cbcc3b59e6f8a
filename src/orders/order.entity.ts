import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { minorUnitsColumn } from '../common/money';

export const ORDER_STATUSES = ['pending', 'completed', 'cancelled', 'refunded', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** How an order was paid: `online` through the web checkout, the others at the door (POST /checkin/sell). */
export const PAYMENT_METHODS = ['online', 'cash', 'card_terminal', 'free'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The methods a walk-in sale may record. */
export const DOOR_PAYMENT_METHODS = ['cash', 'card_terminal', 'free'] as const;
export type DoorPaymentMethod = (typeof DOOR_PAYMENT_METHODS)[number];

@Entity({ name: 'orders' })
@Index('IDX_orders_status_expires', ['status', 'expiresAt'])
@Index('IDX_orders_user', ['userId', 'id'])
@Index('IDX_orders_cart_token', ['cartToken', 'id'])
export class Order {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 20 })
  provider: string;

  @Column({ type: 'varchar', length: 20 })
  status: OrderStatus;

  /** The buyer when signed in. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  /** The anonymous buyer's cart token, which lets them read their own orders. */
  @Column({ name: 'cart_token', type: 'varchar', length: 64, nullable: true })
  cartToken: string | null;

  @Column({ name: 'purchaser_name', type: 'varchar', length: 255 })
  purchaserName: string;

  @Column({ name: 'purchaser_email', type: 'varchar', length: 255 })
  purchaserEmail: string;

  /** What the order charges, in minor units of `currency` (src/common/money.ts): the sum of its units' prices. */
  @Column({ name: 'total_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  totalMinor: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** How it was paid (migration WalkInSales): `online` for the web checkout, else the door's method. */
  @Column({ name: 'payment_method', type: 'varchar', length: 20, default: 'online' })
  paymentMethod: PaymentMethod;

  /** When a pending order's hold on capacity lapses. */
  @Column({ name: 'expires_at', type: 'datetime', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'completed_at', type: 'datetime', nullable: true })
  completedAt: Date | null;

  /** The coupon used (src/coupons); its code is kept even if the coupon is deleted later. */
  @Column({ name: 'coupon_id', type: 'int', nullable: true })
  couponId: number | null;

  @Column({ name: 'coupon_code', type: 'varchar', length: 64, nullable: true })
  couponCode: string | null;

  /** Ticket units that took a use of the coupon: given back when the order is cancelled or expires. */
  @Column({ name: 'coupon_uses', type: 'int', default: 0 })
  couponUses: number;

  /** What the coupon took off the total, in minor units. */
  @Column({ name: 'discount_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  discountMinor: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

@Entity({ name: 'order_items' })
@Index('IDX_order_items_ticket', ['ticketId'])
export class OrderItem {
  @PrimaryColumn({ name: 'order_id', type: 'int' })
  orderId: number;

  @PrimaryColumn({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  @Column({ type: 'int' })
  quantity: number;

  /** What each unit of the line cost after the coupon, in minor units. */
  @Column({ name: 'unit_price_minor', type: 'bigint', default: 0, transformer: minorUnitsColumn })
  unitPriceMinor: number;
}
