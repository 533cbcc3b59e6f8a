import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean, ToInteger, ToIntList, ToList, UpperCased } from '../../common/http/transforms';
import { MaxListValues } from '../../common/security/list-limits';

const LIST = { style: 'form', explode: false } as const;
const MAX_ID = 2_147_483_647;

export const ATTENDEE_ORDER_BY = ['id', 'date', 'include', 'title', 'slug'] as const;
export type AttendeeOrderBy = (typeof ATTENDEE_ORDER_BY)[number];

/** An id list of the query (`include`, `include_post`, ...): integers from 1, at most MAX_LIST_VALUES of them. */
function IdList(field: string, what: string) {
  const message = `${field} must hold ${what}`;
  return applyDecorators(
    IsOptional(),
    ToIntList(),
    MaxListValues(field),
    IsInt({ each: true, message }),
    Min(1, { each: true, message }),
    Max(MAX_ID, { each: true, message }),
  );
}

/** A single id of the query (`post_id`, `ticket_id`). */
function SingleId(field: string, what: string) {
  const message = `${field} must be ${what}`;
  return applyDecorators(IsOptional(), ToInteger(), IsInt({ message }), Min(1, { message }), Max(MAX_ID, { message }));
}

/** A list of words (`provider`, `status`, ...); the service checks the values. */
function WordList(field: string) {
  return applyDecorators(
    IsOptional(),
    ToList(),
    ArrayMaxSize(50, { message: `${field} may hold at most 50 values` }),
    IsString({ each: true, message: `${field} must be a comma-separated list or an array of strings` }),
    MaxLength(40, { each: true, message: `${field} holds an unknown value` }),
  );
}

