import { dateDetails, formatDayInZone, formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import type { RequestContext } from '../auth/request-context';
import { formatMoney, formatMoneyGrouped, formatMoneyTrimmed } from '../common/money';
import { globalIdFields } from '../posts/post-response';
import type { CurrencyConfig } from '../config/app.config';
import type { Ticket } from '../tickets/ticket.entity';
import type { Attendee } from './attendee.entity';
import type { AttendeeCurrencyConfig, AttendeeResponse, AttendeeTicket, CheckinDetails } from './dto/attendee.response';

export interface AttendeeMappingOptions {
  /** Whether the caller manages the attendee's event (sees buyer data and check-in). */
  manage: boolean;
  currency: CurrencyConfig;
  /** The event's `timezone`, in which the ticket's sale window is shown. */
  eventTimezone: string;
}

const DECIMAL_POINT = '.';
const THOUSANDS_SEPARATOR = ',';

function saleDate(instant: Date | null, eventTimezone: string): string {
  if (!instant) return '';
  const zone = resolveTimeZone(eventTimezone) ?? 'UTC';
  return formatDayInZone(instant, zone);
}

function currencyConfig(currency: CurrencyConfig): AttendeeCurrencyConfig {
  return {
    symbol: currency.symbol,
    placement: currency.position,
    decimal_point: DECIMAL_POINT,
    thousands_sep: THOUSANDS_SEPARATOR,
    number_of_decimals: currency.exponent,
  };
}

function ticketSummary(ticket: Ticket, options: AttendeeMappingOptions): AttendeeTicket {
  return {
    id: ticket.id,
    title: ticket.name,
    description: ticket.description ?? '',
    // As the original: the price as it stores it ("25", "25.5"), and formatted with the currency's decimals.
    raw_price: formatMoneyTrimmed(ticket.priceMinor, options.currency.exponent),
    formatted_price: formatMoneyGrouped(ticket.priceMinor, options.currency.exponent, THOUSANDS_SEPARATOR),
    currency_config: currencyConfig(options.currency),
    start_sale: saleDate(ticket.saleStartUtc, options.eventTimezone),
    end_sale: saleDate(ticket.saleEndUtc, options.eventTimezone),
  };
}

function checkinDetails(attendee: Attendee, context: RequestContext): false | CheckinDetails {
  if (!attendee.checkedIn || !attendee.checkedInAt) return false;
  const date = formatInZone(attendee.checkedInAt, resolveTimeZone(context.siteTimezone) ?? 'UTC');
  return {
    date,
    date_details: dateDetails(date),
    source: attendee.checkinSource ?? 'site',
    author: String(attendee.checkinUserId ?? 0),
  };
}

/** The stored registration answers when they are an object of answers by field slug. */
export function storedInformation(meta: string | null): Record<string, unknown> | null {
  if (meta === null) return null;
  try {
    const parsed: unknown = JSON.parse(meta);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
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
  response.checkin_secret = attendee.checkinSecret ?? '';
  response.checkin_secret_revoked = attendee.checkinRevokedAt !== null;
  if (attendee.provider === 'rsvp') {
    response.rsvp_going = attendee.rsvpGoing === true;
  } else {
    response.payment = {
      provider: attendee.provider,
      price: formatMoneyTrimmed(attendee.pricePaidMinor, options.currency.exponent),
      currency: options.currency.symbol,
      date: created,
      date_details: dateDetails(created),
    };
  }
  if (attendee.couponCode) {
    response.coupon = attendee.couponCode;
    response.discount = formatMoney(attendee.discountMinor, options.currency.exponent);
  }
  const information = storedInformation(attendee.meta);
  if (information) response.information = information;
  return response;
}
