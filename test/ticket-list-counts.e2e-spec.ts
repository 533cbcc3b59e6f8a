import request from 'supertest';
import { CountCache } from '../src/catalogue/caching/count-cache';
import { checkout, fillCart, PURCHASER } from './helpers/buyers';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket } from './helpers/ticketing-fixtures';

const TICKETS = '/cal/tickets/v1/tickets';

/**
 * The totals of the tickets list through the count cache: a sale moves what tickets have left, not
 * the tickets, so totals that do not filter on what is left stay cached through a sell-out, and
 * those that do are counted again. Filters on attendee numbers follow check-ins.
 */
describe('Tickets list totals through a sale (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    process.env.COUNT_CACHE_SECONDS = '300';
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
  });

  afterAll(async () => {
    delete process.env.COUNT_CACHE_SECONDS;
    await testApp.close();
  });

  /** The list's total and how many statements it ran to count it (its page may count attendees per ticket). */
  async function total(query: string): Promise<{ total: number; counted: number }> {
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    try {
      const response = await request(testApp.server).get(`${TICKETS}${query}`).set('Authorization', editor.authorization).expect(200);
      const counted = spy.mock.calls.filter(([sql]) => /^\s*SELECT COUNT\(/i.test(String(sql))).length;
      return { total: Number(response.headers['x-et-total']), counted };
    } finally {
      spy.mockRestore();
    }
  }

  it('keeps the plain total through a sell-out and counts availability and attendee filters again', async () => {
    testApp.app.get(CountCache).clear();
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacity: 1 });
    const plain = `?include_post=${event.id}`;
    const available = `${plain}&is_available=true`;
    const attended = `${plain}&attendees_min=1`;
    const checkedIn = `${plain}&checkedin_min=1`;

    expect(await total(plain)).toEqual({ total: 1, counted: 1 });
    expect(await total(available)).toEqual({ total: 1, counted: 1 });
    expect(await total(attended)).toEqual({ total: 0, counted: 1 });
    expect(await total(checkedIn)).toEqual({ total: 0, counted: 1 });

    const buyer = await fillCart(testApp, {}, 'rsvp', [{ ticket_id: ticket.id, quantity: 1 }]);
    const order = (await checkout(testApp, buyer, { provider: 'rsvp', purchaser: PURCHASER }).expect(201)).body as {
      attendees: Array<{ id: number }>;
    };

    expect(await total(plain)).toEqual({ total: 1, counted: 0 });
    expect(await total(available)).toEqual({ total: 0, counted: 1 });
    expect(await total(attended)).toEqual({ total: 1, counted: 1 });
    expect(await total(checkedIn)).toEqual({ total: 0, counted: 1 });

    await request(testApp.server)
      .post(`/cal/tickets/v1/attendees/${order.attendees[0].id}`)
      .set('Authorization', editor.authorization)
      .send({ check_in: true })
      .expect(200);
    expect(await total(checkedIn)).toEqual({ total: 1, counted: 1 });
    expect(await total(plain)).toEqual({ total: 1, counted: 0 });
  });
});
