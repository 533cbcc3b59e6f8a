import { DateTime } from 'luxon';
import { dateDetails, DateDetails, formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import type { RequestContext } from '../auth/request-context';
import { moneyToCents } from '../common/money';
import { globalIdFields } from '../posts/post-response';
import type { CurrencyConfig } from '../config/app.config';
import type { Ticket } from '../tickets/ticket.entity';
import type { Attendee } from './attendee.entity';

/** How the site shows money; the decimal and thousands separators are fixed. */
export interface AttendeeCurrencyConfig {
  symbol: string;
  placement: 'prefix' | 'postfix';
  decimal_point: string;
  thousands_sep: string;
  number_of_decimals: number;
}

/** The ticket as the original shows it inside an attendee object. */
export interface AttendeeTicketSummary {
  id: number;
  title: string;
  description: string;
  /** The price without trailing zeros ("25", "25.5"). */
  raw_price: string;
  /** Two decimals and thousands separators ("1,025.00"). */
  formatted_price: string;
  currency_config: AttendeeCurrencyConfig;
  /** Sale window as dates (`YYYY-MM-DD`) in the event's time zone; "" when open. */
  start_sale: string;
  end_sale: string;
}

export interface AttendeeCheckinDetails {
  /** Site time zone. */
  date: string;
  date_details: DateDetails;
  /** `site` (the API) or `app` (a QR scan). */
  source: string;
  /** Id of the user who checked the attendee in, as a string. */
  author: string;
}

export interface AttendeePayment {
  provider: string;
  price: string;
  currency: string;
  date: string;
  date_details: DateDetails;
}

/**
 * The attendee object, keys in the original's order. The keys from `provider` on are shown only to
 * managers of the attendee's event; `title` is left out of public views of opted-out attendees.
 */
export interface AttendeeResponse {
  id: number;
  post_id: number;
  ticket_id: number;
  global_id: string;
  global_id_lineage: string[];
  author: string;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  rest_url: string;
  ticket: AttendeeTicketSummary;
  title?: string;
  optout: boolean;
  provider?: string;
  order?: number;
  sku?: string;
  email?: string;
  checked_in?: boolean;
  checkin_details?: false | AttendeeCheckinDetails;
  is_subscribed?: false;
  is_purchaser?: true;
  security_code?: string;
  rsvp_going?: boolean;
  payment?: AttendeePayment;
}

export interface AttendeeMappingOptions {
  /** Whether the caller manages the attendee's event (sees buyer data and check-in). */
  manage: boolean;
  currency: CurrencyConfig;
  /** The event's `timezone`, in which the ticket's sale window is shown. */
  eventTimezone: string;
}

const DECIMAL_POINT = '.';
const THOUSANDS_SEPARATOR = ',';

/** "25.00" → "25", "25.50" → "25.5": the price as the original stores it. */
export function rawPrice(money: string): string {
  const cents = moneyToCents(money) ?? 0;
  const units = Math.floor(cents / 100);
  const fraction = String(cents % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(units) : `${units}${DECIMAL_POINT}${fraction}`;
}

/** "1025.5" → "1,025.50". */
export function formattedPrice(money: string): string {
  const cents = moneyToCents(money) ?? 0;
  const units = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, THOUSANDS_SEPARATOR);
  return `${units}${DECIMAL_POINT}${String(cents % 100).padStart(2, '0')}`;
}

function saleDate(instant: Date | null, eventTimezone: string): string {
  if (!instant) return '';
  const zone = resolveTimeZone(eventTimezone) ?? 'UTC';
  return DateTime.fromJSDate(instant, { zone }).toFormat('yyyy-MM-dd');
}

function currencyConfig(currency: CurrencyConfig): AttendeeCurrencyConfig {
  return {
    symbol: currency.symbol,
    placement: currency.position,
    decimal_point: DECIMAL_POINT,
    thousands_sep: THOUSANDS_SEPARATOR,
    number_of_decimals: 2,
  };
}

function ticketSummary(ticket: Ticket, options: AttendeeMappingOptions): AttendeeTicketSummary {
  return {
    id: ticket.id,
    title: ticket.name,
    description: ticket.description ?? '',
    raw_price: rawPrice(ticket.price),
    formatted_price: formattedPrice(ticket.price),
    currency_config: currencyConfig(options.currency),
    start_sale: saleDate(ticket.saleStartUtc, options.eventTimezone),
    end_sale: saleDate(ticket.saleEndUtc, options.eventTimezone),
  };
}

function checkinDetails(attendee: Attendee, context: RequestContext): false | AttendeeCheckinDetails {
  if (!attendee.checkedIn || !attendee.checkedInAt) return false;
  const date = formatInZone(attendee.checkedInAt, resolveTimeZone(context.siteTimezone) ?? 'UTC');
  return {
    date,
    date_details: dateDetails(date),
    source: attendee.checkinSource ?? 'site',
    author: String(attendee.checkinUserId ?? 0),
  };
}

/** The attendee object for `context.user`; `options.manage` adds the manager-only keys. */
export function toAttendeeResponse(
  attendee: Attendee,
  ticket: Ticket,
  context: RequestContext,
  options: AttendeeMappingOptions,
): AttendeeResponse {
  const siteZone = resolveTimeZone(context.siteTimezone) ?? 'UTC';
  const created = formatInZone(attendee.createdAt, siteZone);
  const response: AttendeeResponse = {
    id: attendee.id,
    post_id: attendee.eventId,
    ticket_id: attendee.ticketId,
    ...globalIdFields(context, attendee.id, 'attendee'),
    author: String(attendee.userId ?? 0),
    status: attendee.status,
    date: created,
    date_utc: formatInZone(attendee.createdAt),
    modified: formatInZone(attendee.updatedAt, siteZone),
    modified_utc: formatInZone(attendee.updatedAt),
    rest_url: context.namespaceUrl('tickets', `attendees/${attendee.id}`),
    ticket: ticketSummary(ticket, options),
    // Opting out hides the name from the public; those who run the event still see who it is.
    ...(!attendee.optout || options.manage ? { title: attendee.holderName } : {}),
    optout: attendee.optout,
  };
  if (!options.manage) return response;

  response.provider = attendee.provider;
  response.order = attendee.orderId;
  response.sku = ticket.sku ?? '';
  response.email = attendee.holderEmail;
  response.checked_in = attendee.checkedIn;
  response.checkin_details = checkinDetails(attendee, context);
  response.is_subscribed = false;
  response.is_purchaser = true;
  response.security_code = attendee.securityCode;
  if (attendee.provider === 'rsvp') {
    response.rsvp_going = attendee.rsvpGoing === true;
  } else {
    response.payment = {
      provider: attendee.provider,
      price: rawPrice(attendee.pricePaid),
      currency: options.currency.symbol,
      date: created,
      date_details: dateDetails(created),
    };
  }
  return response;
}
