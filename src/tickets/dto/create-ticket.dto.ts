import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { LowerCased, NullAsAbsent, ToBoolean, ToInteger } from '../../common/http/transforms';
import { MAX_CAPACITY } from '../ticket-input';
import { PlainText } from '../../common/security/text-sanitizing';
import { AttendeeInformationField } from '../../attendee-questions/dto/attendee-information.dto';

const MAX_ID = 2_147_483_647;
const CAPACITY_MESSAGE = `must be a whole number from 0 to ${MAX_CAPACITY}`;
export const IAC_VALUES = ['none', 'allowed', 'required'] as const;

/** `ticket[...]`: how the ticket's capacity works. Numbers may be sent as strings, as forms do. */
@ApiSchema({ name: 'TicketCapacity' })
export class TicketCapacityDto {
  @ApiPropertyOptional({
    description:
      'own: its own capacity; capped: shares the event pool, at most `capacity`; global: the whole event pool; "" (or unlimited): no limit. Absent on create: own.',
    enum: ['own', 'capped', 'global', '', 'unlimited'],
  })
  @IsOptional()
  @LowerCased()
  @IsIn(['own', 'capped', 'global', '', 'unlimited'], { message: 'ticket[mode] must be own, capped, global or ""' })
  mode?: string;

  @ApiPropertyOptional({
    description: 'own: the capacity (required); capped: the cap, blank meaning the pool size (a larger cap is clamped to it)',
    type: 'integer',
    minimum: 0,
  })
  @IsOptional()
  @ToInteger()
  @ValidateIf((_dto, value) => value !== '')
  @IsInt({ message: `ticket[capacity] ${CAPACITY_MESSAGE}` })
  @Min(0, { message: `ticket[capacity] ${CAPACITY_MESSAGE}` })
  @Max(MAX_CAPACITY, { message: `ticket[capacity] ${CAPACITY_MESSAGE}` })
  capacity?: number | '';

  @ApiPropertyOptional({
    description:
      'capped and global: the size of the event pool shared by its tickets (required for the first shared ticket; later values resize the pool)',
    type: 'integer',
    minimum: 0,
  })
  @IsOptional()
  @ToInteger()
  @ValidateIf((_dto, value) => value !== '')
  @IsInt({ message: `ticket[event_capacity] ${CAPACITY_MESSAGE}` })
  @Min(0, { message: `ticket[event_capacity] ${CAPACITY_MESSAGE}` })
  @Max(MAX_CAPACITY, { message: `ticket[event_capacity] ${CAPACITY_MESSAGE}` })
  event_capacity?: number | '';
}

/**
 * Body of POST /tickets, as the original's block editor sends it (form fields, JSON accepted too).
 * The price, the provider name and the sale window are read by the service.
 */
@ApiSchema({ name: 'TicketCreate' })
export class CreateTicketDto {
  @ApiProperty({ description: 'The event the ticket is for', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id: number;

  @ApiProperty({
    description:
      'rsvp (free; going or not going) or tc (priced). Also accepted: tribe-commerce, tpp and the original class names Tribe__Tickets__RSVP, Tribe__Tickets__Commerce__PayPal__Main, TEC\\Tickets\\Commerce\\Module.',
    example: 'tc',
  })
  @IsDefined()
  @IsString({ message: 'provider must be a string' })
  @MaxLength(100)
  provider: string;

  @ApiProperty({ description: 'Nonce of the caller for add_ticket_nonce (GET /tickets/v1/nonces)' })
  @IsOptional()
  @IsString()
  add_ticket_nonce?: string;

  @ApiProperty({ description: 'Ticket name', maxLength: 255 })
  @IsDefined()
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ description: 'Plain text; markup is removed', default: '' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(65535)
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'Decimal price of a tc ticket ("25", "25.50"); blank means free. RSVP tickets ignore it. Not a non-negative decimal: 400 tec-tickets-rest-invalid_price.',
    oneOf: [{ type: 'string' }, { type: 'number' }],
    example: '25.00',
  })
  @Allow()
  price?: unknown;

  @ApiPropertyOptional({
    description: 'First day of sale (YYYY-MM-DD) in the event time zone. Default: the event publication day.',
    example: '2026-11-01',
  })
  @IsOptional()
  @IsString({ message: 'start_date must be a date (YYYY-MM-DD)' })
  @MaxLength(40)
  start_date?: string;

