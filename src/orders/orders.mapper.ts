import { toAttendeeResponse } from '../attendees/attendees.mapper';
import type { AttendeeResponse } from '../attendees/dto/attendee.response';
import type { Attendee } from '../attendees/attendee.entity';
import { formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import { formatMoney, knownExponent } from '../common/money';
import type { RequestContext } from '../auth/request-context';
import type { CurrencyConfig } from '../config/app.config';
import type { Ticket } from '../tickets/ticket.entity';
import type { OrderResponse } from './dto/order.response';
import type { Order } from './order.entity';

/** What an order response shows besides the order row, loaded in bulk for a whole page. */
export interface OrderRelations {
  /** The order's attendees, lowest id first. */
  attendees: Attendee[];
  tickets: ReadonlyMap<number, Ticket>;
  /** Time zone of each event, for the tickets' sale windows. */
  eventTimezones: ReadonlyMap<number, string>;
}

/**
 * Everyone who may see an order is its buyer or manages its events, and both need the attendees'
 * private fields (buyers print their security codes), so attendees are shown with `manage: true`.
 * An order may hold tickets of several authors' events: `shows` leaves out the attendees of events
 * the reader neither bought nor manages. Dates are wall-clock times in the site time zone, as
 * `date` fields elsewhere.
 */
export function toOrderResponse(
  order: Order,
  relations: OrderRelations,
  context: RequestContext,
  currency: CurrencyConfig,
  shows: (attendee: Attendee) => boolean = () => true,
): OrderResponse {
  const siteZone = resolveTimeZone(context.siteTimezone) ?? 'UTC';
  const attendees: AttendeeResponse[] = [];
  for (const attendee of relations.attendees) {
    const ticket = relations.tickets.get(attendee.ticketId);
    if (!ticket || !shows(attendee)) continue;
    attendees.push(
      toAttendeeResponse(attendee, ticket, context, {
        manage: true,
        currency,
        eventTimezone: relations.eventTimezones.get(attendee.eventId) ?? 'UTC',
      }),
    );
  }
  // The order's own currency, as it was charged (one per deployment: the same as `currency.code`).
  const exponent = knownExponent(order.currency);
  const response: OrderResponse = {
    id: order.id,
    status: order.status,
    provider: order.provider,
    total: formatMoney(order.totalMinor, exponent),
    currency: order.currency,
    payment_method: order.paymentMethod,
    purchaser: { name: order.purchaserName, email: order.purchaserEmail },
    attendees,
    created: formatInZone(order.createdAt, siteZone),
  };
  if (order.status === 'pending' && order.expiresAt) response.expires = formatInZone(order.expiresAt, siteZone);
  if (order.couponCode) {
    response.coupon = order.couponCode;
    response.discount = formatMoney(order.discountMinor, exponent);
  }
  return response;
}
