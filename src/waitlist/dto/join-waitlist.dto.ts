import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { PlainText } from '../../common/security/text-sanitizing';
import { MAX_ID } from '../../cart/dto/update-cart.dto';
import { MAX_WAITLIST_QUANTITY, MIN_WAITLIST_QUANTITY } from '../waitlist-rules';

/** Body of POST /waitlist: anyone may join a sold-out ticket's waitlist. */
@ApiSchema({ name: 'WaitlistJoin' })
export class JoinWaitlistDto {
  @ApiProperty({ description: 'The sold-out ticket', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;

  @ApiProperty({ description: 'Full name', maxLength: 255 })
  @IsDefined()
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  @PlainText()
  name: string;

  @ApiProperty({ description: 'Where the offer is sent; once per ticket while waiting or offered', maxLength: 191 })
  @IsDefined()
  @IsString()
  @MaxLength(191)
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;

  @ApiProperty({ description: 'Units wanted', type: 'integer', minimum: MIN_WAITLIST_QUANTITY, maximum: MAX_WAITLIST_QUANTITY })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(MIN_WAITLIST_QUANTITY, { message: `quantity must be ${MIN_WAITLIST_QUANTITY} to ${MAX_WAITLIST_QUANTITY}` })
  @Max(MAX_WAITLIST_QUANTITY, { message: `quantity must be ${MIN_WAITLIST_QUANTITY} to ${MAX_WAITLIST_QUANTITY}` })
  quantity: number;
}
