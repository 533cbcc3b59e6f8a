import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'TecRendered' })
export class TecRendered {
  @ApiProperty({ description: 'HTML' }) rendered: string;
}

@ApiSchema({ name: 'TecRenderedContent' })
export class TecRenderedContent {
  @ApiProperty({ description: 'HTML' }) rendered: string;
  @ApiProperty({ description: 'Whether the post is password protected (never, here)' }) protected: boolean;
}

/** PHP's `DateTime` as JSON, as TEC's `dates` object holds it. */
@ApiSchema({ name: 'TecDateTime' })
export class TecDateTime {
  @ApiProperty({ example: '2027-01-15 09:00:00.000000' }) date: string;
  @ApiProperty({ example: 3, description: '3: a zone name' }) timezone_type: number;
  @ApiProperty({ example: 'Europe/Athens' }) timezone: string;
}

/** The WordPress posts-controller output every tec/v1 entity starts with, keys in WordPress's order. */
export class TecPostResponse {
  @ApiProperty({ example: 123 }) id: number;
  @ApiProperty({ description: 'Publication date, site time zone', example: '2025-06-13T17:25:00' }) date: string;
  @ApiProperty({ description: 'Publication date, UTC', example: '2025-06-13T17:25:00' }) date_gmt: string;
  @ApiProperty({ type: TecRendered }) guid: TecRendered;
  @ApiProperty({ example: '2025-06-13T17:25:00' }) modified: string;
  @ApiProperty({ example: '2025-06-13T17:25:00' }) modified_gmt: string;
  @ApiProperty({ example: 'past-conference-2023' }) slug: string;
  @ApiProperty({ enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] }) status: string;
  @ApiProperty({ enum: ['tribe_events', 'tribe_venue', 'tribe_organizer', 'tec_tc_ticket'] }) type: string;
  @ApiProperty({ description: 'Permalink' }) link: string;
  @ApiProperty({ type: TecRendered }) title: TecRendered;
  @ApiProperty({ type: TecRenderedContent }) content: TecRenderedContent;
}

/** Venues, organizers and events: the post envelope with its excerpt, author and media. */
export class TecLinkedPostEnvelope extends TecPostResponse {
  @ApiProperty({ type: TecRenderedContent }) excerpt: TecRenderedContent;
  @ApiProperty({ description: 'Author user id (0: none)' }) author: number;
  @ApiProperty({ description: 'Always 0: images are URLs here, not media library items' }) featured_media: number;
  @ApiProperty({ example: '' }) template: string;
}

@ApiSchema({ name: 'TecVenue' })
export class TecVenueResponse extends TecLinkedPostEnvelope {
  @ApiProperty() address: string;
  @ApiProperty() country: string;
  @ApiProperty() city: string;
  @ApiProperty({ description: 'State or province as shown' }) state_province: string;
  @ApiProperty() state: string;
  @ApiProperty() province: string;
  @ApiProperty() zip: string;
  @ApiProperty() phone: string;
  @ApiProperty({ description: 'Google Maps link for the address ("" without one)' }) directions_link: string;
  @ApiProperty() website: string;
}

@ApiSchema({ name: 'TecOrganizer' })
export class TecOrganizerResponse extends TecLinkedPostEnvelope {
  @ApiProperty() phone: string;
  @ApiProperty() website: string;
  @ApiProperty() email: string;
}

@ApiSchema({ name: 'TecEventDates' })
export class TecEventDates {
  @ApiProperty({ type: TecDateTime, description: 'Start in the event time zone' }) start: TecDateTime;
  @ApiProperty({ type: TecDateTime }) start_utc: TecDateTime;
  @ApiProperty({ type: TecDateTime, description: 'Start in the site time zone' }) start_site: TecDateTime;
  @ApiProperty({ type: TecDateTime, description: 'Start as displayed (the event time zone)' }) start_display: TecDateTime;
  @ApiProperty({ type: TecDateTime }) end: TecDateTime;
  @ApiProperty({ type: TecDateTime }) end_utc: TecDateTime;
  @ApiProperty({ type: TecDateTime }) end_site: TecDateTime;
  @ApiProperty({ type: TecDateTime }) end_display: TecDateTime;
}

