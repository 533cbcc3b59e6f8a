import { storedAttendeeFields } from '../attendee-questions/attendee-fields';
import type { Attendee } from '../attendees/attendee.entity';
import { toAttendeeResponse } from '../attendees/attendees.mapper';
import { dateDetails, formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import { formatMoneyGrouped, formatMoneyTrimmed } from '../common/money';
import type { RequestContext } from '../auth/request-context';
import { globalIdFields } from '../posts/post-response';
import type { CurrencyConfig } from '../config/app.config';
import type { Event } from '../events/event.entity';
import { capacityDetails, effectiveCapacity, PoolCounts } from './capacity';
import { CapacityService } from './capacity.service';
import type { TicketCheckinReport, TicketCostDetails, TicketResponse, TicketRsvpReport } from './dto/ticket.response';
import type { Ticket } from './ticket.entity';

/** Everything one ticket response is built from; loaded in bulk for a page. */
export interface TicketView {
  ticket: Ticket;
  event: Pick<Event, 'id' | 'timezone'>;
  pool: PoolCounts | null;
  /** The attendees the caller may see: all of them for managers, the public ones otherwise. */
  attendees: Attendee[];
  /** Whether the caller manages the ticket's event (`canManageEvent`). */
  manage: boolean;
}

/**
 * Where the object is shown: `list` (GET /tickets), `single` (GET /tickets/{id}) or `write` (the
 * answer to a create, update or delete). Managers get `fees` on reads, and the editing fields
 * (`capacity_type`, `sku`, ...) on single reads only, as the original.
 */
export type TicketResponseKind = 'list' | 'single' | 'write';

export interface TicketMappingOptions {
  currency: CurrencyConfig;
  kind: TicketResponseKind;
}

const DECIMAL_SEPARATOR = '.';
const THOUSAND_SEPARATOR = ',';

/** "$25.00" (prefix) or "25.00€" (postfix), as the original formats a ticket cost, with the currency's decimals. */
export function formatTicketCost(priceMinor: number, currency: CurrencyConfig): string {
  const amount = formatMoneyGrouped(priceMinor, currency.exponent, THOUSAND_SEPARATOR);
  return currency.position === 'prefix' ? `${currency.symbol}${amount}` : `${amount}${currency.symbol}`;
}

function costDetails(priceMinor: number, currency: CurrencyConfig): TicketCostDetails {
  return {
    currency_symbol: currency.symbol,
    currency_position: currency.position,
    values: [formatMoneyTrimmed(priceMinor, currency.exponent)],
    suffix: null,
    currency_decimal_separator: DECIMAL_SEPARATOR,
    currency_decimal_numbers: currency.exponent,
    currency_thousand_separator: THOUSAND_SEPARATOR,
  };
}

/** Percentages round the checked-in share up; a ticket without attendees reports 100 / 0, as recorded. */
export function checkinReport(attendees: Attendee[]): TicketCheckinReport {
  const checkedIn = attendees.filter((attendee) => attendee.checkedIn).length;
  const total = attendees.length;
  const checkedInPercentage = total === 0 ? 100 : Math.ceil((100 * checkedIn) / total);
  return {
    checked_in: checkedIn,
    unchecked_in: total - checkedIn,
    checked_in_percentage: checkedInPercentage,
    unchecked_in_percentage: 100 - checkedInPercentage,
  };
}

function rsvpReport(attendees: Attendee[]): TicketRsvpReport {
  return {
    rsvp_going: attendees.filter((attendee) => attendee.rsvpGoing === true).length,
    rsvp_not_going: attendees.filter((attendee) => attendee.rsvpGoing === false).length,
  };
}

function wallClock(instant: Date | null, zone: ReturnType<typeof resolveTimeZone>): string {
  return instant ? formatInZone(instant, zone ?? 'UTC') : '';
}

/** The ticket object for the caller of `context`; what `view.manage` and `options.kind` add is described on them. */
export function toTicketResponse(view: TicketView, context: RequestContext, options: TicketMappingOptions): TicketResponse {
  const { ticket, event, manage } = view;
  const eventZone = resolveTimeZone(event.timezone);
  const siteZone = resolveTimeZone(context.siteTimezone) ?? 'UTC';
  const state = CapacityService.stateOf(ticket, view.pool ?? undefined);
  const details = capacityDetails(state);
  const capacity = effectiveCapacity(state);
  const availableFrom = wallClock(ticket.saleStartUtc, eventZone);
  const availableUntil = wallClock(ticket.saleEndUtc, eventZone);
  const isTicketsCommerce = ticket.provider === 'tc';
  const fields = storedAttendeeFields(ticket.attendeeInformationFields);

  const attendees = view.attendees.map((attendee) =>
    toAttendeeResponse(attendee, ticket, context, { manage, currency: options.currency, eventTimezone: event.timezone }),
  );
  return {
    description: ticket.description ?? '',
    capacity: capacity === undefined ? '' : capacity,
    on_sale: isTicketsCommerce ? false : null,
    iac: ticket.iac,
    price_suffix: null,
    post_id: ticket.eventId,
    provider: ticket.provider,
    id: ticket.id,
    type: 'default',
    ...globalIdFields(context, ticket.id, ticket.provider),
    author: String(ticket.authorId ?? 0),
    status: ticket.status,
    date: formatInZone(ticket.publishedAt, siteZone),
    date_utc: formatInZone(ticket.publishedAt),
    modified: formatInZone(ticket.updatedAt, siteZone),
    modified_utc: formatInZone(ticket.updatedAt),
    title: ticket.name,
    image: false,
    available_from: availableFrom,
    available_from_details: dateDetails(availableFrom),
    available_until: availableUntil,
    available_until_details: dateDetails(availableUntil),
    capacity_details: manage ? details : { available_percentage: details.available_percentage, available: details.available },
    is_available: details.available_percentage > 0,
    cost: formatTicketCost(ticket.priceMinor, options.currency),
    cost_details: costDetails(ticket.priceMinor, options.currency),
    sale_price_data: isTicketsCommerce ? { enabled: '', sale_price: '', start_date: '', end_date: '' } : [],
    // A ticket without questions keeps the recorded shape of the original without Event Tickets Plus.
    ...(fields.length === 0
      ? { supports_attendee_information: false as const }
      : {
          supports_attendee_information: true as const,
          requires_attendee_information: fields.some((field) => field.required),
          attendee_information_fields: fields,
        }),
    ...(manage && ticket.hiddenWithoutCoupon ? { hidden_without_coupon: true } : {}),
    attendees,
    ...(manage && ticket.provider === 'rsvp' ? { rsvp: rsvpReport(view.attendees) } : {}),
    ...(manage ? { checkin: checkinReport(view.attendees) } : {}),
    rest_url: context.namespaceUrl('tickets', `tickets/${ticket.id}`),
    ...(manage && options.kind !== 'write' ? { fees: { available_fees: [], automatic_fees: [], selected_fees: [] } } : {}),
    ...(manage && options.kind === 'single'
      ? {
          capacity_type: ticket.capacityMode,
          sku: ticket.sku ?? '',
          available_from_start_time: availableFrom.slice(11),
          available_from_end_time: availableUntil.slice(11),
          totals: { stock: details.available, sold: ticket.sold, pending: ticket.pending },
          waitlist: { enabled: ticket.waitlist, auto_offer: ticket.waitlistAutoOffer },
        }
      : {}),
  };
}
