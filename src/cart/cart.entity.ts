import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A buyer's cart: the signed-in user's, or an anonymous buyer's identified by a token. */
@Entity({ name: 'carts' })
@Index('UQ_carts_user', ['userId'], { unique: true })
@Index('UQ_carts_token', ['token'], { unique: true })
@Index('IDX_carts_updated', ['updatedAt'])
export class Cart {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  token: string | null;

  /** Cart-wide registration meta, JSON. */
  @Column({ type: 'text', nullable: true })
  meta: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** The coupon the buyer entered (src/coupons), checked again at checkout. */
  @Column({ name: 'coupon_id', type: 'int', nullable: true })
  couponId: number | null;

  /** Last write; carts idle for 24 hours are expired. */
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

@Entity({ name: 'cart_items' })
@Index('IDX_cart_items_ticket', ['ticketId'])
export class CartItem {
  @PrimaryColumn({ name: 'cart_id', type: 'int' })
  cartId: number;

  @PrimaryColumn({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  @Column({ type: 'varchar', length: 20 })
  provider: string;

  @Column({ type: 'int' })
  quantity: number;

  @Column({ type: 'boolean', default: false })
  optout: boolean;

  /** Per-ticket registration meta stored for the attendees, JSON. */
  @Column({ type: 'text', nullable: true })
  meta: string | null;

  /** The waitlist offer (its token) whose held units this line redeems at checkout (src/waitlist). */
  @Column({ name: 'waitlist_offer', type: 'varchar', length: 64, nullable: true })
  waitlistOffer: string | null;
}
