import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DISCOUNT_TYPES, type DiscountType } from '../coupon-discount';

/** A coupon as its managers see it. */
@ApiSchema({ name: 'Coupon' })
export class CouponResponse {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'EARLYBIRD' }) code: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The event; null: every event of its author' }) post_id: number | null;
  @ApiProperty({ description: 'Author (user id) of the coupon' }) author: string;
  @ApiProperty({ type: [Number], description: 'Tickets it applies to; []: all in scope' }) ticket_ids: number[];
  @ApiProperty({ enum: DISCOUNT_TYPES }) discount_type: DiscountType;
  @ApiProperty({
    example: '10',
    description: 'percent: "12.5"; flat: off each ticket, with the currency\'s decimals ("5.00", "500" yen); none: "0"',
  })
  amount: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Ticket units it may be used for; null: no limit' }) max_uses: number | null;
  @ApiProperty({ description: 'Ticket units used by pending and completed orders (read-only)' }) uses: number;
  @ApiProperty({ description: 'Site time zone; "" when open' }) starts_at: string;
  @ApiProperty({ description: 'Site time zone, exclusive; "" when open' }) ends_at: string;
  @ApiProperty() reveals_hidden: boolean;
  @ApiProperty() rest_url: string;
}

@ApiSchema({ name: 'CouponList' })
export class CouponListResponse {
  @ApiProperty() rest_url: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [CouponResponse] }) coupons: CouponResponse[];
}

/** The coupon as a cart, an order or an attendee shows it. */
@ApiSchema({ name: 'AppliedCoupon' })
export class AppliedCoupon {
  @ApiProperty() code: string;
  @ApiProperty({ enum: DISCOUNT_TYPES }) discount_type: DiscountType;
  @ApiProperty({ example: '10' }) amount: string;
}
