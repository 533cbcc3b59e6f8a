import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { DateDetailsDoc } from '../../events/dto/event.response';

@ApiSchema({ name: 'TicketCapacityDetails' })
export class TicketCapacityDetailsDoc {
  @ApiProperty({ description: '100 when unlimited; else floor(available / capacity * 100)' }) available_percentage: number;
  @ApiProperty({ description: 'Units left; -1 when unlimited' }) available: number;
  @ApiPropertyOptional({ description: 'Managers only: the capacity (0 when unlimited)' }) max?: number;
  @ApiPropertyOptional({ description: 'Managers only: units in completed orders and RSVP yes answers' }) sold?: number;
  @ApiPropertyOptional({ description: 'Managers only: units held by unpaid orders' }) pending?: number;
  @ApiPropertyOptional({ description: 'Managers only; "" for unlimited tickets', enum: ['own', 'capped', 'global', ''] })
  global_stock_mode?: string;
}

@ApiSchema({ name: 'TicketCostDetails' })
export class TicketCostDetailsDoc {
  @ApiProperty({ example: '$' }) currency_symbol: string;
  @ApiProperty({ enum: ['prefix', 'postfix'] }) currency_position: string;
  @ApiProperty({ type: [String], example: ['25'] }) values: string[];
  @ApiProperty({ nullable: true, type: String }) suffix: null;
  @ApiProperty({ example: '.' }) currency_decimal_separator: string;
  @ApiProperty({ example: 2 }) currency_decimal_numbers: number;
  @ApiProperty({ example: ',' }) currency_thousand_separator: string;
}

@ApiSchema({ name: 'TicketCheckinReport' })
export class TicketCheckinReportDoc {
  @ApiProperty() checked_in: number;
  @ApiProperty() unchecked_in: number;
  @ApiProperty({ description: 'Rounded up; 100 when there are no attendees' }) checked_in_percentage: number;
  @ApiProperty() unchecked_in_percentage: number;
}

@ApiSchema({ name: 'TicketRsvpReport' })
export class TicketRsvpReportDoc {
  @ApiProperty() rsvp_going: number;
  @ApiProperty() rsvp_not_going: number;
}

@ApiSchema({ name: 'TicketTotals' })
export class TicketTotalsDoc {
  @ApiProperty({ description: 'Units left; -1 when unlimited' }) stock: number;
  @ApiProperty() sold: number;
  @ApiProperty() pending: number;
}

/** The ticket object (OpenAPI view of `TicketResponse` in tickets.mapper.ts). */
@ApiSchema({ name: 'Ticket' })
export class TicketResponseDoc {
  @ApiProperty({ description: 'Plain text' }) description: string;
  @ApiProperty({ description: 'The capacity; "" when unlimited', oneOf: [{ type: 'integer' }, { type: 'string', enum: [''] }] }) capacity:
    number | string;
  @ApiProperty({ nullable: true, type: Boolean, description: 'tc: false (sale prices are not offered); rsvp: null' }) on_sale:
    boolean | null;
  @ApiProperty({ enum: ['none', 'allowed', 'required'] }) iac: string;
  @ApiProperty({ nullable: true, type: String }) price_suffix: null;
  @ApiProperty({ description: 'The event id' }) post_id: number;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: string;
  @ApiProperty() id: number;
  @ApiProperty({ example: 'default' }) type: string;
  @ApiProperty({ example: 'example.org?type=tc&id=10' }) global_id: string;
  @ApiProperty({ type: [String] }) global_id_lineage: string[];
  @ApiProperty({ description: 'Creator user id, as a string' }) author: string;
  @ApiProperty({ example: 'publish' }) status: string;
  @ApiProperty({ description: 'Creation date, site time zone' }) date: string;
  @ApiProperty() date_utc: string;
  @ApiProperty() modified: string;
  @ApiProperty() modified_utc: string;
  @ApiProperty({ description: 'The ticket name' }) title: string;
  @ApiProperty({ example: false }) image: boolean;
  @ApiProperty({ description: 'Sale start, wall-clock time in the event time zone; "" when open' }) available_from: string;
  @ApiProperty({ type: DateDetailsDoc }) available_from_details: DateDetailsDoc;
  @ApiProperty({ description: 'Sale end, wall-clock time in the event time zone; "" when open' }) available_until: string;
  @ApiProperty({ type: DateDetailsDoc }) available_until_details: DateDetailsDoc;
  @ApiProperty({ type: TicketCapacityDetailsDoc }) capacity_details: TicketCapacityDetailsDoc;
  @ApiProperty({ description: 'Whether units are left (sale dates are not considered)' }) is_available: boolean;
  @ApiProperty({ example: '$25.00' }) cost: string;
  @ApiProperty({ type: TicketCostDetailsDoc }) cost_details: TicketCostDetailsDoc;
  @ApiProperty({
    description: 'tc: {enabled, sale_price, start_date, end_date}; rsvp: []',
    oneOf: [{ type: 'object' }, { type: 'array', items: {} }],
  })
  sale_price_data: unknown;
  @ApiProperty({ example: false }) supports_attendee_information: boolean;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'Attendee objects: all for managers; for others the public ones of events that show their list',
  })
  attendees: unknown[];
  @ApiPropertyOptional({ type: TicketRsvpReportDoc, description: 'RSVP tickets, managers only' }) rsvp?: TicketRsvpReportDoc;
  @ApiPropertyOptional({ type: TicketCheckinReportDoc, description: 'Managers only' }) checkin?: TicketCheckinReportDoc;
  @ApiProperty() rest_url: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Managers, on reads: {available_fees, automatic_fees, selected_fees}',
  })
  fees?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: ['own', 'capped', 'global', 'unlimited'], description: 'Managers, single GET only' }) capacity_type?: string;
  @ApiPropertyOptional({ description: 'Managers, single GET only' }) sku?: string;
  @ApiPropertyOptional({ description: 'Managers, single GET only: time of day the sale starts' }) available_from_start_time?: string;
  @ApiPropertyOptional({ description: 'Managers, single GET only: time of day the sale ends' }) available_from_end_time?: string;
  @ApiPropertyOptional({ type: TicketTotalsDoc, description: 'Managers, single GET only' }) totals?: TicketTotalsDoc;
}

@ApiSchema({ name: 'TicketList' })
export class TicketListResponse {
  @ApiProperty({ description: 'The collection URL with the recognised query parameters' }) rest_url: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [TicketResponseDoc] }) tickets: TicketResponseDoc[];
}
