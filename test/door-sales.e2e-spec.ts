import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { Checkin } from '../src/checkin/checkin.entity';
import { EmailsService } from '../src/emails/emails.service';
import type { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { checkout, fillCart, PURCHASER } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertTicket, reloadTicket } from './helpers/ticketing-fixtures';

const NS = '/cal/tickets/v1';
const SELL = `${NS}/checkin/sell`;

function csvRows(body: string): Array<Record<string, string>> {
  return parse<Record<string, string>>(body, { bom: true, columns: true, skip_empty_lines: true });
}

jest.setTimeout(120_000);

describe('Walk-in sales at the door (e2e)', () => {
  let testApp: TestApp;
  let author: TestUser;
  let authorB: TestUser;
  let subscriber: TestUser;
  let doorStaff: TestUser;
  let event: Event;
  let otherEvent: Event;
  let general: Ticket;
  let vip: Ticket;
  let otherTicket: Ticket;
  /** The gate that sells (allow_sales on), admitting General and VIP. */
  let box: { id: number };
  /** A gate of the same event that does not sell. */
  let gate: { id: number };
  let boxDevice: { id: number; authorization: string };
  let gateDevice: { id: number; authorization: string };

  const http = () => request(testApp.server);

  async function createList(
    body: Record<string, unknown>,
    eventId = event.id,
    user = author,
  ): Promise<{ id: number } & Record<string, unknown>> {
    const response = await http()
      .post(`${NS}/checkin-lists`)
      .set('Authorization', user.authorization)
      .send({ post_id: eventId, name: 'Box office', ...body });
    if (response.status !== 201) throw new Error(`list create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as { id: number } & Record<string, unknown>;
  }

  async function pairDevice(listIds: number[], name: string): Promise<{ id: number; authorization: string }> {
    const created = await http()
      .post(`${NS}/devices`)
      .set('Authorization', author.authorization)
      .send({ name, list_ids: listIds })
      .expect(201);
    const initialized = await http()
      .post(`${NS}/devices/initialize`)
      .send({ token: created.body.initialization_token, hardware: 'test phone' })
      .expect(201);
    return { id: initialized.body.device_id as number, authorization: `Device ${initialized.body.api_token as string}` };
  }

  function sell(authorization: string | null, body: Record<string, unknown>) {
    const test = http().post(SELL);
    if (authorization) test.set('Authorization', authorization);
    return test.send({ list_id: box.id, ticket_id: general.id, quantity: 1, payment_method: 'cash', ...body });
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    author = await createUser(testApp, 'author');
    authorB = await createUser(testApp, 'author');
    subscriber = await createUser(testApp, 'subscriber');
    doorStaff = await createUser(testApp, 'door_staff');
    // Today, so that the lists' default window (the event's days) holds the sales' entries.
    event = await insertEvent(testApp.dataSource, { startUtc: new Date(), authorId: author.id });
    otherEvent = await insertEvent(testApp.dataSource, { startUtc: new Date(), authorId: authorB.id });
    general = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      authorId: author.id,
      name: 'General',
      price: '30.00',
      capacity: 50,
    });
    vip = await insertTicket(testApp.dataSource, { eventId: event.id, authorId: author.id, name: 'VIP', price: '80.00', capacity: 5 });
    otherTicket = await insertTicket(testApp.dataSource, { eventId: otherEvent.id, authorId: authorB.id, name: 'Elsewhere' });
    box = await createList({ allow_sales: true, ticket_ids: [general.id, vip.id] });
    gate = await createList({ name: 'North gate' });
    boxDevice = await pairDevice([box.id], 'Box office phone');
    gateDevice = await pairDevice([gate.id], 'North gate phone');
  });

  afterAll(() => testApp.close());

  // ---------------------------------------------------------------- allow_sales

  describe('allow_sales on check-in lists', () => {
    it('is false unless set, and is written by create and update and read back', async () => {
      expect(gate).toMatchObject({ allow_sales: false });
      expect(box).toMatchObject({ allow_sales: true });
      const list = await createList({ name: 'Side door' });
      const updated = await http()
        .patch(`${NS}/checkin-lists/${list.id}`)
        .set('Authorization', author.authorization)
        .send({ allow_sales: true })
        .expect(200);
      expect(updated.body).toMatchObject({ id: list.id, allow_sales: true, name: 'Side door' });
      const read = await http().get(`${NS}/checkin-lists/${list.id}`).set('Authorization', author.authorization).expect(200);
      expect(read.body.allow_sales).toBe(true);
      const off = await http()
        .patch(`${NS}/checkin-lists/${list.id}`)
        .set('Authorization', author.authorization)
        .send({ allow_sales: false })
        .expect(200);
      expect(off.body.allow_sales).toBe(false);
    });

    it('refuses a value that is not a boolean with 400 naming allow_sales', async () => {
      const refused = await http()
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, name: 'Bad', allow_sales: 'maybe' })
        .expect(400);
      expect(refused.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { allow_sales: expect.any(String) } },
      });
    });
  });

  // ---------------------------------------------------------------- sale tickets

  describe('GET /checkin-lists/{id}/sale-tickets', () => {
    it('lists the tickets the list admits that are on sale now, with price, currency and units left', async () => {
      const response = await http()
        .get(`${NS}/checkin-lists/${box.id}/sale-tickets`)
        .set('Authorization', boxDevice.authorization)
        .expect(200);
      const general_ = await reloadTicket(testApp.dataSource, general.id);
      const vip_ = await reloadTicket(testApp.dataSource, vip.id);
      expect(response.body).toEqual({
        tickets: [
          { id: general.id, title: 'General', price: '30.00', currency: 'USD', available: 50 - general_.sold },
          { id: vip.id, title: 'VIP', price: '80.00', currency: 'USD', available: 5 - vip_.sold },
        ],
      });
    });

    it('leaves out RSVPs, drafts, tickets out of their sale window and hidden ones; unlimited ones read null', async () => {
      const show = await insertEvent(testApp.dataSource, { startUtc: new Date(), authorId: author.id });
      const open = await insertTicket(testApp.dataSource, { eventId: show.id, name: 'Open', capacityMode: 'unlimited', capacity: null });
      await insertTicket(testApp.dataSource, { eventId: show.id, name: 'RSVP', provider: 'rsvp', price: '0.00' });
      await insertTicket(testApp.dataSource, { eventId: show.id, name: 'Draft', status: 'draft' });
      await insertTicket(testApp.dataSource, { eventId: show.id, name: 'Over', saleEndUtc: new Date(Date.now() - 3_600_000) });
      await insertTicket(testApp.dataSource, { eventId: show.id, name: 'Later', saleStartUtc: new Date(Date.now() + 3_600_000) });
      const hidden = await insertTicket(testApp.dataSource, { eventId: show.id, name: 'Hidden' });
      await testApp.dataSource.getRepository('Ticket').update({ id: hidden.id }, { hiddenWithoutCoupon: true });
      const list = await createList({ allow_sales: true }, show.id);
      const response = await http()
        .get(`${NS}/checkin-lists/${list.id}/sale-tickets`)
        .set('Authorization', doorStaff.authorization)
        .expect(200);
      expect(response.body.tickets).toEqual([{ id: open.id, title: 'Open', price: '25.00', currency: 'USD', available: null }]);
    });

    it('answers 403 checkin-sales-not-allowed on a list that does not sell, and 404 for an unknown list', async () => {
      const refused = await http()
        .get(`${NS}/checkin-lists/${gate.id}/sale-tickets`)
        .set('Authorization', gateDevice.authorization)
        .expect(403);
      expect(refused.body).toMatchObject({ code: 'checkin-sales-not-allowed', data: { status: 403 } });
      const unknown = await http().get(`${NS}/checkin-lists/999999/sale-tickets`).set('Authorization', author.authorization).expect(404);
      expect(unknown.body).toMatchObject({ code: 'checkin-list-not-found', data: { status: 404 } });
    });
  });

  // ---------------------------------------------------------------- selling

  describe('POST /checkin/sell', () => {
    it('sells for cash: a completed order with its attendees, capacity taken, the order placed in the outbox', async () => {
      const before = await reloadTicket(testApp.dataSource, general.id);
      const response = await sell(boxDevice.authorization, {
        quantity: 2,
        purchaser: { name: 'Ada Lovelace', email: 'ada@example.org' },
      }).expect(201);
      expect(response.body).toEqual({
        status: 'ok',
        order: { id: expect.any(Number), total: '60.00', currency: 'USD', payment_method: 'cash', status: 'completed' },
        attendees: [0, 1].map(() => ({
          id: expect.any(Number),
          name: 'Ada Lovelace',
          ticket_id: general.id,
          ticket_title: 'General',
          checkin_secret: expect.stringMatching(/^[0-9A-F]{40}$/),
          checked_in: false,
        })),
      });
      const orderId = response.body.order.id as number;
      const after = await reloadTicket(testApp.dataSource, general.id);
      expect({ sold: after.sold, pending: after.pending }).toEqual({ sold: before.sold + 2, pending: before.pending });
      const order = await http().get(`${NS}/orders/${orderId}`).set('Authorization', author.authorization).expect(200);
      expect(order.body).toMatchObject({
        id: orderId,
        status: 'completed',
        provider: 'tc',
        total: '60.00',
        payment_method: 'cash',
        purchaser: { name: 'Ada Lovelace', email: 'ada@example.org' },
      });
      const attendees = await testApp.dataSource.getRepository(Attendee).findBy({ orderId });
      expect(attendees.map((attendee) => attendee.orderStatus)).toEqual(['completed', 'completed']);
      const outbox = await testApp.dataSource.getRepository(OutboxMessage).findBy({ channel: 'event', type: 'order.placed' });
      expect(outbox.some((message) => (JSON.parse(message.payload) as { order_id: number }).order_id === orderId)).toBe(true);
      // The confirmation goes to the address given, as for a web order.
      const emails = await testApp.app.get(EmailsService).emailsFor('order.placed', { order_id: orderId, status: 'completed' });
      expect(emails.map((email) => [email.type, email.recipient])).toEqual([['order-confirmation', 'ada@example.org']]);
    });

    it('sells to a walk-in without a name or address: "Walk-in", and no email', async () => {
      const response = await sell(doorStaff.authorization, { payment_method: 'card_terminal' }).expect(201);
      expect(response.body.order).toMatchObject({ payment_method: 'card_terminal', total: '30.00' });
      expect(response.body.attendees[0].name).toBe('Walk-in');
      const emails = await testApp.app
        .get(EmailsService)
        .emailsFor('order.placed', { order_id: response.body.order.id, status: 'completed' });
      expect(emails).toEqual([]);
    });

    it('admits the attendees at once with admit: true, as entry scans of the selling device', async () => {
      const response = await sell(boxDevice.authorization, { ticket_id: vip.id, admit: true, purchaser: { name: 'Grace Hopper' } }).expect(
        201,
      );
      const [sold] = response.body.attendees as Array<{ id: number; checkin_secret: string; checked_in: boolean }>;
      expect(sold.checked_in).toBe(true);
      const scans = await testApp.dataSource.getRepository(Checkin).findBy({ attendeeId: sold.id });
      expect(scans).toHaveLength(1);
      expect(scans[0]).toMatchObject({ listId: box.id, type: 'entry', successful: true, deviceId: boxDevice.id, userId: null });
      const status = await http().get(`${NS}/checkin-lists/${box.id}/status`).set('Authorization', boxDevice.authorization).expect(200);
      expect(status.body.tickets.find((ticket: { ticket_id: number }) => ticket.ticket_id === vip.id)).toMatchObject({ inside_count: 1 });
      // Inside already: the same ticket scanned again is refused as a second entry.
      const again = await http()
        .post(`${NS}/checkin/redeem`)
        .set('Authorization', boxDevice.authorization)
        .send({ secret: sold.checkin_secret, list_ids: [box.id] })
        .expect(409);
      expect(again.body).toMatchObject({ reason: 'already_redeemed' });
    });

    it('applies a coupon as the web checkout does, and refuses an unknown code with 400 coupon-not-valid', async () => {
      const coupon = await http()
        .post(`${NS}/coupons`)
        .set('Authorization', author.authorization)
        .send({ code: 'DOOR10', discount_type: 'percent', amount: '10', post_id: event.id })
        .expect(201);
      const response = await sell(doorStaff.authorization, { quantity: 2, coupon: 'DOOR10' }).expect(201);
      expect(response.body.order.total).toBe('54.00');
      const order = await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: response.body.order.id });
      expect({ couponId: order.couponId, discountMinor: order.discountMinor }).toEqual({ couponId: coupon.body.id, discountMinor: 600 });
      const unknown = await sell(doorStaff.authorization, { coupon: 'NOPE' }).expect(400);
      expect(unknown.body).toMatchObject({ code: 'coupon-not-valid', data: { status: 400 } });
    });

    it('records free only for a total of 0: 400 naming payment_method otherwise', async () => {
      const refused = await sell(doorStaff.authorization, { payment_method: 'free' }).expect(400);
      expect(refused.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { payment_method: expect.stringContaining('30.00 USD') } },
      });
      const gift = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Guest', price: '0.00' });
      const list = await createList({ allow_sales: true, ticket_ids: [gift.id] });
      const free = await sell(doorStaff.authorization, { list_id: list.id, ticket_id: gift.id, payment_method: 'free' }).expect(201);
      expect(free.body.order).toMatchObject({ total: '0.00', payment_method: 'free', status: 'completed' });
    });

    it('refuses bad input with 400 naming the field', async () => {
      for (const [body, field] of [
        [{ payment_method: 'online' }, 'payment_method'],
        [{ payment_method: undefined }, 'payment_method'],
        [{ quantity: 0 }, 'quantity'],
        [{ quantity: 'two' }, 'quantity'],
        [{ list_id: 'x' }, 'list_id'],
        [{ ticket_id: -1 }, 'ticket_id'],
        [{ purchaser: { email: 'not-an-address' } }, 'purchaser[email]'],
        [{ nonce: 'with space' }, 'nonce'],
        [{ admit: 'often' }, 'admit'],
      ] as Array<[Record<string, unknown>, string]>) {
        const refused = await sell(doorStaff.authorization, body);
        expect({ field, status: refused.status }).toEqual({ field, status: 400 });
        expect(JSON.stringify(refused.body.data.params)).toContain(field);
      }
    });

    it('refuses what the checkout refuses: sold out, over the per-order limit, out of the sale window', async () => {
      const scarce = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Scarce', capacity: 1 });
      const closed = await insertTicket(testApp.dataSource, {
        eventId: event.id,
        name: 'Closed',
        saleEndUtc: new Date(Date.now() - 60_000),
      });
      const list = await createList({ allow_sales: true });
      const soldOut = await sell(doorStaff.authorization, { list_id: list.id, ticket_id: scarce.id, quantity: 2 }).expect(409);
      expect(soldOut.body).toMatchObject({ code: 'ticket-capacity-not-available', data: { status: 409, ticket_id: scarce.id } });
      const overLimit = await sell(doorStaff.authorization, { list_id: list.id, ticket_id: scarce.id, quantity: 101 }).expect(409);
      expect(overLimit.body).toMatchObject({ code: 'ticket-capacity-not-available', data: { reason: 'over-order-limit', max: 100 } });
      const ended = await sell(doorStaff.authorization, { list_id: list.id, ticket_id: closed.id }).expect(409);
      expect(ended.body).toMatchObject({ code: 'ticket-capacity-not-available', data: { reason: 'after-sale' } });
      // Nothing was written by the refusals.
      expect(await testApp.dataSource.getRepository(Attendee).countBy({ ticketId: scarce.id })).toBe(0);
      expect((await reloadTicket(testApp.dataSource, scarce.id)).sold).toBe(0);
    });

    it('refuses a ticket the list does not admit (400 ticket_id), another event’s (404), and an unknown list (404)', async () => {
      const extra = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Backstage' });
      const notAdmitted = await sell(doorStaff.authorization, { ticket_id: extra.id }).expect(400);
      expect(notAdmitted.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { ticket_id: expect.any(String) } } });
      const elsewhere = await sell(doorStaff.authorization, { ticket_id: otherTicket.id }).expect(404);
      expect(elsewhere.body).toMatchObject({ code: 'ticket-does-not-exist', data: { status: 404 } });
      const unknown = await sell(doorStaff.authorization, { list_id: 999999 }).expect(404);
      expect(unknown.body).toMatchObject({ code: 'checkin-list-not-found' });
    });

    it('answers the same nonce and body with the first sale, and another body with 409 nonce-reused', async () => {
      const first = await sell(boxDevice.authorization, { nonce: 'sale-1', quantity: 2 }).expect(201);
      const retry = await sell(boxDevice.authorization, { nonce: 'sale-1', quantity: 2 }).expect(201);
      expect(retry.body).toEqual(first.body);
      expect(await testApp.dataSource.getRepository(Attendee).countBy({ orderId: first.body.order.id })).toBe(2);
      const reused = await sell(boxDevice.authorization, { nonce: 'sale-1', quantity: 3 }).expect(409);
      expect(reused.body).toMatchObject({ code: 'nonce-reused', data: { status: 409 } });
      // The nonce is the caller's: another caller's equal nonce is a sale of its own.
      const other = await sell(doorStaff.authorization, { nonce: 'sale-1', quantity: 2 }).expect(201);
      expect(other.body.order.id).not.toBe(first.body.order.id);
    });

    it('gives web checkout orders payment_method online', async () => {
      const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: general.id, quantity: 1 }]);
      const placed = await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      expect(placed.body.payment_method).toBe('online');
    });
  });

  // ---------------------------------------------------------------- attackers

  describe('who may sell', () => {
    const saleTickets = (authorization: string | null, listId: number) => {
      const test = http().get(`${NS}/checkin-lists/${listId}/sale-tickets`);
      return authorization ? test.set('Authorization', authorization) : test;
    };

    it('refuses anonymous callers with 401', async () => {
      expect((await sell(null, {}).expect(401)).body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
      await saleTickets(null, box.id).expect(401);
    });

    it('refuses a device of another list with 403, and a revoked device with 401 device-token-invalid', async () => {
      expect((await sell(gateDevice.authorization, {}).expect(403)).body).toMatchObject({ code: 'rest_forbidden' });
      await saleTickets(gateDevice.authorization, box.id).expect(403);
      const spare = await pairDevice([box.id], 'Spare phone');
      await http().post(`${NS}/devices/${spare.id}/revoke`).set('Authorization', author.authorization).expect(200);
      expect((await sell(spare.authorization, {}).expect(401)).body).toMatchObject({ code: 'device-token-invalid' });
      await saleTickets(spare.authorization, box.id).expect(401);
    });

    it('refuses door staff on a list that does not allow sales with 403 checkin-sales-not-allowed', async () => {
      const refused = await sell(doorStaff.authorization, { list_id: gate.id }).expect(403);
      expect(refused.body).toMatchObject({ code: 'checkin-sales-not-allowed', data: { status: 403 } });
    });

    it('refuses the author of another event and a subscriber with 403, selling nothing', async () => {
      const before = (await reloadTicket(testApp.dataSource, general.id)).sold;
      for (const user of [authorB, subscriber]) {
        expect((await sell(user.authorization, {}).expect(403)).body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
        await saleTickets(user.authorization, box.id).expect(403);
      }
      expect((await reloadTicket(testApp.dataSource, general.id)).sold).toBe(before);
    });

    it('lets the event’s author sell', async () => {
      await sell(author.authorization, {}).expect(201);
    });
  });

  // ---------------------------------------------------------------- reports and exports

  describe('reports and exports', () => {
    it('break the sales down by payment method', async () => {
      const report = await http()
        .get(`${NS}/reports/summary`)
        .query({ post_id: event.id })
        .set('Authorization', author.authorization)
        .expect(200);
      const orders = await testApp.dataSource.getRepository(Order).find();
      const expected = ['online', 'cash', 'card_terminal', 'free'].map((method) => {
        const ofMethod = orders.filter((order) => order.paymentMethod === method && order.status === 'completed');
        return { payment_method: method, orders: ofMethod.length };
      });
      expect(
        report.body.payment_methods.map((row: { payment_method: string; orders: number }) => ({
          payment_method: row.payment_method,
          orders: row.orders,
        })),
      ).toEqual(expected);
      const cash = report.body.payment_methods.find((row: { payment_method: string }) => row.payment_method === 'cash');
      expect(cash.revenue).toMatch(/^\d+\.\d{2}$/);
      const sold = report.body.payment_methods.reduce((sum: number, row: { sold: number }) => sum + row.sold, 0);
      expect(sold).toBe(report.body.sold);
    });

    it('put a payment_method column in the order and attendee exports', async () => {
      const orders = await http().get(`${NS}/orders/export`).set('Authorization', author.authorization).expect(200);
      const orderRows = csvRows(orders.text);
      const stored = new Map((await testApp.dataSource.getRepository(Order).find()).map((order) => [order.id, order.paymentMethod]));
      expect(orderRows.length).toBeGreaterThan(0);
      for (const row of orderRows) expect(row['Payment method']).toBe(stored.get(Number(row['Order ID'])));
      expect(new Set(orderRows.map((row) => row['Payment method']))).toEqual(new Set(['online', 'cash', 'card_terminal', 'free']));
      const attendees = await http()
        .get(`${NS}/attendees/export`)
        .query({ post_id: event.id })
        .set('Authorization', author.authorization)
        .expect(200);
      const attendeeRows = csvRows(attendees.text);
      for (const row of attendeeRows) expect(row['Payment method']).toBe(stored.get(Number(row['Order ID'])));
      expect(attendeeRows.some((row) => row['Payment method'] === 'card_terminal')).toBe(true);
    });
  });
});