/** Query parameters of GET /attendees. Values that need the database or the caller are checked by the service. */
export class ListAttendeesQuery {
  @ApiPropertyOptional({ description: 'Page of results', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({ description: 'Attendees per page', default: 25, minimum: 1, maximum: 100, type: 'integer' })
  @Allow()
  per_page?: string;

  @ApiPropertyOptional({
    description: 'Ticket providers: rsvp, tc (tribe-commerce and tpp read as tc); unknown ones match nothing',
    type: [String],
    ...LIST,
  })
  @WordList('provider')
  provider?: string[];

  @ApiPropertyOptional({
    description: "Text in the holder's name; for attendees of events the caller manages also in the email and the security code",
  })
  @IsOptional()
  @IsString({ message: 'search must be a string' })
  @MaxLength(200, { message: 'search must be at most 200 characters long' })
  search?: string;

  @ApiPropertyOptional({
    description: 'Skip this many matching attendees before paging; `total` still counts every match (0 once the offset skips them all)',
    type: 'integer',
    minimum: 0,
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'offset must be an integer from 0' })
  @Min(0, { message: 'offset must be an integer from 0' })
  @Max(MAX_ID, { message: 'offset is too large' })
  offset?: number;

  @ApiPropertyOptional({ description: 'Sort direction', enum: ['ASC', 'DESC'], default: 'ASC' })
  @IsOptional()
  @UpperCased()
  @IsIn(['ASC', 'DESC'], { message: 'order must be ASC or DESC' })
  order?: 'ASC' | 'DESC';

  @ApiPropertyOptional({
    description: 'Sort key (title: holder name; include: the order of `include`; slug: as id)',
    enum: ATTENDEE_ORDER_BY,
    default: 'id',
  })
  @IsOptional()
  @IsIn(ATTENDEE_ORDER_BY, { message: `orderby must be one of ${ATTENDEE_ORDER_BY.join(', ')}` })
  orderby?: AttendeeOrderBy;

  @ApiPropertyOptional({ description: 'Attendees of this event (must exist); include_post wins', type: 'integer' })
  @SingleId('post_id', 'an event id')
  post_id?: number;

  @ApiPropertyOptional({ description: 'Attendees of this ticket (must exist); include_ticket wins', type: 'integer' })
  @SingleId('ticket_id', 'a ticket id')
  ticket_id?: number;

  @ApiPropertyOptional({ description: 'Created on or after this UTC date (YYYY-MM-DD[ HH:MM:SS], ISO 8601) or unix timestamp' })
  @IsOptional()
  @IsString({ message: 'after must be a date' })
  @MaxLength(40, { message: 'after must be a date' })
  after?: string;

  @ApiPropertyOptional({ description: 'Created on or before this UTC date (a date alone: until the end of that day) or unix timestamp' })
  @IsOptional()
  @IsString({ message: 'before must be a date' })
  @MaxLength(40, { message: 'before must be a date' })
  before?: string;

  @ApiPropertyOptional({ description: 'Only these attendee ids', type: [Number], ...LIST })
  @IdList('include', 'attendee ids')
  include?: number[];

  @ApiPropertyOptional({ description: 'Not these attendee ids', type: [Number], ...LIST })
  @IdList('exclude', 'attendee ids')
  exclude?: number[];

  @ApiPropertyOptional({
    description: 'Paid at most this price (exact decimal, e.g. 25 or 25.50); matches only attendees of events the caller manages',
    type: String,
  })
  @IsOptional()
  @IsString({ message: 'price_max must be a non-negative decimal number' })
  @MaxLength(20, { message: 'price_max must be a non-negative decimal number' })
  price_max?: string;

  @ApiPropertyOptional({
    description: 'Paid at least this price (exact decimal); matches only attendees of events the caller manages',
    type: String,
  })
  @IsOptional()
  @IsString({ message: 'price_min must be a non-negative decimal number' })
  @MaxLength(20, { message: 'price_min must be a non-negative decimal number' })
  price_min?: string;

  @ApiPropertyOptional({ description: 'Attendees of these events (ids must exist)', type: [Number], ...LIST })
  @IdList('include_post', 'event ids')
  include_post?: number[];

  @ApiPropertyOptional({ description: 'Not attendees of these events (ids must exist)', type: [Number], ...LIST })
  @IdList('exclude_post', 'event ids')
  exclude_post?: number[];

  @ApiPropertyOptional({ description: 'Attendees of these tickets (ids must exist)', type: [Number], ...LIST })
  @IdList('include_ticket', 'ticket ids')
  include_ticket?: number[];

  @ApiPropertyOptional({ description: 'Not attendees of these tickets (ids must exist)', type: [Number], ...LIST })
  @IdList('exclude_ticket', 'ticket ids')
  exclude_ticket?: number[];

  @ApiPropertyOptional({ description: "Post status of the attendee's event (publish, draft, ... or any)", type: [String], ...LIST })
  @WordList('post_status')
  post_status?: string[];

  @ApiPropertyOptional({ description: 'Post status of the attendee (publish, ... or any)', type: [String], ...LIST })
  @WordList('status')
  status?: string[];

  @ApiPropertyOptional({
    description:
      'Order statuses: pending, completed, cancelled, refunded, expired, yes, no (RSVP answers), or the groups public (completed and RSVP yes), private (the others) and any. Public callers only ever see public ones.',
    type: [String],
    ...LIST,
  })
  @WordList('order_status')
  order_status?: string[];

  @ApiPropertyOptional({
    description: 'Checked in (true) or not (false); matches only attendees of events the caller manages',
    type: Boolean,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'checkedin must be a boolean' })
  checkedin?: boolean;

  @ApiPropertyOptional({
    description: 'RSVP answers (yes, no): RSVP attendees with one of them; other attendees always pass',
    type: [String],
    ...LIST,
  })
  @IsOptional()
  @ToList()
  @MaxListValues('rsvp_going_status')
  @IsIn(['yes', 'no'], { each: true, message: 'rsvp_going_status must hold yes or no' })
  rsvp_going_status?: string[];

  @ApiPropertyOptional({
    description: "Whether the attendee's ticket collects attendee information (its iac setting is not none)",
    type: Boolean,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'attendee_information_available must be a boolean' })
  attendee_information_available?: boolean;
}
