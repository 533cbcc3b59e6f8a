import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { DateDetails } from '../../common/dates/date-format';
import { PostImageResponse } from '../../linked-posts/linked-post-response';
import { EmbeddedTermResponse } from '../../terms/term-response.dto';
import { OrganizerResponse } from '../../organizers/dto/organizer.response';
import { VenueResponse } from '../../venues/dto/venue.response';

/** The prices an event's cost names; all empty when it names none. */
@ApiSchema({ name: 'CostDetails' })
export class CostDetails {
  @ApiProperty({ example: '$' }) currency_symbol: string;
  @ApiProperty({ example: 'USD' }) currency_code: string;
  @ApiProperty({ enum: ['', 'prefix', 'postfix'] }) currency_position: '' | 'prefix' | 'postfix';
  @ApiProperty({ type: [String], example: ['10'] }) values: string[];
}

/** The recurrence of a series as responses show it: wall-clock dates in the event's zone. */
@ApiSchema({ name: 'Recurrence' })
export class Recurrence {
  @ApiProperty({ example: 'FREQ=WEEKLY;BYDAY=TU;COUNT=10', description: 'RRULE value (RFC 5545), UNTIL as sent' }) rrule: string;
  @ApiProperty({ type: [String], example: ['2027-03-20 10:00:00'], description: 'Extra dates (RDATE)' }) rdate: string[];
  @ApiProperty({ type: [String], example: ['2027-03-16 10:00:00'], description: 'Dates left out (EXDATE), deleted occurrences included' })
  exdate: string[];
}

/** The event object, keys in the order of the original's recorded single event. */
@ApiSchema({ name: 'Event' })
@ApiExtraModels(PostImageResponse, VenueResponse)
export class EventResponse {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'example.org?id=6' }) global_id: string;
  @ApiProperty({ type: [String] }) global_id_lineage: string[];
  @ApiProperty({ description: 'Author user id, as a string' }) author: string;
  @ApiProperty({ enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] }) status: string;
  @ApiProperty({ description: 'Publication date, site time zone' }) date: string;
  @ApiProperty() date_utc: string;
  @ApiProperty() modified: string;
  @ApiProperty() modified_utc: string;
  @ApiProperty({ description: 'Permalink a front end serves the event at' }) url: string;
  @ApiProperty() rest_url: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'HTML' }) description: string;
  @ApiProperty({ description: 'HTML' }) excerpt: string;
  @ApiProperty() slug: string;
  @ApiProperty({
    description: 'false, or the image',
    oneOf: [{ type: 'boolean', enum: [false] }, { $ref: getSchemaPath(PostImageResponse) }],
  })
  image: false | PostImageResponse;
  @ApiProperty() all_day: boolean;
  @ApiProperty({ description: 'Wall-clock start in the event time zone' }) start_date: string;
  @ApiProperty({ type: DateDetails }) start_date_details: DateDetails;
  @ApiProperty() end_date: string;
  @ApiProperty({ type: DateDetails }) end_date_details: DateDetails;
  @ApiProperty() utc_start_date: string;
  @ApiProperty({ type: DateDetails }) utc_start_date_details: DateDetails;
  @ApiProperty() utc_end_date: string;
  @ApiProperty({ type: DateDetails }) utc_end_date_details: DateDetails;
  @ApiProperty({ example: 'America/New_York' }) timezone: string;
  @ApiProperty({ example: 'EST' }) timezone_abbr: string;
  @ApiProperty({ example: '$10' }) cost: string;
  @ApiProperty({ type: CostDetails }) cost_details: CostDetails;
  @ApiProperty({ description: 'Event website, or the event URL when none' }) website: string;
  @ApiProperty() show_map: boolean;
  @ApiProperty() show_map_link: boolean;
  @ApiProperty() hide_from_listings: boolean;
  @ApiProperty() sticky: boolean;
  @ApiProperty() featured: boolean;
  @ApiProperty({ type: [EmbeddedTermResponse], description: 'Category term objects' }) categories: EmbeddedTermResponse[];
  @ApiProperty({ type: [EmbeddedTermResponse], description: 'Tag term objects' }) tags: EmbeddedTermResponse[];
  @ApiProperty({
    description: 'A venue object, [] when none, an array of venues when several',
    oneOf: [{ $ref: getSchemaPath(VenueResponse) }, { type: 'array', items: { $ref: getSchemaPath(VenueResponse) } }],
  })
  venue: VenueResponse | VenueResponse[];
  @ApiProperty({ type: [OrganizerResponse], description: 'Organizer objects' }) organizer: OrganizerResponse[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) custom_fields: unknown[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'schema.org Event; single GET only' }) json_ld?: Record<
    string,
    unknown
  >;
  @ApiProperty({
    description: 'false without tickets, else the providers of its tickets, e.g. ["tc", "rsvp"]',
    oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
  })
  ticketed: false | string[];
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The series this event is an occurrence of (GET /events?series=ID lists it), or null',
  })
  series_id: number | null;
  @ApiProperty({
    type: Recurrence,
    nullable: true,
    description: 'The series’ rule, wall-clock dates in the event time zone; null outside a series',
  })
  recurrence: Recurrence | null;
}

@ApiSchema({ name: 'EventList' })
export class EventListResponse {
  @ApiProperty({ type: [EventResponse] }) events: EventResponse[];
  @ApiProperty() rest_url: string;
  @ApiPropertyOptional() next_rest_url?: string;
  @ApiPropertyOptional() previous_rest_url?: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
}
