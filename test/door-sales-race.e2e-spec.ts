import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { Order, OrderItem } from '../src/orders/order.entity';
import { CART_PATH, CHECKOUT_PATH, PURCHASER } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { postOnOwnConnection, RawResponse } from './helpers/raw-http';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp } from './helpers/test-app';
import { insertTicket, reloadTicket } from './helpers/ticketing-fixtures';

// Walk-in sales racing web buyers for the last units of a ticket. Meant for MariaDB, where the
// transactions really run side by side and lock the counter rows; SQLite serialises writes, so a
// smaller round there checks the same invariants without the race.
const mariadb = (process.env.TEST_DATABASE_URL ?? '').startsWith('mysql');
const UNITS = mariadb ? 100 : 20;
const ONLINE_BUYERS = mariadb ? 500 : 60;
const DOOR_SALES = mariadb ? 50 : 10;
const NS = '/cal/tickets/v1';

jest.setTimeout(600_000);

describe('Walk-in sales racing online buyers (e2e)', () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    port = (testApp.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(() => testApp.close());

  it(`sells exactly the last ${UNITS} units to ${DOOR_SALES} door sales and ${ONLINE_BUYERS} web buyers at once, each sale under its payment method`, async () => {
    const author = await createUser(testApp, 'author');
    const event = await insertEvent(testApp.dataSource, { startUtc: new Date(), authorId: author.id });
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, authorId: author.id, price: '10.00', capacity: UNITS });
    const list = await request(testApp.server)
      .post(`${NS}/checkin-lists`)
      .set('Authorization', author.authorization)
      .send({ post_id: event.id, name: 'Box office', allow_sales: true })
      .expect(201);
    const created = await request(testApp.server)
      .post(`${NS}/devices`)
      .set('Authorization', author.authorization)
      .send({ name: 'Box office phone', list_ids: [list.body.id] })
      .expect(201);
    const paired = await request(testApp.server)
      .post(`${NS}/devices/initialize`)
      .send({ token: created.body.initialization_token })
      .expect(201);
    const device = `Device ${paired.body.api_token as string}`;

    // Every web buyer holds one unit in a cart first (carts check, checkout takes).
    const carts = await Promise.all(
      Array.from({ length: ONLINE_BUYERS }, () =>
        postOnOwnConnection(port, CART_PATH, { provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }] }),
      ),
    );
    for (const cart of carts) expect(cart.status).toBe(200);
    const tokens = carts.map((cart) => cart.headers['x-cart-token'] as string);

    const methods = ['cash', 'card_terminal'] as const;
    const online: Array<Promise<RawResponse>> = tokens.map((token) =>
      postOnOwnConnection(port, CHECKOUT_PATH, { provider: 'tc', purchaser: PURCHASER }, { 'X-Cart-Token': token }),
    );
    const door: Array<Promise<RawResponse>> = Array.from({ length: DOOR_SALES }, (_, index) =>
      postOnOwnConnection(
        port,
        `${NS}/checkin/sell`,
        { list_id: list.body.id, ticket_id: ticket.id, quantity: 1, payment_method: methods[index % 2], nonce: `race-${index}` },
        { Authorization: device },
      ),
    );
    // Door sales spread among the web checkouts, as they would arrive.
    const [onlineAnswers, doorAnswers] = await Promise.all([Promise.all(online), Promise.all(door)]);

    for (const answer of [...onlineAnswers, ...doorAnswers]) {
      expect([201, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.code).toBe('ticket-capacity-not-available');
    }
    const onlineSold = onlineAnswers.filter((answer) => answer.status === 201);
    const doorSold = doorAnswers.filter((answer) => answer.status === 201);
    // Never oversold, no unit lost: every unit went to exactly one order.
    expect(onlineSold.length + doorSold.length).toBe(UNITS);
    const counted = await reloadTicket(testApp.dataSource, ticket.id);
    expect({ sold: counted.sold, pending: counted.pending }).toEqual({ sold: doorSold.length, pending: onlineSold.length });
    expect(await testApp.dataSource.getRepository(Attendee).countBy({ ticketId: ticket.id })).toBe(UNITS);
    expect(await testApp.dataSource.getRepository(OrderItem).countBy({ ticketId: ticket.id })).toBe(UNITS);
    const orderIds = [...onlineSold, ...doorSold].map((answer) => (answer.body.id ?? answer.body.order.id) as number);
    expect(new Set(orderIds).size).toBe(UNITS);

    // The web orders are paid (manual provider: a manager completes them), then the report shows every sale.
    const admin = basicAuth(ADMIN.login, ADMIN.password);
    for (const answer of onlineSold) {
      await request(testApp.server)
        .post(`${NS}/orders/${answer.body.id as number}/complete`)
        .set('Authorization', admin)
        .expect(200);
    }
    const report = await request(testApp.server)
      .get(`${NS}/reports/summary`)
      .query({ post_id: event.id })
      .set('Authorization', author.authorization)
      .expect(200);
    const byMethod = Object.fromEntries(
      (report.body.payment_methods as Array<{ payment_method: string; orders: number; sold: number; revenue: string }>).map((row) => [
        row.payment_method,
        row,
      ]),
    );
    const doorOf = (method: string) => doorSold.filter((answer) => answer.body.order.payment_method === method).length;
    expect(byMethod).toEqual({
      online: { payment_method: 'online', orders: onlineSold.length, sold: onlineSold.length, revenue: `${onlineSold.length * 10}.00` },
      cash: { payment_method: 'cash', orders: doorOf('cash'), sold: doorOf('cash'), revenue: `${doorOf('cash') * 10}.00` },
      card_terminal: {
        payment_method: 'card_terminal',
        orders: doorOf('card_terminal'),
        sold: doorOf('card_terminal'),
        revenue: `${doorOf('card_terminal') * 10}.00`,
      },
      free: { payment_method: 'free', orders: 0, sold: 0, revenue: '0.00' },
    });
    expect(report.body.sold).toBe(UNITS);
    // Each door sale's order records the method it was sold with.
    const doorOrders = await testApp.dataSource.getRepository(Order).findBy({ paymentMethod: 'cash' });
    expect(doorOrders.length).toBe(doorOf('cash'));
  });
});
