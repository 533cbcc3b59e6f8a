import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import {
  Allow,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { NullAsAbsent, ToBoolean, ToInteger } from '../../common/http/transforms';
import { POST_STATUSES, PostStatus } from '../../posts/post-status';
import { MaxListValues } from '../../common/security/list-limits';
import { RichTextLimits, TitleText } from '../../common/security/text-sanitizing';

const DATE_FORMATS =
  '`YYYY-MM-DD HH:MM:SS` (also without seconds, or a date alone) read in the event time zone, ISO 8601 with an offset, or a unix timestamp';

/** An optional boolean of the body: `null` counts as absent, and form words (`"1"`, `"yes"`) are read. */
function OptionalFlag(docs: ApiPropertyOptions) {
  // Listed bottom-up, the order in which stacked decorators apply.
  return applyDecorators(IsBoolean(), ToBoolean(), NullAsAbsent(), IsOptional(), ApiPropertyOptional(docs));
}

/** Fields of an event on create. Venue, organizer, terms and cost take several shapes and are checked by the service. */
@ApiSchema({ name: 'EventCreate' })
export class CreateEventDto {
  /** The event title. */
  @ApiProperty({ description: 'Title; inline markup only (links, emphasis, code, quotes), anything else is removed', maxLength: 255 })
  @NullAsAbsent()
  @IsDefined()
  @IsString()
  @IsNotEmpty({ message: 'title must not be empty' })
  @MaxLength(255)
  @TitleText()
  title: string;

  @ApiProperty({
    description: `Start date and time: ${DATE_FORMATS}`,
    example: '2027-01-15 10:00:00',
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  })
  @IsDefined()
  @Allow()
  start_date: string | number;

  @ApiProperty({
    description: `End date and time, not before the start: ${DATE_FORMATS}`,
    example: '2027-01-15 12:00:00',
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  })
  @IsDefined()
  @Allow()
  end_date: string | number;

  @ApiPropertyOptional({ description: 'Description (HTML; unsafe markup is removed; at most 65535 bytes and 5000 tags). "" clears it.' })
  @IsOptional()
  @IsString()
  @RichTextLimits('description')
  description?: string;

  @ApiPropertyOptional({ description: 'Short summary (HTML). "" clears it.' })
  @IsOptional()
  @IsString()
  @RichTextLimits('excerpt')
  excerpt?: string;

  @ApiPropertyOptional({ description: 'URL-friendly name; made from the title when omitted, made unique with -2, -3...' })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'slug must not be empty' })
  @MaxLength(190)
  slug?: string;

  @ApiPropertyOptional({
    description: 'Publication status. Callers who cannot publish get pending instead of publish.',
    enum: POST_STATUSES,
  })
  @IsOptional()
  @IsIn(POST_STATUSES, { message: `status must be one of ${POST_STATUSES.join(', ')}` })
  status?: PostStatus;

  @ApiPropertyOptional({
    description: 'Time zone of the event: an IANA name (Europe/Paris) or UTC±N. Defaults to the site time zone.',
    example: 'America/New_York',
  })
  @IsOptional()
  @NullAsAbsent()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @OptionalFlag({ description: 'Lasts all day: the dates snap to 00:00:00 and 23:59:59.', default: false })
  all_day?: boolean;

  @ApiPropertyOptional({ description: 'Featured image: an absolute http(s) URL. "" removes it.' })
  @IsOptional()
  @IsString()
  @ValidateIf((_object, value) => value !== '')
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: 'image must be an absolute http(s) URL' })
  @MaxLength(500)
  image?: string;

  @ApiPropertyOptional({
    description: 'Admission price as text ("10", "5 - 20", "Donation"), a number, or a list of prices.',
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'string' } }],
  })
  @Allow()
  cost?: unknown;

  @ApiPropertyOptional({ description: 'Event website URL. "" removes it (the response then falls back to the event URL).' })
  @IsOptional()
  @IsString()
  @ValidateIf((_object, value) => value !== '')
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: 'website must be an absolute http(s) URL' })
  @MaxLength(500)
  website?: string;

  @OptionalFlag({ description: 'Show a map', default: true })
  show_map?: boolean;

  @OptionalFlag({ description: 'Show a map link', default: true })
  show_map_link?: boolean;

  @OptionalFlag({ description: 'Hide from calendar lists (still readable by id)', default: false })
  hide_from_listings?: boolean;

  @OptionalFlag({ description: 'Sticky in calendar views', default: false })
  sticky?: boolean;

  @OptionalFlag({ description: 'Featured event', default: false })
  featured?: boolean;

  @OptionalFlag({
    description: 'Show the attendee list (names of going attendees who did not opt out) to the public',
    default: false,
  })
  show_attendee_list?: boolean;

  @ApiPropertyOptional({
    description: 'Category ids or names (names are created), as an array or comma-separated. "" or [] clears.',
    type: [String],
  })
  @Allow()
  @MaxListValues('categories')
  categories?: unknown;

  @ApiPropertyOptional({
    description: 'Tag ids or names (names are created), as an array or comma-separated. "" or [] clears.',
    type: [String],
  })
  @Allow()
  @MaxListValues('tags')
  tags?: unknown;

  @ApiPropertyOptional({
    description:
      'Venue: an id, {id}, an object of venue fields (created, or an exact match reused), or a list of those. "", 0 or [] unlinks.',
    oneOf: [{ type: 'integer' }, { type: 'object' }, { type: 'array', items: {} }],
  })
  @Allow()
  @MaxListValues('venue')
  venue?: unknown;

  @ApiPropertyOptional({
    description: 'Organizers: an id, a list of ids, an object of organizer fields, or a list mixing {id} and objects. [] unlinks.',
    oneOf: [{ type: 'integer' }, { type: 'object' }, { type: 'array', items: {} }],
  })
  @Allow()
  @MaxListValues('organizer')
  organizer?: unknown;

  @ApiPropertyOptional({ description: 'Author user id; only editors and administrators may name another user.' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'author must be a user id' })
  @Min(1, { message: 'author must be a user id' })
  author?: number;

  @ApiPropertyOptional({ description: 'Publication date in the site time zone (YYYY-MM-DD HH:MM:SS)' })
  @IsOptional()
  @Allow()
  date?: string;

  @ApiPropertyOptional({ description: 'Publication date in UTC (YYYY-MM-DD HH:MM:SS)' })
  @IsOptional()
  @Allow()
  date_utc?: string;

  @ApiPropertyOptional({
    description:
      'Makes the event a series: RFC 5545 lines in one string ("RRULE:FREQ=WEEKLY;COUNT=10\\nEXDATE:20270315T100000") or an object ' +
      '{rrule, rdate?, exdate?}, read in the event time zone from start_date. FREQ may be DAILY, WEEKLY, MONTHLY or YEARLY; one write creates at most 2000 ' +
      'occurrences. On an update it needs scope=all or scope=following. See docs/recurring-events.md.',
    oneOf: [
      { type: 'string', example: 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10' },
      {
        type: 'object',
        properties: {
          rrule: { type: 'string', example: 'FREQ=WEEKLY;BYDAY=TU;COUNT=10' },
          rdate: { type: 'array', items: { type: 'string' }, example: ['2027-03-20 10:00:00'] },
          exdate: { type: 'array', items: { type: 'string' }, example: ['2027-03-16 10:00:00'] },
        },
        required: ['rrule'],
      },
    ],
  })
  @IsOptional()
  @Allow()
  recurrence?: unknown;
}
