import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DOOR_PAYMENT_METHODS, type DoorPaymentMethod, ORDER_STATUSES, type OrderStatus } from '../../orders/order.entity';

/** A ticket door staff may sell now (GET /checkin-lists/{id}/sale-tickets). */
@ApiSchema({ name: 'SaleTicket' })
export class SaleTicketResponse {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty({ example: '30.00', description: "Unit price, exact decimal with the currency's decimals" }) price: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Units left now; null: unlimited' }) available: number | null;
}

@ApiSchema({ name: 'SaleTicketList' })
export class SaleTicketList {
  @ApiProperty({ type: [SaleTicketResponse] }) tickets: SaleTicketResponse[];
}

@ApiSchema({ name: 'DoorSaleOrder' })
export class DoorSaleOrderResponse {
  @ApiProperty() id: number;
  @ApiProperty({ example: '60.00', description: "What was taken, exact decimal with the currency's decimals" }) total: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ enum: DOOR_PAYMENT_METHODS }) payment_method: DoorPaymentMethod;
  @ApiProperty({ enum: ORDER_STATUSES, example: 'completed' }) status: OrderStatus;
}

@ApiSchema({ name: 'DoorSaleAttendee' })
export class DoorSaleAttendeeResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() ticket_id: number;
  @ApiProperty() ticket_title: string;
  @ApiProperty({ description: 'The QR code text, for printing or showing the ticket' }) checkin_secret: string;
  @ApiProperty({ description: 'Checked in on the list by this sale (`admit: true`)' }) checked_in: boolean;
}

/** Answer of POST /checkin/sell. */
@ApiSchema({ name: 'DoorSaleResult' })
export class DoorSaleResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ type: DoorSaleOrderResponse }) order: DoorSaleOrderResponse;
  @ApiProperty({ type: [DoorSaleAttendeeResponse] }) attendees: DoorSaleAttendeeResponse[];
}
