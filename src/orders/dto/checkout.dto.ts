import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ToBoolean, ToInteger } from '../../common/http/transforms';
import { PlainText } from '../../common/security/text-sanitizing';
import { CART_PROVIDER_NAMES } from '../../cart/cart-providers';
import { IsProviderName } from '../../cart/dto/provider-name.validator';
import { MAX_ID } from '../../cart/dto/update-cart.dto';

/** A person's name on an order or an attendee: plain text, not empty. Decorators listed bottom-up, as stacked ones apply. */
function PersonName(description: string) {
  return applyDecorators(
    PlainText(),
    MaxLength(255),
    IsNotEmpty({ message: 'name must not be empty' }),
    IsString(),
    IsDefined(),
    ApiProperty({ description, maxLength: 255 }),
  );
}

function PersonEmail(description: string) {
  return applyDecorators(
    IsEmail({}, { message: 'email must be an email address' }),
    MaxLength(255),
    IsString(),
    IsDefined(),
    ApiProperty({ description, maxLength: 255 }),
  );
}

/** Who pays: named on the order and on every attendee not given a holder of their own. */
@ApiSchema({ name: 'CheckoutPurchaser' })
export class PurchaserDto {
  @PersonName("Purchaser's full name")
  name: string;

  @PersonEmail("Purchaser's email address")
  email: string;
}

/** The holder of one unit of a ticket; units without one are in the purchaser's name. */
@ApiSchema({ name: 'CheckoutAttendee' })
export class CheckoutAttendeeDto {
  @ApiProperty({
    description: 'Ticket id; the ticket must be in the cart, with at least as many units as holders given for it',
    type: 'integer',
  })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;

  @PersonName("Holder's full name")
  name: string;

  @PersonEmail("Holder's email address")
  email: string;

  @ApiPropertyOptional({
    description: 'Registration answers; replaces those stored in the cart for this unit',
    type: 'object',
    additionalProperties: true,
  })
  @IsOptional()
  @IsObject({ message: 'meta must be an object' })
  meta?: Record<string, unknown>;
}

/** Body of POST /cart/checkout (decisions.md "Checkout request"). */
@ApiSchema({ name: 'Checkout' })
export class CheckoutDto {
  @ApiProperty({ description: 'Which of the cart’s lines to check out', enum: CART_PROVIDER_NAMES })
  @IsDefined()
  @IsProviderName()
  provider: string;

  @ApiProperty({ type: PurchaserDto })
  @IsDefined()
  @IsObject({ message: 'purchaser must be an object with name and email' })
  @ValidateNested()
  @Type(() => PurchaserDto)
  purchaser: PurchaserDto;

  @ApiPropertyOptional({ description: 'Holders of the units, in order per ticket', type: [CheckoutAttendeeDto] })
  @IsOptional()
  @IsArray({ message: 'attendees must be a list of {ticket_id, name, email}' })
  // Each entry an object: nested validation walks into a list instead of refusing it.
  @IsObject({ each: true, message: 'attendees must be a list of {ticket_id, name, email}' })
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CheckoutAttendeeDto)
  attendees?: CheckoutAttendeeDto[];

  @ApiPropertyOptional({ description: 'RSVP only: going (default) or not going; not going consumes no capacity', type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'going must be a boolean' })
  going?: boolean;
}
