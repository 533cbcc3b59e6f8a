import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'CartTicket' })
export class CartTicketDoc {
  @ApiProperty() ticket_id: number;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'Event id of the ticket' }) post_id: number;
  @ApiProperty({ enum: [0, 1] }) optout: number;
  @ApiProperty({ example: 'none' }) iac: string;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
}

@ApiSchema({ name: 'CartMeta' })
export class CartMetaDoc {
  @ApiProperty() ticket_id: number;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) items: unknown[];
}

/** The cart, as the original shows it. */
@ApiSchema({ name: 'Cart' })
export class CartResponseDoc {
  @ApiProperty({ type: [CartTicketDoc] }) tickets: CartTicketDoc[];
  @ApiProperty({ type: [CartMetaDoc] }) meta: CartMetaDoc[];
  @ApiProperty({ description: "The cart's URL; '' unless the cart holds tickets and post_id was given" }) cart_url: string;
  @ApiProperty({ description: "Where to check out; '' unless the cart holds tickets and post_id was given" }) checkout_url: string;
}
