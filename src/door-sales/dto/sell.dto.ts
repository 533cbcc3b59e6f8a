import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ToBoolean, ToInteger, Trimmed } from '../../common/http/transforms';
import { PlainText } from '../../common/security/text-sanitizing';
import { DOOR_PAYMENT_METHODS, type DoorPaymentMethod } from '../../orders/order.entity';

const MAX_ID = 2_147_483_647;
/** The most units one walk-in sale asks; MAX_TICKETS_PER_ORDER (checkout's rule) decides below it. */
const MAX_QUANTITY = 10_000;

/** Who buys at the door; both fields optional (a walk-in without an address gets no email). */
@ApiSchema({ name: 'DoorSalePurchaser' })
export class DoorSalePurchaserDto {
  @ApiPropertyOptional({ description: 'Name on the order and its tickets; default "Walk-in"', maxLength: 255 })
  @IsOptional()
  @IsString({ message: 'purchaser[name] must be a string' })
  @IsNotEmpty({ message: 'purchaser[name] must not be empty' })
  @MaxLength(255, { message: 'purchaser[name] must be at most 255 characters' })
  @PlainText()
  name?: string;

  @ApiPropertyOptional({ description: 'Where the order confirmation and tickets are sent; none: no email', maxLength: 255 })
  @IsOptional()
  @IsString({ message: 'purchaser[email] must be an email address' })
  @MaxLength(255, { message: 'purchaser[email] must be at most 255 characters' })
  @IsEmail({}, { message: 'purchaser[email] must be an email address' })
  email?: string;
}

/** Body of POST /checkin/sell. */
@ApiSchema({ name: 'DoorSale' })
export class SellDto {
  @ApiProperty({ description: 'The check-in list the sale is made at (its `allow_sales` must be on)', type: 'integer' })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'list_id must be a check-in list id' })
  @Min(1, { message: 'list_id must be a check-in list id' })
  @Max(MAX_ID, { message: 'list_id must be a check-in list id' })
  list_id: number;

  @ApiProperty({ description: 'A ticket of the list’s event that the list admits (GET /checkin-lists/{id}/sale-tickets)', type: 'integer' })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;

  @ApiProperty({
    description: 'Units; at most MAX_TICKETS_PER_ORDER (else 409 ticket-capacity-not-available)',
    type: 'integer',
    minimum: 1,
  })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'quantity must be a whole number of at least 1' })
  @Min(1, { message: 'quantity must be a whole number of at least 1' })
  @Max(MAX_QUANTITY, { message: `quantity must be at most ${MAX_QUANTITY}` })
  quantity: number;

  @ApiProperty({ enum: DOOR_PAYMENT_METHODS, description: 'How the money was taken; `free` only when the total is 0' })
  @IsDefined()
  @IsIn(DOOR_PAYMENT_METHODS, { message: 'payment_method must be cash, card_terminal or free' })
  payment_method: DoorPaymentMethod;

  @ApiPropertyOptional({ type: DoorSalePurchaserDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => DoorSalePurchaserDto)
  purchaser?: DoorSalePurchaserDto;

  @ApiPropertyOptional({ description: 'A coupon code, with the same checks and discount as online', maxLength: 64 })
  @IsOptional()
  @Trimmed()
  @IsString({ message: 'coupon must be a string' })
  @IsNotEmpty({ message: 'coupon must not be empty' })
  @MaxLength(64, { message: 'coupon must be at most 64 characters' })
  coupon?: string;

  @ApiPropertyOptional({ description: 'Check the attendees in on the list at once, as scans of the caller', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'admit must be a boolean' })
  admit?: boolean;

  @ApiPropertyOptional({
    description: 'Makes retries safe: the same nonce and body again answer the first sale (24 h); another body is 409 nonce-reused',
    maxLength: 64,
  })
  @IsOptional()
  @IsString({ message: 'nonce must be a string' })
  @Matches(/^[\x21-\x7e]{1,64}$/, { message: 'nonce must be 1 to 64 printable ASCII characters' })
  nonce?: string;
}
