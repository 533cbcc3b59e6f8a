import type { Attendee } from '../attendees/attendee.entity';
import { formatMoney, knownExponent } from '../common/money';
import type { Order } from '../orders/order.entity';
import type { Ticket } from '../tickets/ticket.entity';
import type { DoorSaleResponse, SaleTicketResponse } from './dto/door-sale.response';

/** A ticket on sale at the door; `available` -1 (unlimited) reads null. */
export function toSaleTicket(ticket: Ticket, available: number, currency: string): SaleTicketResponse {
  return {
    id: ticket.id,
    title: ticket.name,
    price: formatMoney(ticket.priceMinor, knownExponent(currency)),
    currency,
    available: available === -1 ? null : available,
  };
}

/** The answer of a walk-in sale: the order, and each attendee with its QR code text and whether it entered. */
export function toDoorSaleResponse(order: Order, attendees: Attendee[], ticket: Ticket, admitted: boolean[]): DoorSaleResponse {
  return {
    status: 'ok',
    order: {
      id: order.id,
      total: formatMoney(order.totalMinor, knownExponent(order.currency)),
      currency: order.currency,
      payment_method: order.paymentMethod as DoorSaleResponse['order']['payment_method'],
      status: order.status,
    },
    attendees: attendees.map((attendee, index) => ({
      id: attendee.id,
      name: attendee.holderName,
      ticket_id: attendee.ticketId,
      ticket_title: ticket.name,
      checkin_secret: attendee.checkinSecret ?? '',
      checked_in: admitted[index] === true,
    })),
  };
}
