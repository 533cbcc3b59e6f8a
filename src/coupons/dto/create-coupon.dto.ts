import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { ToBoolean, ToInteger, ToIntList, Trimmed } from '../../common/http/transforms';
import { DISCOUNT_TYPES } from '../coupon-discount';

const MAX_ID = 2_147_483_647;
/** Most tickets one coupon may list. */
export const MAX_COUPON_TICKETS = 100;
const blankOrNull = (value: unknown) => value !== null && value !== '';

/** Body of POST /coupons. Dates are wall-clock times in the site time zone (or ISO 8601 with an offset). */
@ApiSchema({ name: 'CouponCreate' })
export class CreateCouponDto {
  @ApiProperty({
    description: 'The code buyers enter: 4 to 64 letters, digits, "-" or "_"; unique without regard to case',
    example: 'EARLYBIRD',
    minLength: 4,
    maxLength: 64,
  })
  @IsDefined()
  @Trimmed()
  @IsString({ message: 'code must be a string' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{3,63}$/, { message: 'code must be 4 to 64 letters, digits, "-" or "_"' })
  code: string;

  @ApiPropertyOptional({
    description: 'The one event the coupon is for; absent, null or "": every event of its author',
    type: 'integer',
    nullable: true,
  })
  @IsOptional()
  @ToInteger()
  @ValidateIf((_dto, value) => blankOrNull(value))
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id?: number | null | '';

  @ApiPropertyOptional({ description: 'Tickets it applies to; empty: every ticket in scope', type: [Number] })
  @IsOptional()
  @ToIntList()
  @ArrayMaxSize(MAX_COUPON_TICKETS, { message: `ticket_ids must hold at most ${MAX_COUPON_TICKETS} ids` })
  @IsInt({ each: true, message: 'ticket_ids must hold ticket ids' })
  @Min(1, { each: true, message: 'ticket_ids must hold ticket ids' })
  @Max(MAX_ID, { each: true, message: 'ticket_ids must hold ticket ids' })
  ticket_ids?: number[];

  @ApiProperty({ description: 'percent, flat (off each ticket) or none (an access code)', enum: DISCOUNT_TYPES })
  @IsDefined()
  @IsIn(DISCOUNT_TYPES, { message: `discount_type must be one of ${DISCOUNT_TYPES.join(', ')}` })
  discount_type: string;

  @ApiPropertyOptional({
    description:
      'percent: 0.01 to 100 (two decimals at most); flat: the amount off each ticket ("5.00"), with no more decimals than the currency has (400 rest_invalid_param otherwise); none: absent or 0',
    oneOf: [{ type: 'string' }, { type: 'number' }],
    example: '10',
  })
  @Allow()
  amount?: unknown;

  @ApiPropertyOptional({
    description: 'Ticket units the code may be used for (each unit is one use); null or "": no limit',
    type: 'integer',
    nullable: true,
    minimum: 1,
  })
  @IsOptional()
  @ToInteger()
  @ValidateIf((_dto, value) => blankOrNull(value))
  @IsInt({ message: 'max_uses must be a whole number from 1' })
  @Min(1, { message: 'max_uses must be a whole number from 1' })
  @Max(MAX_ID, { message: 'max_uses must be a whole number from 1' })
  max_uses?: number | null | '';

  @ApiPropertyOptional({
    description: 'First moment the code works (YYYY-MM-DD HH:MM:SS, site time zone); "" or null: now',
    nullable: true,
  })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsString({ message: 'starts_at must be a date (YYYY-MM-DD HH:MM:SS)' })
  starts_at?: string | null;

  @ApiPropertyOptional({ description: 'Moment the code stops working (exclusive), site time zone; "" or null: never', nullable: true })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsString({ message: 'ends_at must be a date (YYYY-MM-DD HH:MM:SS)' })
  ends_at?: string | null;

  @ApiPropertyOptional({ description: 'Lists and sells the tickets flagged hidden_without_coupon', type: 'boolean', default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'reveals_hidden must be a boolean' })
  reveals_hidden?: boolean;
}
