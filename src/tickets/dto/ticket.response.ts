import { AttendeeInformationField } from '../../attendee-questions/dto/attendee-information.dto';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { AttendeeResponse } from '../../attendees/dto/attendee.response';
import { DateDetails } from '../../common/dates/date-format';
import type { CapacityMode, TicketProvider } from '../ticket.entity';

@ApiSchema({ name: 'TicketCapacityDetails' })
export class TicketCapacityDetails {
  @ApiProperty({ description: '100 when unlimited; else floor(available / capacity * 100)' }) available_percentage: number;
  @ApiProperty({ description: 'Units left; -1 when unlimited' }) available: number;
  @ApiPropertyOptional({ description: 'Managers only: the capacity (0 when unlimited)' }) max?: number;
  @ApiPropertyOptional({ description: 'Managers only: units in completed orders and RSVP yes answers' }) sold?: number;
  @ApiPropertyOptional({ description: 'Managers only: units held by unpaid orders' }) pending?: number;
  @ApiPropertyOptional({ description: 'Managers only; "" for unlimited tickets', enum: ['own', 'capped', 'global', ''] })
  global_stock_mode?: Exclude<CapacityMode, 'unlimited'> | '';
}

@ApiSchema({ name: 'TicketCostDetails' })
export class TicketCostDetails {
  @ApiProperty({ example: '$' }) currency_symbol: string;
  @ApiProperty({ enum: ['prefix', 'postfix'] }) currency_position: 'prefix' | 'postfix';
  @ApiProperty({ type: [String], example: ['25'] }) values: string[];
  @ApiProperty({ nullable: true, type: String }) suffix: null;
  @ApiProperty({ example: '.' }) currency_decimal_separator: string;
  @ApiProperty({ example: 2, description: "The currency's decimals (ISO 4217: 0 for JPY, 3 for KWD)" }) currency_decimal_numbers: number;
  @ApiProperty({ example: ',' }) currency_thousand_separator: string;
}

@ApiSchema({ name: 'TicketCheckinReport' })
export class TicketCheckinReport {
  @ApiProperty() checked_in: number;
  @ApiProperty() unchecked_in: number;
  @ApiProperty({ description: 'Rounded up; 100 when there are no attendees' }) checked_in_percentage: number;
  @ApiProperty() unchecked_in_percentage: number;
}

@ApiSchema({ name: 'TicketRsvpReport' })
export class TicketRsvpReport {
  @ApiProperty() rsvp_going: number;
  @ApiProperty() rsvp_not_going: number;
}

/** A ticket's waitlist switches, as its managers see them. */
@ApiSchema({ name: 'TicketWaitlistSettings' })
export class TicketWaitlistSettings {
  @ApiProperty({ description: 'People may join the waitlist once the ticket is sold out' }) enabled: boolean;
  @ApiProperty({ description: 'Units that come back are offered to the waitlist automatically' }) auto_offer: boolean;
}

@ApiSchema({ name: 'TicketTotals' })
export class TicketTotals {
  @ApiProperty({ description: 'Units left; -1 when unlimited' }) stock: number;
  @ApiProperty() sold: number;
  @ApiProperty() pending: number;
}

/** Sale prices are not offered: a Tickets Commerce ticket shows this, all empty. */
@ApiSchema({ name: 'TicketSalePriceData' })
export class TicketSalePriceData {
  @ApiProperty({ example: '' }) enabled: string;
  @ApiProperty({ example: '' }) sale_price: string;
  @ApiProperty({ example: '' }) start_date: string;
  @ApiProperty({ example: '' }) end_date: string;
}

/** Fees are not offered: every list is empty. */
@ApiSchema({ name: 'TicketFees' })
export class TicketFees {
  @ApiProperty({ type: 'array', items: {}, example: [] }) available_fees: never[];
  @ApiProperty({ type: 'array', items: {}, example: [] }) automatic_fees: never[];
  @ApiProperty({ type: 'array', items: {}, example: [] }) selected_fees: never[];
}

