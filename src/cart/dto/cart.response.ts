import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { AppliedCoupon } from '../../coupons/dto/coupon.response';

/** A cart line as the original shows it: `optout` is 0 or 1. */
@ApiSchema({ name: 'CartTicket' })
export class CartTicket {
  @ApiProperty() ticket_id: number;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'Event id of the ticket' }) post_id: number;
  @ApiProperty({ enum: [0, 1] }) optout: 0 | 1;
  @ApiProperty({ example: 'none' }) iac: string;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
  @ApiPropertyOptional({ description: 'With a coupon: the unit price before it', example: '25.00' }) price?: string;
  @ApiPropertyOptional({ description: 'With a coupon: what it takes off each unit', example: '2.50' }) discount?: string;
  @ApiPropertyOptional({ description: 'With a coupon: the unit price after it', example: '22.50' }) discounted_price?: string;
}

/** The registration answers stored for a cart line. */
@ApiSchema({ name: 'CartMeta' })
export class CartMeta {
  @ApiProperty() ticket_id: number;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) items: unknown[];
}

/** The cart, as the original shows it, keys in the recorded order. */
@ApiSchema({ name: 'Cart' })
export class CartResponse {
  @ApiProperty({ type: [CartTicket] }) tickets: CartTicket[];
  @ApiProperty({ type: [CartMeta] }) meta: CartMeta[];
  @ApiProperty({ description: "The cart's URL; '' unless the cart holds tickets and post_id was given" }) cart_url: string;
  @ApiProperty({ description: "Where to check out; '' unless the cart holds tickets and post_id was given" }) checkout_url: string;
  @ApiPropertyOptional({ type: AppliedCoupon, description: 'The coupon entered, when there is one' }) coupon?: AppliedCoupon;
}
