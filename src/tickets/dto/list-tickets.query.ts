import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { LowerCased, ToBoolean, ToInteger, ToIntList, ToList, UpperCased } from '../../common/http/transforms';
import { MaxListValues } from '../../common/security/list-limits';

const LIST = { style: 'form', explode: false } as const;
const MAX_INT = 2_147_483_647;
export const TICKET_ORDER_BY = ['id', 'include', 'title', 'slug'] as const;
export type TicketOrderBy = (typeof TICKET_ORDER_BY)[number];

/** A manager-only bound on a count: a whole number from 0. */
function CountBound(name: string, description: string) {
  return applyDecorators(
    ApiPropertyOptional({
      description: `${description} Only for editors and administrators; ignored for other callers.`,
      type: 'integer',
      minimum: 0,
    }),
    IsOptional(),
    ToInteger(),
    IsInt({ message: `${name} must be a whole number from 0` }),
    Min(0, { message: `${name} must be a whole number from 0` }),
    Max(MAX_INT, { message: `${name} is too large` }),
  );
}

/** Query parameters of GET /tickets. Dates, statuses and providers are read by the service. */
export class ListTicketsQuery {
  @ApiPropertyOptional({ description: 'Page of results', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({
    description: 'Tickets per page (1 to 100; other values are a 400)',
    default: 25,
    minimum: 1,
    maximum: 100,
    type: 'integer',
  })
  @Allow()
  per_page?: string;

  @ApiPropertyOptional({ description: 'Text in the ticket name or description' })
  @IsOptional()
  @IsString({ message: 'search must be a string' })
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({
    description: 'Skip this many tickets before the page; `total` still counts every match (0 once the offset skips them all)',
    type: 'integer',
    minimum: 0,
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'offset must be a whole number from 0' })
  @Min(0, { message: 'offset must be a whole number from 0' })
  @Max(MAX_INT, { message: 'offset is too large' })
  offset?: number;

  @ApiPropertyOptional({ description: 'Sort direction', enum: ['ASC', 'DESC'], default: 'ASC' })
  @IsOptional()
  @UpperCased()
  @IsIn(['ASC', 'DESC'], { message: 'order must be ASC or DESC' })
  order?: 'ASC' | 'DESC';

  @ApiPropertyOptional({ description: 'Sort key; include sorts by the position in `include`', enum: TICKET_ORDER_BY, default: 'title' })
  @IsOptional()
  @LowerCased()
  @IsIn(TICKET_ORDER_BY, { message: `orderby must be one of ${TICKET_ORDER_BY.join(', ')}` })
  orderby?: TicketOrderBy;

  @ApiPropertyOptional({ description: 'true: tickets with units left (unlimited ones included); false: sold-out tickets', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'is_available must be a boolean' })
  is_available?: boolean;

  @ApiPropertyOptional({
    description: 'Providers (rsvp, tc and their aliases); unknown names are dropped, so only unknown names match nothing',
    type: [String],
    ...LIST,
  })
  @IsOptional()
  @ToList()
  @MaxListValues('provider')
  @IsString({ each: true, message: 'provider must hold provider names' })
  provider?: string[];

  @ApiPropertyOptional({ description: 'Tickets created on or after this UTC date (YYYY-MM-DD[ HH:MM:SS], ISO 8601 or a unix timestamp)' })
  @IsOptional()
  @IsString({ message: 'after must be a date' })
  @MaxLength(40)
  after?: string;

  @ApiPropertyOptional({ description: 'Tickets created on or before this UTC date (a date alone includes that whole day)' })
  @IsOptional()
  @IsString({ message: 'before must be a date' })
  @MaxLength(40)
  before?: string;

  @ApiPropertyOptional({ description: 'Only these ticket ids; ids that name no ticket match nothing', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('include')
  @IsInt({ each: true, message: 'include must hold ticket ids' })
  @Min(1, { each: true, message: 'include must hold ticket ids' })
  @Max(MAX_INT, { each: true, message: 'include must hold ticket ids' })
  include?: number[];

  @ApiPropertyOptional({ description: 'Leave out these ticket ids', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('exclude')
  @IsInt({ each: true, message: 'exclude must hold ticket ids' })
  @Min(1, { each: true, message: 'exclude must hold ticket ids' })
  @Max(MAX_INT, { each: true, message: 'exclude must hold ticket ids' })
  exclude?: number[];

  @ApiPropertyOptional({ description: 'Only tickets of these events', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('include_post')
  @IsInt({ each: true, message: 'include_post must hold event ids' })
  @Min(1, { each: true, message: 'include_post must hold event ids' })
  @Max(MAX_INT, { each: true, message: 'include_post must hold event ids' })
  include_post?: number[];

  @ApiPropertyOptional({ description: 'Leave out tickets of these events', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('exclude_post')
  @IsInt({ each: true, message: 'exclude_post must hold event ids' })
  @Min(1, { each: true, message: 'exclude_post must hold event ids' })
  @Max(MAX_INT, { each: true, message: 'exclude_post must hold event ids' })
  exclude_post?: number[];

  @CountBound('attendees_min', 'Tickets with at least this many attendees.')
  attendees_min?: number;

  @CountBound('attendees_max', 'Tickets with at most this many attendees.')
  attendees_max?: number;

  @CountBound('checkedin_min', 'Tickets with at least this many checked-in attendees.')
  checkedin_min?: number;

  @CountBound('checkedin_max', 'Tickets with at most this many checked-in attendees.')
  checkedin_max?: number;

  @CountBound('capacity_min', 'Tickets with at least this capacity (unlimited tickets match).')
  capacity_min?: number;

  @CountBound('capacity_max', 'Tickets with at most this capacity (unlimited tickets do not match).')
  capacity_max?: number;

  @ApiPropertyOptional({ description: 'Tickets whose sale starts on or after this UTC date (tickets without a start match)' })
  @IsOptional()
  @IsString({ message: 'available_from must be a date' })
  @MaxLength(40)
  available_from?: string;

  @ApiPropertyOptional({ description: 'Tickets whose sale ends on or before this UTC date (tickets without an end match)' })
  @IsOptional()
  @IsString({ message: 'available_until must be a date' })
  @MaxLength(40)
  available_until?: string;

  @ApiPropertyOptional({
    description:
      'Statuses of the ticket events, or any; by default every event the caller may read (signed-in managers: their drafts and pending events too)',
    type: [String],
    ...LIST,
  })
  @IsOptional()
  @ToList()
  @MaxListValues('post_status')
  @IsString({ each: true, message: 'post_status must hold post statuses' })
  post_status?: string[];

  @ApiPropertyOptional({ description: 'Statuses of the tickets, or any (default publish)', type: [String], ...LIST })
  @IsOptional()
  @ToList()
  @MaxListValues('status')
  @IsString({ each: true, message: 'status must hold post statuses' })
  status?: string[];

  @ApiPropertyOptional({ description: 'ISO 4217 currency codes; tickets are priced in the site currency', type: [String], ...LIST })
  @IsOptional()
  @ToList()
  @MaxListValues('currency')
  @IsString({ each: true, message: 'currency must hold currency codes' })
  currency?: string[];

  @ApiPropertyOptional({
    description: 'Whether the ticket asks attendee questions (attendee_information_fields)',
    type: Boolean,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'attendee_information_available must be a boolean' })
  attendee_information_available?: boolean;

  @ApiPropertyOptional({ description: 'A coupon code that reveals tickets sold only with it (hidden_without_coupon)', maxLength: 64 })
  @IsOptional()
  @IsString({ message: 'coupon must be a code' })
  @MaxLength(64, { message: 'coupon must be a code' })
  coupon?: string;
}