  @ApiPropertyOptional({ description: 'Time the sale starts (HH:MM:SS), default 00:00:00', example: '00:00:00' })
  @IsOptional()
  @IsString({ message: 'start_time must be a time of day (HH:MM:SS)' })
  @MaxLength(20)
  start_time?: string;

  @ApiPropertyOptional({
    description: 'Last day of sale (YYYY-MM-DD) in the event time zone. Default: the event start.',
    example: '2027-01-15',
  })
  @IsOptional()
  @IsString({ message: 'end_date must be a date (YYYY-MM-DD)' })
  @MaxLength(40)
  end_date?: string;

  @ApiPropertyOptional({ description: 'Time the sale ends (HH:MM:SS), default 23:59:59 when only end_date is sent', example: '09:00:00' })
  @IsOptional()
  @IsString({ message: 'end_time must be a time of day (HH:MM:SS)' })
  @MaxLength(20)
  end_time?: string;

  @ApiPropertyOptional({ description: 'Stock keeping unit', default: '' })
  @IsOptional()
  @IsString({ message: 'sku must be a string' })
  @MaxLength(100)
  @PlainText(100)
  sku?: string | null;

  @ApiPropertyOptional({
    description: 'Individual attendee collection: none, allowed or required ("" means none)',
    enum: ['', ...IAC_VALUES],
    default: 'none',
  })
  @IsOptional()
  @NullAsAbsent()
  @IsIn(['', ...IAC_VALUES], { message: `iac must be one of ${IAC_VALUES.join(', ')}` })
  iac?: string;

  @ApiPropertyOptional({
    description: 'Show the description on the front end: yes/no or a boolean',
    default: 'yes',
    oneOf: [{ type: 'string', enum: ['yes', 'no'] }, { type: 'boolean' }],
  })
  @IsOptional()
  @NullAsAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'show_description must be yes or no' })
  show_description?: boolean;

  @ApiPropertyOptional({
    description: 'Let people join a waitlist once the ticket is sold out (docs/waitlist.md): yes/no or a boolean',
    default: false,
    oneOf: [{ type: 'string', enum: ['yes', 'no'] }, { type: 'boolean' }],
  })
  @IsOptional()
  @NullAsAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'waitlist must be yes or no' })
  waitlist?: boolean;

  @ApiPropertyOptional({
    description: 'Offer units that come back to the waitlist automatically (else managers offer them): yes/no or a boolean',
    default: true,
    oneOf: [{ type: 'string', enum: ['yes', 'no'] }, { type: 'boolean' }],
  })
  @IsOptional()
  @NullAsAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'waitlist_auto_offer must be yes or no' })
  waitlist_auto_offer?: boolean;

  @ApiPropertyOptional({ description: 'Position among the event tickets', type: 'integer', default: 0 })
  @IsOptional()
  @NullAsAbsent()
  @ToInteger()
  @IsInt({ message: 'menu_order must be an integer' })
  @Min(-MAX_ID, { message: 'menu_order must be an integer' })
  @Max(MAX_ID, { message: 'menu_order must be an integer' })
  menu_order?: number;

  @ApiPropertyOptional({
    description:
      'Attendee questions, in order (docs/attendee-questions.md): [{type, label, slug?, required?, options?, description?}]; [] or "" removes them. A JSON string is accepted too.',
    type: [AttendeeInformationField],
  })
  @Allow()
  attendee_information_fields?: unknown;

  @ApiPropertyOptional({
    description: 'Listed and sold only with a coupon that reveals hidden tickets (docs/coupons.md)',
    type: 'boolean',
    default: false,
  })
  @IsOptional()
  @NullAsAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'hidden_without_coupon must be a boolean' })
  hidden_without_coupon?: boolean;

  @ApiPropertyOptional({
    description: 'Capacity: `ticket[mode]`, `ticket[capacity]`, `ticket[event_capacity]`. Required on create unless unlimited.',
    type: TicketCapacityDto,
  })
  @IsOptional()
  @IsObject({ message: 'ticket must be an object: ticket[mode], ticket[capacity], ticket[event_capacity]' })
  @ValidateNested()
  @Type(() => TicketCapacityDto)
  ticket?: TicketCapacityDto;
}