@ApiSchema({ name: 'TecEvent' })
export class TecEventResponse extends TecLinkedPostEnvelope {
  @ApiProperty({ type: [Number], description: 'Tag ids' }) tags: number[];
  @ApiProperty({ type: [Number], description: 'Event category ids' }) tribe_events_cat: number[];
  @ApiProperty({ type: [String], example: ['post-123', 'tribe_events', 'type-tribe_events', 'status-publish', 'hentry'] })
  class_list: string[];
  @ApiProperty({ description: 'Wall-clock start, event time zone', example: '2023-01-15 09:00:00' }) start_date: string;
  @ApiProperty() start_date_utc: string;
  @ApiProperty() end_date: string;
  @ApiProperty() end_date_utc: string;
  @ApiProperty({ type: TecEventDates }) dates: TecEventDates;
  @ApiProperty({ example: 'UTC' }) timezone: string;
  @ApiProperty({ description: 'Seconds, as a string (as TEC sends it)', example: '28800' }) duration: string;
  @ApiProperty() multiday: boolean;
  @ApiProperty() is_past: boolean;
  @ApiProperty() is_now: boolean;
  @ApiProperty() all_day: boolean;
  @ApiProperty({ nullable: true, type: Boolean, description: 'Always null, as TEC outside its week views' }) starts_this_week: null;
  @ApiProperty({ nullable: true, type: Boolean }) ends_this_week: null;
  @ApiProperty({ nullable: true, type: Number }) this_week_duration: null;
  @ApiProperty({ nullable: true, type: Boolean }) happens_this_week: null;
  @ApiProperty({ type: [String] }) displays_on: string[];
  @ApiProperty() featured: boolean;
  @ApiProperty() sticky: boolean;
  @ApiProperty({ example: '$99.00' }) cost: string;
  @ApiProperty({ type: [String] }) organizer_names: string[];
  @ApiProperty({ type: [TecOrganizerResponse] }) organizers: TecOrganizerResponse[];
  @ApiProperty({ type: [TecVenueResponse] }) venues: TecVenueResponse[];
  @ApiProperty({ description: 'HTML' }) schedule_details: string;
  @ApiProperty({ description: 'HTML' }) short_schedule_details: string;
  @ApiProperty({
    description: 'false without tickets, else the providers of its tickets, e.g. ["tc"]',
    oneOf: [
      { type: 'boolean', enum: [false] },
      { type: 'array', items: { type: 'string' } },
    ],
  })
  ticketed: false | string[];
}

/** A Tickets Commerce ticket. Sale prices are not offered here: `sale_price` is null and `on_sale` false. */
@ApiSchema({ name: 'TecTicket' })
export class TecTicketResponse extends TecPostResponse {
  @ApiProperty({ example: '' }) template: string;
  @ApiProperty({ description: 'Plain text' }) description: string;
  @ApiProperty() on_sale: boolean;
  @ApiProperty({ nullable: true, type: Number }) sale_price: number | null;
  @ApiProperty({ example: 25 }) price: number;
  @ApiProperty({ example: 25 }) regular_price: number;
  @ApiProperty() show_description: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Sale start, event time zone; null when open', example: '2020-01-02 08:00:00' })
  start_date: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Sale end, event time zone; null when open' }) end_date: string | null;
  @ApiProperty({ nullable: true, type: String }) sale_price_start_date: null;
  @ApiProperty({ nullable: true, type: String }) sale_price_end_date: null;
  @ApiProperty() event_id: number;
  @ApiProperty({ description: 'false for unlimited tickets' }) manage_stock: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'Units left; null when unlimited' }) stock: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Units sold; null for callers who do not manage the event' }) sold:
    number | null;
  @ApiProperty({ description: '"" for callers who do not manage the event' }) sku: string;
}