/** The ticket object, keys in the recorded order (responses 29, 30, 32–35). */
@ApiSchema({ name: 'Ticket' })
@ApiExtraModels(TicketSalePriceData)
export class TicketResponse {
  @ApiProperty({ description: 'Plain text' }) description: string;
  @ApiProperty({ description: 'The capacity; "" when unlimited', oneOf: [{ type: 'integer' }, { type: 'string', enum: [''] }] }) capacity:
    number | '';
  @ApiProperty({ nullable: true, type: Boolean, description: 'tc: false (sale prices are not offered); rsvp: null' }) on_sale:
    boolean | null;
  @ApiProperty({ enum: ['none', 'allowed', 'required'] }) iac: string;
  @ApiProperty({ nullable: true, type: String }) price_suffix: null;
  @ApiProperty({ description: 'The event id' }) post_id: number;
  @ApiProperty({ enum: ['rsvp', 'tc'] }) provider: TicketProvider;
  @ApiProperty() id: number;
  @ApiProperty({ example: 'default' }) type: 'default';
  @ApiProperty({ example: 'example.org?type=tc&id=10' }) global_id: string;
  @ApiProperty({ type: [String] }) global_id_lineage: string[];
  @ApiProperty({ description: 'Creator user id, as a string' }) author: string;
  @ApiProperty({ example: 'publish' }) status: string;
  @ApiProperty({ description: 'Creation date, site time zone' }) date: string;
  @ApiProperty() date_utc: string;
  @ApiProperty() modified: string;
  @ApiProperty() modified_utc: string;
  @ApiProperty({ description: 'The ticket name' }) title: string;
  @ApiProperty({ example: false }) image: false;
  @ApiProperty({ description: 'Sale start, wall-clock time in the event time zone; "" when open' }) available_from: string;
  @ApiProperty({ type: DateDetails }) available_from_details: DateDetails;
  @ApiProperty({ description: 'Sale end, wall-clock time in the event time zone; "" when open' }) available_until: string;
  @ApiProperty({ type: DateDetails }) available_until_details: DateDetails;
  @ApiProperty({ type: TicketCapacityDetails }) capacity_details: TicketCapacityDetails;
  @ApiProperty({ description: 'Whether units are left (sale dates are not considered)' }) is_available: boolean;
  @ApiProperty({ example: '$25.00', description: "The price with the currency's decimals and symbol" }) cost: string;
  @ApiProperty({ type: TicketCostDetails }) cost_details: TicketCostDetails;
  @ApiProperty({
    description: 'tc: {enabled, sale_price, start_date, end_date}; rsvp: []',
    oneOf: [{ $ref: getSchemaPath(TicketSalePriceData) }, { type: 'array', items: {}, maxItems: 0 }],
  })
  sale_price_data: TicketSalePriceData | never[];
  @ApiProperty({
    example: true,
    description: 'true when the ticket asks attendee questions (then with the two fields below, as the original with Event Tickets Plus)',
  })
  supports_attendee_information: boolean;
  @ApiPropertyOptional({ description: 'Tickets with questions: whether some question is required' })
  requires_attendee_information?: boolean;
  @ApiPropertyOptional({ type: [AttendeeInformationField], description: 'Tickets with questions: the questions, in order' })
  attendee_information_fields?: AttendeeInformationField[];
  @ApiPropertyOptional({ description: 'Managers only, present (true) on tickets listed and sold only with a revealing coupon' })
  hidden_without_coupon?: boolean;
  @ApiProperty({
    type: [AttendeeResponse],
    description: 'Attendee objects: all for managers; for others the public ones of events that show their list',
  })
  attendees: AttendeeResponse[];
  @ApiPropertyOptional({ type: TicketRsvpReport, description: 'RSVP tickets, managers only' }) rsvp?: TicketRsvpReport;
  @ApiPropertyOptional({ type: TicketCheckinReport, description: 'Managers only' }) checkin?: TicketCheckinReport;
  @ApiProperty() rest_url: string;
  @ApiPropertyOptional({ type: TicketFees, description: 'Managers, on reads' }) fees?: TicketFees;
  @ApiPropertyOptional({ enum: ['own', 'capped', 'global', 'unlimited'], description: 'Managers, single GET only' })
  capacity_type?: CapacityMode;
  @ApiPropertyOptional({ description: 'Managers, single GET only' }) sku?: string;
  @ApiPropertyOptional({ description: 'Managers, single GET only: time of day the sale starts' }) available_from_start_time?: string;
  @ApiPropertyOptional({ description: 'Managers, single GET only: time of day the sale ends' }) available_from_end_time?: string;
  @ApiPropertyOptional({ type: TicketTotals, description: 'Managers, single GET only' }) totals?: TicketTotals;
  @ApiPropertyOptional({ type: TicketWaitlistSettings, description: 'Managers, single GET only (docs/waitlist.md)' })
  waitlist?: TicketWaitlistSettings;
}

@ApiSchema({ name: 'TicketList' })
export class TicketListResponse {
  @ApiProperty({ description: 'The collection URL with the recognised query parameters' }) rest_url: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [TicketResponse] }) tickets: TicketResponse[];
}
