import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { AttendeeResponse } from '../../attendees/dto/attendee.response';
import { OrderPaymentResponse } from '../../payments/dto/order-payment.response';
import { ORDER_STATUSES, type OrderStatus, PAYMENT_METHODS, type PaymentMethod } from '../order.entity';

@ApiSchema({ name: 'Purchaser' })
export class Purchaser {
  @ApiProperty() name: string;
  @ApiProperty() email: string;
}

/** The order (decisions.md "Checkout request"), keys in this order. */
@ApiSchema({ name: 'Order' })
export class OrderResponse {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
  @ApiProperty({
    example: '50.00',
    description: 'Exact decimal with the currency\'s decimals ("4500" JPY, "45.00" EUR, "4.500" KWD): what the buyer is charged',
  })
  total: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({
    enum: PAYMENT_METHODS,
    description: 'How it was paid: online (web checkout), or cash, card_terminal or free for sales at the door (POST /checkin/sell)',
  })
  payment_method: PaymentMethod;
  @ApiProperty({ type: Purchaser }) purchaser: Purchaser;
  @ApiProperty({ type: [AttendeeResponse], description: 'One attendee per unit, with the manager fields (email, security_code...)' })
  attendees: AttendeeResponse[];
  @ApiProperty({ description: 'Creation date, site time zone (YYYY-MM-DD HH:MM:SS)' }) created: string;
  @ApiPropertyOptional({ description: 'Pending orders: when the hold on capacity lapses, site time zone' }) expires?: string;
  @ApiPropertyOptional({ description: 'Orders placed with a coupon: its code' }) coupon?: string;
  @ApiPropertyOptional({
    description: "Orders placed with a coupon: what it took off the total (exact decimal, the currency's decimals)",
    example: '5.00',
  })
  discount?: string;
  @ApiPropertyOptional({ type: OrderPaymentResponse, description: 'Orders paid through a provider (docs/payments.md)' })
  payment?: OrderPaymentResponse;
}

@ApiSchema({ name: 'OrderList' })
export class OrderListResponse {
  @ApiProperty() rest_url: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [OrderResponse] }) orders: OrderResponse[];
}
