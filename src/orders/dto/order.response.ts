import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { AttendeeResponseDoc } from '../../attendees/dto/attendee.response';
import { ORDER_STATUSES } from '../order.entity';

@ApiSchema({ name: 'Purchaser' })
export class PurchaserDoc {
  @ApiProperty() name: string;
  @ApiProperty() email: string;
}

/** The order (decisions.md "Checkout request"; OpenAPI view of `OrderResponse` in orders.mapper.ts). */
@ApiSchema({ name: 'Order' })
export class OrderResponseDoc {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ORDER_STATUSES }) status: string;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
  @ApiProperty({ example: '50.00', description: 'Exact decimal' }) total: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: PurchaserDoc }) purchaser: PurchaserDoc;
  @ApiProperty({ type: [AttendeeResponseDoc], description: 'One attendee per unit, with the manager fields (email, security_code...)' })
  attendees: AttendeeResponseDoc[];
  @ApiProperty({ description: 'Creation date, site time zone (YYYY-MM-DD HH:MM:SS)' }) created: string;
  @ApiPropertyOptional({ description: 'Pending orders: when the hold on capacity lapses, site time zone' }) expires?: string;
}

@ApiSchema({ name: 'OrderList' })
export class OrderListResponse {
  @ApiProperty() rest_url: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [OrderResponseDoc] }) orders: OrderResponseDoc[];
}
