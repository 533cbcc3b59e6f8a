import request from 'supertest';
import type { DataSource } from 'typeorm';
import { Attendee } from '../../src/attendees/attendee.entity';
import { Order, OrderItem } from '../../src/orders/order.entity';
import { CapacityService } from '../../src/tickets/capacity.service';
import { Ticket } from '../../src/tickets/ticket.entity';
import { TicketPool } from '../../src/tickets/ticket-pool.entity';
import { AttendeeRowOptions, insertAttendeeRow } from './attendee-fixtures';
import type { TestApp, TestUser } from './test-app';
import { TransactionHost } from '../../src/common/database/transaction-host';

export interface TicketNonces {
  add_ticket_nonce: string;
  edit_ticket_nonce: string;
  remove_ticket_nonce: string;
}

export async function noncesOf(testApp: TestApp, user: TestUser): Promise<TicketNonces> {
  const response = await request(testApp.server).get('/cal/tickets/v1/nonces').set('Authorization', user.authorization).expect(200);
  return response.body as TicketNonces;
}

/**
 * A ticket created by POST /tickets on `target` (an app's server, or an instance's URL) with a nonce
 * minted there for `authorization`: a Tickets Commerce seat of the event at `price`, `capacity` units
 * of its own, unless `fields` says otherwise. Throws unless the answer is 201.
 */
export async function postTicket(
  target: TestApp['server'] | string,
  authorization: string,
  eventId: number,
  fields: { price: string; capacity: number } & Record<string, unknown>,
): Promise<Record<string, any>> {
  const nonces = (await request(target).get('/cal/tickets/v1/nonces').set('Authorization', authorization).expect(200)).body as TicketNonces;
  const { capacity, ...rest } = fields;
  const response = await request(target)
    .post('/cal/tickets/v1/tickets')
    .set('Authorization', authorization)
    .send({
      post_id: eventId,
      provider: 'tc',
      name: 'Seat',
      ticket: { mode: 'own', capacity },
      ...rest,
      add_ticket_nonce: nonces.add_ticket_nonce,
    });
  if (response.status !== 201) throw new Error(`create ticket: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, any>;
}

export interface AttendeeFixture {
  /** Order status; RSVP answers use yes / no. */
  orderStatus?: string;
  rsvpGoing?: boolean | null;
  checkedIn?: boolean;
  optout?: boolean;
  status?: string;
  name?: string;
}

let attendeeCounter = 0;

/** An order with one attendee of `ticket` and its line, as the ticket specs use them (`Attendee N`, bought by `Buyer N`), through insertAttendeeRow. */
export function insertAttendee(
  dataSource: DataSource,
  ticket: Pick<Ticket, 'id' | 'eventId' | 'provider' | 'priceMinor'>,
  fixture: AttendeeFixture = {},
): Promise<Attendee> {
  attendeeCounter += 1;
  return insertAttendeeRow(dataSource, ticket, {
    orderStatus: fixture.orderStatus as AttendeeRowOptions['orderStatus'],
    rsvpGoing: fixture.rsvpGoing === undefined ? (ticket.provider === 'rsvp' ? true : null) : fixture.rsvpGoing,
    name: fixture.name ?? `Attendee ${attendeeCounter}`,
    email: `attendee${attendeeCounter}@example.org`,
    purchaserName: `Buyer ${attendeeCounter}`,
    purchaserEmail: `buyer${attendeeCounter}@example.org`,
    withOrderItem: true,
    status: fixture.status,
    optout: fixture.optout,
    checkedIn: fixture.checkedIn,
    checkedInAt: fixture.checkedIn ? new Date('2027-01-15T09:30:00Z') : undefined,
  });
}

class NotEnoughLeft extends Error {}

/**
 * Sells units as checkout does, through the capacity service's conditional updates; a take that
 * fails half-way (the ticket had room, the pool did not) is rolled back. False when not enough was left.
 */
export async function sellUnits(
  testApp: TestApp,
  ticketId: number,
  quantity: number,
  count: 'sold' | 'pending' = 'sold',
): Promise<boolean> {
  const capacity = testApp.app.get(CapacityService);
  try {
    const tx = testApp.app.get(TransactionHost);
    await tx.run(async () => {
      const ticket = await tx.manager.findOneByOrFail(Ticket, { id: ticketId });
      if (!(await capacity.take(ticket, quantity, count))) throw new NotEnoughLeft();
    });
    return true;
  } catch (error) {
    if (error instanceof NotEnoughLeft) return false;
    throw error;
  }
}

/** Removes every ticket, pool, order and attendee, so that a list starts from nothing. */
export async function clearTickets(dataSource: DataSource): Promise<void> {
  await dataSource.getRepository(Attendee).createQueryBuilder().delete().execute();
  await dataSource.getRepository(OrderItem).createQueryBuilder().delete().execute();
  await dataSource.getRepository(Order).createQueryBuilder().delete().execute();
  await dataSource.getRepository(Ticket).createQueryBuilder().delete().execute();
  await dataSource.getRepository(TicketPool).createQueryBuilder().delete().execute();
}
