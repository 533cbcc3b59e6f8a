import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_ID } from '../../cart/dto/update-cart.dto';
import { ToBoolean, ToInteger, ToIntList } from '../../common/http/transforms';

export const MAX_QUEUE_TICKETS = 100;
export const MAX_ACTIVE_LIMIT = 100_000;
export const MAX_ADMISSION_MINUTES = 120;
/** 2^24 hashes on average: seconds in a browser, so higher would shut out slow phones. */
export const MAX_CHALLENGE_BITS = 24;

const DATE_MESSAGE = (field: string) => `${field} must be a date (ISO 8601 with an offset, or YYYY-MM-DD HH:MM:SS in the site time zone)`;

/** Body of POST /queues: a waiting room for an on-sale, by a manager of its event. */
@ApiSchema({ name: 'QueueCreate' })
export class CreateQueueDto {
  @ApiProperty({ description: 'The event on sale', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id: number;

  @ApiPropertyOptional({
    description: 'The tickets of the event it guards; absent: all of them',
    type: [Number],
    maxItems: MAX_QUEUE_TICKETS,
  })
  @IsOptional()
  @ToIntList()
  @IsArray({ message: 'ticket_ids must be a list of ticket ids' })
  @ArrayMaxSize(MAX_QUEUE_TICKETS, { message: `ticket_ids must hold at most ${MAX_QUEUE_TICKETS} ids` })
  @IsInt({ each: true, message: 'ticket_ids must hold ticket ids' })
  @Min(1, { each: true, message: 'ticket_ids must hold ticket ids' })
  @Max(MAX_ID, { each: true, message: 'ticket_ids must hold ticket ids' })
  ticket_ids?: number[];

  @ApiPropertyOptional({ description: 'When joining opens (the pre-queue); absent: at opens_at', nullable: true })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsString({ message: DATE_MESSAGE('prequeue_opens_at') })
  @MaxLength(40)
  prequeue_opens_at?: string | null;

  @ApiProperty({ description: 'The on-sale starts: the pre-queue is shuffled, admissions begin, later joins are FIFO' })
  @IsDefined()
  @IsString({ message: DATE_MESSAGE('opens_at') })
  @MaxLength(40)
  opens_at: string;

  @ApiPropertyOptional({ description: 'When the queue closes; absent: when closed by hand', nullable: true })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== null)
  @IsString({ message: DATE_MESSAGE('closes_at') })
  @MaxLength(40)
  closes_at?: string | null;

  @ApiProperty({ description: 'Admitted shoppers at once', type: 'integer', minimum: 1, maximum: MAX_ACTIVE_LIMIT })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: `max_active must be a whole number from 1 to ${MAX_ACTIVE_LIMIT}` })
  @Min(1, { message: `max_active must be a whole number from 1 to ${MAX_ACTIVE_LIMIT}` })
  @Max(MAX_ACTIVE_LIMIT, { message: `max_active must be a whole number from 1 to ${MAX_ACTIVE_LIMIT}` })
  max_active: number;

  @ApiPropertyOptional({
    description: 'Admissions per minute, or "auto": as many as max_active leaves room for, following checkout (default)',
    oneOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', enum: ['auto'] },
    ],
    default: 'auto',
  })
  @IsOptional()
  @Allow()
  max_admit_per_minute?: unknown;

  @ApiPropertyOptional({
    description: 'How long an admitted buyer has to check out',
    type: 'integer',
    minimum: 1,
    maximum: MAX_ADMISSION_MINUTES,
    default: 10,
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: `admission_minutes must be a whole number from 1 to ${MAX_ADMISSION_MINUTES}` })
  @Min(1, { message: `admission_minutes must be a whole number from 1 to ${MAX_ADMISSION_MINUTES}` })
  @Max(MAX_ADMISSION_MINUTES, { message: `admission_minutes must be a whole number from 1 to ${MAX_ADMISSION_MINUTES}` })
  admission_minutes?: number;

  @ApiPropertyOptional({
    description: 'Units one admission may check out in all; default MAX_TICKETS_PER_ORDER',
    type: 'integer',
    minimum: 1,
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'units_per_admission must be a whole number from 1' })
  @Min(1, { message: 'units_per_admission must be a whole number from 1' })
  @Max(MAX_ID, { message: 'units_per_admission must be a whole number from 1' })
  units_per_admission?: number;

  @ApiPropertyOptional({
    description: 'Queue even when there is room (default); false: a joiner finding room and nobody ahead is admitted at once',
    type: 'boolean',
    default: true,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'queue_all must be a boolean' })
  queue_all?: boolean;

  @ApiPropertyOptional({ description: 'Admit nobody while true (joining goes on)', type: 'boolean', default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'paused must be a boolean' })
  paused?: boolean;

  @ApiPropertyOptional({
    description:
      'Proof-of-work a join must show: leading zero bits of SHA-256("{queue id}:{request_id}:{nonce}") (docs/waiting-room.md); 0: none',
    type: 'integer',
    minimum: 0,
    maximum: MAX_CHALLENGE_BITS,
    default: 0,
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: `challenge_bits must be a whole number from 0 to ${MAX_CHALLENGE_BITS}` })
  @Min(0, { message: `challenge_bits must be a whole number from 0 to ${MAX_CHALLENGE_BITS}` })
  @Max(MAX_CHALLENGE_BITS, { message: `challenge_bits must be a whole number from 0 to ${MAX_CHALLENGE_BITS}` })
  challenge_bits?: number;
}

/** Body of PATCH /queues/{id}: any field but post_id, and `closed` to close the queue now. */
@ApiSchema({ name: 'QueueUpdate' })
export class UpdateQueueDto extends PartialType(OmitType(CreateQueueDto, ['post_id'] as const)) {
  @ApiPropertyOptional({
    description: 'true closes the queue now (for good): its tickets are sold without admissions from then on',
    type: 'boolean',
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'closed must be a boolean' })
  closed?: boolean;
}
