import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Attendee } from '../../src/attendees/attendee.entity';
import { Event } from '../../src/events/event.entity';
import { Order, OrderItem, OrderStatus } from '../../src/orders/order.entity';
import { Ticket, TicketProvider } from '../../src/tickets/ticket.entity';
import { insertTicket, usdCents } from './ticketing-fixtures';

/**
 * Ticket, order and attendee rows written straight to the database, so that the attendee
 * specs do not depend on the ticket and checkout routes.
 */

let fixtureCounter = 0;
const next = () => (fixtureCounter += 1);

export interface TicketRowOptions {
  provider: TicketProvider;
  price?: string;
  name?: string;
  iac?: string;
  /** Attendee questions, JSON (src/attendee-questions); null: none. */
  attendeeInformationFields?: string | null;
  sku?: string | null;
  saleStartUtc?: Date | null;
  saleEndUtc?: Date | null;
}

/** A ticket of `event` as the attendee specs use them (100 units, `Ticket N`), through insertTicket. */
export function insertTicketRow(dataSource: DataSource, event: Event, options: TicketRowOptions): Promise<Ticket> {
  return insertTicket(dataSource, {
    eventId: event.id,
    authorId: event.authorId,
    provider: options.provider,
    name: options.name ?? `Ticket ${next()}`,
    description: 'Ticket desc',
    price: options.price ?? (options.provider === 'rsvp' ? '0.00' : '25.00'),
    sku: options.sku ?? null,
    iac: options.iac ?? 'none',
    attendeeInformationFields: options.attendeeInformationFields ?? null,
    saleStartUtc: options.saleStartUtc ?? null,
    saleEndUtc: options.saleEndUtc ?? null,
    capacity: 100,
  });
}

export interface AttendeeRowOptions {
  /** The order's status; RSVP: `yes` or `no` (going or not). */
  orderStatus?: OrderStatus | 'yes' | 'no';
  /** The RSVP answer, when it is not the one `orderStatus` says. */
  rsvpGoing?: boolean | null;
  name?: string;
  email?: string;
  /** The buyer, when not the holder. */
  purchaserName?: string;
  purchaserEmail?: string;
  /** Writes the order's line too (one unit of the ticket). */
  withOrderItem?: boolean;
  checkedInAt?: Date;
  optout?: boolean;
  status?: string;
  /** In US dollars ("25.00"). */
  pricePaid?: string;
  userId?: number | null;
  createdAt?: Date;
  checkedIn?: boolean;
}

/** One attendee of `ticket`, in an order of its own (no capacity is taken): the one way the specs make an attendee without the API. */
export async function insertAttendeeRow(
  dataSource: DataSource,
  ticket: Pick<Ticket, 'id' | 'eventId' | 'provider' | 'priceMinor'>,
  options: AttendeeRowOptions = {},
): Promise<Attendee> {
  const number = next();
  const pricePaidMinor = options.pricePaid === undefined ? ticket.priceMinor : usdCents(options.pricePaid);
  const rsvp = ticket.provider === 'rsvp';
  const orderStatus = options.orderStatus ?? (rsvp ? 'yes' : 'completed');
  const name = options.name ?? `Holder ${number}`;
  const email = options.email ?? `holder${number}@example.org`;
  const order = await dataSource.getRepository(Order).save({
    provider: ticket.provider,
    status: rsvp ? 'completed' : (orderStatus as OrderStatus),
    userId: options.userId ?? null,
    cartToken: null,
    purchaserName: options.purchaserName ?? name,
    purchaserEmail: options.purchaserEmail ?? email,
    totalMinor: pricePaidMinor,
    currency: 'USD',
    expiresAt: null,
    completedAt: null,
  });
  if (options.withOrderItem)
    await dataSource
      .getRepository(OrderItem)
      .insert({ orderId: order.id, ticketId: ticket.id, quantity: 1, unitPriceMinor: ticket.priceMinor });
  const created = options.checkedInAt ?? options.createdAt ?? new Date();
  const attendee = await dataSource.getRepository(Attendee).save({
    orderId: order.id,
    ticketId: ticket.id,
    eventId: ticket.eventId,
    userId: options.userId ?? null,
    provider: ticket.provider,
    status: options.status ?? 'publish',
    orderStatus,
    rsvpGoing: options.rsvpGoing !== undefined ? options.rsvpGoing : rsvp ? orderStatus === 'yes' : null,
    holderName: name,
    holderEmail: email,
    securityCode: randomBytes(16).toString('hex'),
    pricePaidMinor,
    optout: options.optout ?? false,
    meta: null,
    checkedIn: options.checkedIn ?? false,
    checkedInAt: options.checkedIn ? created : null,
    checkinSource: options.checkedIn ? 'site' : null,
    checkinUserId: null,
  });
  if (options.createdAt) {
    await dataSource.getRepository(Attendee).update(attendee.id, { createdAt: options.createdAt, updatedAt: options.createdAt });
    attendee.createdAt = options.createdAt;
  }
  return attendee;
}

/** Empties attendees, orders, tickets and events, children first. */
export async function clearTicketing(dataSource: DataSource): Promise<void> {
  for (const entity of [Attendee, Order, Ticket, Event]) {
    await dataSource.getRepository(entity).createQueryBuilder().delete().execute();
  }
}
