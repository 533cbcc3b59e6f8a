import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NullAsAbsent, ToBoolean, ToInteger } from '../../common/http/transforms';
import { CART_PROVIDER_NAMES } from '../cart-providers';
import { IsProviderName } from './provider-name.validator';

export const MAX_ID = 2_147_483_647;
/** Most lines one cart write may list (forms cannot send more than 200 indexed items anyway). */
export const MAX_CART_LINES = 100;

/** One line of a cart write: the quantity replaces what the cart holds of that ticket. */
@ApiSchema({ name: 'CartTicketLine' })
export class CartTicketLineDto {
  @ApiProperty({ description: 'Ticket id', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;

  @ApiProperty({
    description: 'Units wanted; replaces the quantity in the cart, 0 removes the ticket. At most MAX_TICKETS_PER_ORDER.',
    type: 'integer',
    minimum: 0,
  })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(0, { message: 'quantity must not be negative' })
  // A quantity past MAX_TICKETS_PER_ORDER is 409 ticket-capacity-not-available (CartService); past this, not a quantity at all.
  @Max(MAX_ID, { message: `quantity must be at most ${MAX_ID}` })
  quantity: number;

  @ApiPropertyOptional({ description: 'Hide the attendees from public attendee lists; kept as it was when left out', type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'optout must be a boolean' })
  optout?: boolean;

  @ApiPropertyOptional({ description: "The line's provider; defaults to the request's", enum: CART_PROVIDER_NAMES })
  @IsOptional()
  @IsProviderName()
  provider?: string;
}

/** Attendee registration answers for the units of one ticket: one object per attendee, in order. */
@ApiSchema({ name: 'CartTicketMeta' })
export class CartTicketMetaDto {
  @ApiProperty({ description: 'Ticket id; the ticket must be in the cart', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;

  @ApiPropertyOptional({ description: 'Ignored: the provider is the ticket’s', enum: CART_PROVIDER_NAMES })
  @IsOptional()
  @IsProviderName()
  provider?: string;

  @ApiProperty({
    description: 'One object of registration fields per attendee; [] clears them',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  @IsDefined()
  @IsArray({ message: 'items must be a list of objects' })
  @IsObject({ each: true, message: 'items must be a list of objects' })
  items: Array<Record<string, unknown>>;
}

/** Body of POST, PUT and PATCH /cart: replace-quantity semantics, validated as a whole. */
@ApiSchema({ name: 'CartUpdate' })
export class UpdateCartDto {
  @ApiProperty({ description: 'Cart provider', enum: CART_PROVIDER_NAMES })
  @IsDefined()
  @IsProviderName()
  provider: string;

  @ApiPropertyOptional({
    description: 'Tickets to set: each listed ticket gets this quantity (0 removes it); unlisted tickets are left alone',
    type: [CartTicketLineDto],
    nullable: true,
  })
  @IsOptional()
  @IsArray({ message: 'tickets must be a list of {ticket_id, quantity}' })
  // Each entry an object: nested validation walks into a list instead of refusing it.
  @IsObject({ each: true, message: 'tickets must be a list of {ticket_id, quantity}' })
  @ArrayMaxSize(MAX_CART_LINES)
  @ValidateNested({ each: true })
  @Type(() => CartTicketLineDto)
  tickets?: CartTicketLineDto[] | null;

  @ApiPropertyOptional({
    description: 'Registration answers per ticket, stored for the attendees made at checkout',
    type: [CartTicketMetaDto],
    nullable: true,
  })
  @IsOptional()
  @IsArray({ message: 'meta must be a list of {ticket_id, items}' })
  @IsObject({ each: true, message: 'meta must be a list of {ticket_id, items}' })
  @ArrayMaxSize(MAX_CART_LINES)
  @ValidateNested({ each: true })
  @Type(() => CartTicketMetaDto)
  meta?: CartTicketMetaDto[] | null;

  @ApiPropertyOptional({ description: 'Event id; it must exist and have tickets. The response shows only its tickets.', type: 'integer' })
  @IsOptional()
  @NullAsAbsent()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id?: number;

  @ApiPropertyOptional({
    description:
      'A waitlist offer token (docs/waitlist.md): its held units go to the line of its ticket, which this write must list; null removes offers from the cart',
    type: 'string',
    nullable: true,
    maxLength: 64,
  })
  @IsOptional()
  @IsString({ message: 'waitlist_offer must be an offer token' })
  @Matches(/^[0-9a-f]{48}$/, { message: 'waitlist_offer must be an offer token' })
  waitlist_offer?: string | null;

  @ApiPropertyOptional({
    description: 'A coupon or access code for the cart (case ignored); "" or null removes it. Checked again at checkout.',
    type: 'string',
    nullable: true,
    maxLength: 64,
  })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsString({ message: 'coupon must be a code' })
  @MaxLength(64, { message: 'coupon must be a code' })
  coupon?: string | null;
}
