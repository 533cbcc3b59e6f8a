import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Attendee } from '../../src/attendees/attendee.entity';
import { Event } from '../../src/events/event.entity';
import { Order, OrderStatus } from '../../src/orders/order.entity';
import { Ticket, TicketProvider } from '../../src/tickets/ticket.entity';

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

export async function insertTicketRow(dataSource: DataSource, event: Event, options: TicketRowOptions): Promise<Ticket> {
  return dataSource.getRepository(Ticket).save({
    eventId: event.id,
    authorId: event.authorId,
    provider: options.provider,
    status: 'publish',
    name: options.name ?? `Ticket ${next()}`,
    description: 'Ticket desc',
    price: options.price ?? (options.provider === 'rsvp' ? '0.00' : '25.00'),
    sku: options.sku ?? null,
    iac: options.iac ?? 'none',
    attendeeInformationFields: options.attendeeInformationFields ?? null,
    showDescription: true,
    menuOrder: 0,
    saleStartUtc: options.saleStartUtc ?? null,
    saleEndUtc: options.saleEndUtc ?? null,
    capacityMode: 'own',
    capacity: 100,
    sold: 0,
    pending: 0,
    publishedAt: new Date('2026-01-01T00:00:00Z'),
  });
}

export interface AttendeeRowOptions {
  /** The order's status; RSVP: `yes` or `no` (going or not). */
  orderStatus?: OrderStatus | 'yes' | 'no';
  name?: string;
  email?: string;
  optout?: boolean;
  status?: string;
  pricePaid?: string;
  userId?: number | null;
  createdAt?: Date;
  checkedIn?: boolean;
}

/** One attendee of `ticket`, in an order of its own. */
export async function insertAttendeeRow(dataSource: DataSource, ticket: Ticket, options: AttendeeRowOptions = {}): Promise<Attendee> {
  const number = next();
  const rsvp = ticket.provider === 'rsvp';
  const orderStatus = options.orderStatus ?? (rsvp ? 'yes' : 'completed');
  const name = options.name ?? `Holder ${number}`;
  const email = options.email ?? `holder${number}@example.org`;
  const order = await dataSource.getRepository(Order).save({
    provider: ticket.provider,
    status: rsvp ? 'completed' : (orderStatus as OrderStatus),
    userId: options.userId ?? null,
    cartToken: null,
    purchaserName: name,
    purchaserEmail: email,
    total: options.pricePaid ?? ticket.price,
    currency: 'USD',
    expiresAt: null,
    completedAt: null,
  });
  const created = options.createdAt ?? new Date();
  const attendee = await dataSource.getRepository(Attendee).save({
    orderId: order.id,
    ticketId: ticket.id,
    eventId: ticket.eventId,
    userId: options.userId ?? null,
    provider: ticket.provider,
    status: options.status ?? 'publish',
    orderStatus,
    rsvpGoing: rsvp ? orderStatus === 'yes' : null,
    holderName: name,
    holderEmail: email,
    securityCode: randomBytes(16).toString('hex'),
    pricePaid: options.pricePaid ?? ticket.price,
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
