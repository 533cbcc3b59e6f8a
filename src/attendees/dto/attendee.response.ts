import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { DateDetails } from '../../common/dates/date-format';

/** How the site shows money; the decimal and thousands separators are fixed. */
@ApiSchema({ name: 'CurrencyConfig' })
export class AttendeeCurrencyConfig {
  @ApiProperty({ example: '$' }) symbol: string;
  @ApiProperty({ enum: ['prefix', 'postfix'] }) placement: 'prefix' | 'postfix';
  @ApiProperty({ example: '.' }) decimal_point: string;
  @ApiProperty({ example: ',' }) thousands_sep: string;
  @ApiProperty({ example: 2, description: "The currency's decimals (ISO 4217: 0 for JPY, 3 for KWD)" }) number_of_decimals: number;
}

/** The ticket as the original shows it inside an attendee object. */
@ApiSchema({ name: 'AttendeeTicket' })
export class AttendeeTicket {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ example: '25', description: 'Price without trailing zeros' }) raw_price: string;
  @ApiProperty({ example: '1,025.00', description: "The currency's decimals and thousands separators" }) formatted_price: string;
  @ApiProperty({ type: AttendeeCurrencyConfig }) currency_config: AttendeeCurrencyConfig;
  @ApiProperty({ example: '2026-11-01', description: "Start of sale (date in the event's time zone), '' when open" }) start_sale: string;
  @ApiProperty({ example: '2027-01-15', description: "End of sale, '' when open" }) end_sale: string;
}

@ApiSchema({ name: 'CheckinDetails' })
export class CheckinDetails {
  @ApiProperty({ description: 'Site time zone' }) date: string;
  @ApiProperty({ type: DateDetails }) date_details: DateDetails;
  @ApiProperty({ enum: ['site', 'app'], description: '`site` (the API) or `app` (a QR scan)' }) source: string;
  @ApiProperty({ description: 'Id of the user who checked in, as a string' }) author: string;
}

@ApiSchema({ name: 'PaymentDetails' })
export class PaymentDetails {
  @ApiProperty({ example: 'tc' }) provider: string;
  @ApiProperty({ example: '25' }) price: string;
  @ApiProperty({ example: '$' }) currency: string;
  @ApiProperty() date: string;
  @ApiProperty({ type: DateDetails }) date_details: DateDetails;
}

/**
 * The attendee object, keys in the original's order. The keys from `provider` on are shown only to
 * managers of the attendee's event; `title` is left out of public views of opted-out attendees.
 */
@ApiSchema({ name: 'Attendee' })
export class AttendeeResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'Event id' }) post_id: number;
  @ApiProperty() ticket_id: number;
  @ApiProperty({ example: 'example.org?type=attendee&id=11' }) global_id: string;
  @ApiProperty({ type: [String] }) global_id_lineage: string[];
  @ApiProperty({ description: "Buyer's user id as a string, '0' for guests" }) author: string;
  @ApiProperty({ example: 'publish' }) status: string;
  @ApiProperty({ description: 'Creation date, site time zone' }) date: string;
  @ApiProperty() date_utc: string;
  @ApiProperty() modified: string;
  @ApiProperty() modified_utc: string;
  @ApiProperty() rest_url: string;
  @ApiProperty({ type: AttendeeTicket }) ticket: AttendeeTicket;
  @ApiPropertyOptional({ description: "Holder's name; left out of public views of opted-out attendees" }) title?: string;
  @ApiProperty() optout: boolean;
  @ApiPropertyOptional({ description: 'Managers only', enum: ['rsvp', 'tc'] }) provider?: string;
  @ApiPropertyOptional({ description: 'Managers only: order id' }) order?: number;
  @ApiPropertyOptional({ description: 'Managers only' }) sku?: string;
  @ApiPropertyOptional({ description: 'Managers only' }) email?: string;
  @ApiPropertyOptional({ description: 'Managers only' }) checked_in?: boolean;
  @ApiPropertyOptional({
    description: 'Managers only: false, or the check-in',
    oneOf: [{ type: 'boolean', enum: [false] }, { $ref: '#/components/schemas/CheckinDetails' }],
  })
  checkin_details?: false | CheckinDetails;
  @ApiPropertyOptional({ description: 'Managers only', enum: [false] }) is_subscribed?: false;
  @ApiPropertyOptional({ description: 'Managers only', enum: [true] }) is_purchaser?: true;
  @ApiPropertyOptional({ description: 'Managers only: the older security code (POST /qr still accepts it)' }) security_code?: string;
  @ApiPropertyOptional({ description: 'Managers and the buyer: what the QR code holds, redeemed at the door (docs/checkin.md)' })
  checkin_secret?: string;
  @ApiPropertyOptional({ description: 'Managers and the buyer: the secret was revoked (order cancelled, refunded or expired)' })
  checkin_secret_revoked?: boolean;
  @ApiPropertyOptional({ description: 'Managers only, RSVP attendees' }) rsvp_going?: boolean;
  @ApiPropertyOptional({ description: 'Managers only, paid (tc) attendees', type: PaymentDetails }) payment?: PaymentDetails;
  @ApiPropertyOptional({ description: 'Managers and the buyer, when bought with a coupon: its code' }) coupon?: string;
  @ApiPropertyOptional({
    description: 'Managers and the buyer, when bought with a coupon: what it took off this ticket, with the currency decimals',
    example: '2.50',
  })
  discount?: string;
  @ApiPropertyOptional({
    description: "Managers and the buyer: the attendee's answers to the ticket's questions, by field slug (never shown to the public)",
    type: 'object',
    additionalProperties: true,
  })
  information?: Record<string, unknown>;
}

@ApiSchema({ name: 'AttendeeList' })
export class AttendeeListResponse {
  @ApiProperty({ description: 'This list with the recognised query parameters' }) rest_url: string;
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [AttendeeResponse] }) attendees: AttendeeResponse[];
}

@ApiSchema({ name: 'QrCheckInResult' })
export class QrCheckInResponse {
  @ApiProperty({ example: 'Checked In!' }) msg: string;
  @ApiProperty({ type: AttendeeResponse }) attendee: AttendeeResponse;
}
