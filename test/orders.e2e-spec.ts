import fc from 'fast-check';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { CartItem } from '../src/cart/cart.entity';
import { CLOCK } from '../src/common/clock';
import { Event } from '../src/events/event.entity';
import { IdempotencyKey } from '../src/orders/idempotency-key.entity';
import { Order } from '../src/orders/order.entity';
import { OrderExpiryService } from '../src/orders/order-expiry.service';
import { canonicalJson, signPayload } from '../src/orders/webhook-signature';
import { Ticket } from '../src/tickets/ticket.entity';
import { BuyerIdentity, CART_PATH, checkout, fillCart, identify, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket, reloadPool, reloadTicket, TestClock } from './helpers/ticketing-fixtures';

const WEBHOOK_SECRET = 'webhook-secret-for-the-orders-tests';
process.env.PAYMENT_WEBHOOK_SECRET = WEBHOOK_SECRET;
process.env.MAX_TICKETS_PER_ORDER = '10';
process.env.ORDER_HOLD_MINUTES = '15';
process.env.SITE_TIMEZONE = 'UTC';

const ATTENDEE_KEYS_FOR_BUYERS = [
  'id',
  'post_id',
  'ticket_id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'rest_url',
  'ticket',
  'title',
  'optout',
  'provider',
  'order',
  'sku',
  'email',
  'checked_in',
  'checkin_details',
  'is_subscribed',
  'is_purchaser',
  'security_code',
  'checkin_secret',
  'checkin_secret_revoked',
];

describe('Checkout and orders (e2e)', () => {
  let testApp: TestApp;
  const clock = new TestClock();
  let editor: TestUser;
  let eventAuthor: TestUser;
  let otherAuthor: TestUser;
  let buyer: TestUser;
  let otherBuyer: TestUser;
  let event: Event;
  let otherEvent: Event;

  const http = () => request(testApp.server);

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    editor = await createUser(testApp, 'editor');
    eventAuthor = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    buyer = await createUser(testApp, 'subscriber');
    otherBuyer = await createUser(testApp, 'subscriber');
    event = await insertEvent(testApp.dataSource, { authorId: eventAuthor.id, timezone: 'Europe/Paris' });
    otherEvent = await insertEvent(testApp.dataSource, { authorId: otherAuthor.id });
  });

  afterAll(async () => {
    await testApp.close();
  });

  beforeEach(() => clock.reset());

  const paidTicket = (capacity = 10, eventId = event.id) => insertTicket(testApp.dataSource, { eventId, price: '25.00', capacity });
  const freeTicket = (capacity = 10) => insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity });
  const rsvpTicket = (capacity = 10) => insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacity });

  async function placeOrder(
    identity: BuyerIdentity,
    provider: string,
    lines: Array<{ ticket_id: number; quantity: number }>,
    extra: Record<string, unknown> = {},
  ) {
    const filled = await fillCart(testApp, identity, provider, lines);
    const response = await checkout(testApp, filled, { provider, purchaser: PURCHASER, ...extra });
    if (response.status !== 201) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
    return { identity: filled, order: response.body as Record<string, any>, response };
  }

  describe('checkout', () => {
    it('completes a free order at once: 201, Location, the documented shape, sold capacity and an emptied cart', async () => {
      const ticket = await freeTicket(5);
      const { identity, order, response } = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      expect(response.headers.location).toMatch(new RegExp(`/cal/tickets/v1/orders/${order.id}$`));
      expect(Object.keys(order)).toEqual([
        'id',
        'status',
        'provider',
        'total',
        'currency',
        'payment_method',
        'purchaser',
        'attendees',
        'created',
      ]);
      expect(order).toMatchObject({
        status: 'completed',
        provider: 'tc',
        total: '0.00',
        currency: 'USD',
        payment_method: 'online',
        purchaser: PURCHASER,
      });
      expect(order.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(order.attendees).toHaveLength(2);
      for (const attendee of order.attendees) {
        expect(Object.keys(attendee)).toEqual([...ATTENDEE_KEYS_FOR_BUYERS, 'payment']);
        expect(attendee).toMatchObject({
          ticket_id: ticket.id,
          post_id: event.id,
          order: order.id,
          title: PURCHASER.name,
          email: PURCHASER.email,
          provider: 'tc',
        });
        expect(attendee.security_code).toMatch(/^[0-9a-f]{32}$/);
      }
      expect(order.attendees[0].security_code).not.toBe(order.attendees[1].security_code);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 2, pending: 0 });
      const rows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(rows.map((row) => row.orderStatus)).toEqual(['completed', 'completed']);
      const cart = await identify(http().get(CART_PATH), identity).expect(200);
      expect(cart.body.tickets).toEqual([]);
    });

    it('keeps a paid order pending, holding capacity until it expires', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({ authorization: buyer.authorization }, 'tribe-commerce', [{ ticket_id: ticket.id, quantity: 3 }]);
      expect(Object.keys(order)).toEqual([
        'id',
        'status',
        'provider',
        'total',
        'currency',
        'payment_method',
        'purchaser',
        'attendees',
        'created',
        'expires',
      ]);
      expect(order).toMatchObject({ status: 'pending', provider: 'tc', total: '75.00' });
      const created = new Date(`${order.created.replace(' ', 'T')}Z`).getTime();
      const expires = new Date(`${order.expires.replace(' ', 'T')}Z`).getTime();
      expect(expires - created).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
      expect(expires - created).toBeLessThanOrEqual(15 * 60_000 + 1000);
      expect(order.attendees.map((attendee: { payment: { price: string } }) => attendee.payment.price)).toEqual(['25', '25', '25']);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 0, pending: 3 });
      const stored = await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
      expect(stored).toMatchObject({ userId: buyer.id, cartToken: null, totalMinor: 7500 });
    });

    it('records RSVP going answers as sold with attendees yes, and not-going ones without consuming capacity', async () => {
      const ticket = await rsvpTicket(4);
      const going = await placeOrder({}, 'rsvp', [{ ticket_id: ticket.id, quantity: 2 }], { going: true });
      expect(going.order).toMatchObject({ status: 'completed', provider: 'rsvp', total: '0.00' });
      expect(going.order.attendees.map((attendee: { rsvp_going: boolean }) => attendee.rsvp_going)).toEqual([true, true]);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 2, pending: 0 });

      const notGoing = await placeOrder({}, 'rsvp', [{ ticket_id: ticket.id, quantity: 2 }], { going: 'false' });
      expect(notGoing.order.status).toBe('completed');
      expect(notGoing.order.attendees.map((attendee: { rsvp_going: boolean }) => attendee.rsvp_going)).toEqual([false, false]);
      const rows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: notGoing.order.id });
      expect(rows.map((row) => row.orderStatus)).toEqual(['no', 'no']);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 2, pending: 0 });
      const goingRows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: going.order.id });
      expect(goingRows.map((row) => row.orderStatus)).toEqual(['yes', 'yes']);
    });

    it('names the holders given in attendees, in order, then the purchaser; registration answers come from the entry or the cart', async () => {
      const ticket = await freeTicket(10);
      const identity = await fillCart(
        testApp,
        {},
        'tc',
        [{ ticket_id: ticket.id, quantity: 3 }],
        [{ ticket_id: ticket.id, items: [{ shirt: 'S' }, { shirt: 'M' }, { shirt: 'L' }] }],
      );
      const response = await checkout(testApp, identity, {
        provider: 'tc',
        purchaser: PURCHASER,
        attendees: [
          { ticket_id: ticket.id, name: 'Ada Lovelace', email: 'ada@example.org', meta: { shirt: 'XL' } },
          { ticket_id: ticket.id, name: 'Alan Turing', email: 'alan@example.org' },
        ],
      }).expect(201);
      expect(response.body.attendees.map((attendee: { title: string; email: string }) => [attendee.title, attendee.email])).toEqual([
        ['Ada Lovelace', 'ada@example.org'],
        ['Alan Turing', 'alan@example.org'],
        [PURCHASER.name, PURCHASER.email],
      ]);
      const rows = await testApp.dataSource.getRepository(Attendee).find({ where: { orderId: response.body.id }, order: { id: 'ASC' } });
      expect(rows.map((row) => JSON.parse(row.meta ?? 'null'))).toEqual([{ shirt: 'XL' }, { shirt: 'M' }, { shirt: 'L' }]);
    });

    it('refuses attendees for tickets not checked out, or more of them than units, and keeps the cart', async () => {
      const ticket = await freeTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const other = await checkout(testApp, identity, {
        provider: 'tc',
        purchaser: PURCHASER,
        attendees: [{ ticket_id: ticket.id + 1000, name: 'A', email: 'a@example.org' }],
      }).expect(400);
      expect(other.body.data.params).toHaveProperty(['attendees[0][ticket_id]']);
      const tooMany = await checkout(testApp, identity, {
        provider: 'tc',
        purchaser: PURCHASER,
        attendees: [
          { ticket_id: ticket.id, name: 'A', email: 'a@example.org' },
          { ticket_id: ticket.id, name: 'B', email: 'b@example.org' },
        ],
      }).expect(400);
      expect(tooMany.body.data.params).toHaveProperty(['attendees[1][ticket_id]']);
      expect((await identify(http().get(CART_PATH), identity).expect(200)).body.tickets).toHaveLength(1);
    });

    it('checks out only the lines of the provider asked for', async () => {
      const paid = await paidTicket(10);
      const rsvp = await rsvpTicket(10);
      let identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: paid.id, quantity: 1 }]);
      identity = await fillCart(testApp, identity, 'rsvp', [{ ticket_id: rsvp.id, quantity: 1 }]);
      const order = await checkout(testApp, identity, { provider: 'rsvp', purchaser: PURCHASER }).expect(201);
      expect(order.body.attendees.map((attendee: { ticket_id: number }) => attendee.ticket_id)).toEqual([rsvp.id]);
      const cart = await identify(http().get(CART_PATH), identity).expect(200);
      expect(cart.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([paid.id]);
    });

    it('returns 400 cart-empty without a cart, with an empty one, or without lines of that provider', async () => {
      const none = await checkout(testApp, {}, { provider: 'tc', purchaser: PURCHASER }).expect(400);
      expect(none.body).toEqual({ code: 'cart-empty', message: expect.any(String), data: { status: 400 } });
      await checkout(testApp, { authorization: otherBuyer.authorization }, { provider: 'tc', purchaser: PURCHASER }).expect(400);
      const ticket = await paidTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const rsvp = await checkout(testApp, identity, { provider: 'rsvp', purchaser: PURCHASER }).expect(400);
      expect(rsvp.body.code).toBe('cart-empty');
    });

    it('returns 409 ticket-capacity-not-available when the units went meanwhile, and changes nothing', async () => {
      const ticket = await paidTicket(2);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const ordersBefore = await testApp.dataSource.getRepository(Order).count();
      const response = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).expect(409);
      expect(response.body).toMatchObject({ code: 'ticket-capacity-not-available', data: { status: 409, ticket_id: ticket.id } });
      expect(await testApp.dataSource.getRepository(Order).count()).toBe(ordersBefore);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 1, sold: 0 });
      expect((await identify(http().get(CART_PATH), identity).expect(200)).body.tickets).toHaveLength(1);
    });

    it('takes shared-pool capacity with the ticket and refuses what the pool cannot hold', async () => {
      const pooled = await insertEvent(testApp.dataSource);
      await insertPool(testApp.dataSource, pooled.id, 3);
      const first = await insertTicket(testApp.dataSource, { eventId: pooled.id, price: '0.00', capacityMode: 'capped', capacity: 3 });
      const second = await insertTicket(testApp.dataSource, { eventId: pooled.id, price: '0.00', capacityMode: 'global', capacity: null });
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: second.id, quantity: 2 }]);
      await placeOrder({}, 'tc', [{ ticket_id: first.id, quantity: 2 }]);
      const refused = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).expect(409);
      expect(refused.body.data.ticket_id).toBe(second.id);
      expect(await reloadPool(testApp.dataSource, pooled.id)).toMatchObject({ sold: 2, pending: 0 });
      expect(await reloadTicket(testApp.dataSource, second.id)).toMatchObject({ sold: 0 });
    });

    it('refuses tickets whose sale ended between cart and checkout', async () => {
      const ticket = await paidTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      await testApp.dataSource.getRepository(Ticket).update({ id: ticket.id }, { saleEndUtc: new Date(Date.now() - 1000) });
      const response = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).expect(409);
      expect(response.body.data).toMatchObject({ ticket_id: ticket.id, reason: 'after-sale' });
    });

    it('validates the body: purchaser, emails, provider, going and holders, never with a 500', async () => {
      const ticket = await paidTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const missing = await checkout(testApp, identity, {}).expect(400);
      expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['provider', 'purchaser'] } });
      const missingName = await checkout(testApp, identity, { provider: 'tc', purchaser: { email: 'x@example.org' } }).expect(400);
      expect(missingName.body.data.params).toEqual(['purchaser[name]']);
      const badEmail = await checkout(testApp, identity, { provider: 'tc', purchaser: { name: 'X', email: 'not-an-email' } }).expect(400);
      expect(badEmail.body.data.params).toHaveProperty(['purchaser[email]']);
      const unknownProvider = await checkout(testApp, identity, { provider: 'woo', purchaser: PURCHASER }).expect(400);
      expect(unknownProvider.body.data.params).toHaveProperty('provider');
      const goingOnPaid = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER, going: true }).expect(400);
      expect(goingOnPaid.body.data.params).toHaveProperty('going');
      const badGoing = await checkout(testApp, identity, { provider: 'rsvp', purchaser: PURCHASER, going: 'maybe' }).expect(400);
      expect(badGoing.body.data.params).toHaveProperty('going');
      const malformed: unknown[] = [
        { provider: 'tc', purchaser: 'me' },
        { provider: 'tc', purchaser: PURCHASER, attendees: 'all' },
        { provider: 'tc', purchaser: PURCHASER, attendees: [{ ticket_id: 'abc', name: 'A', email: 'a@example.org' }] },
        { provider: 'tc', purchaser: PURCHASER, attendees: [{ ticket_id: -1, name: 'A', email: 'a@example.org' }] },
        { provider: 'tc', purchaser: PURCHASER, attendees: [{ ticket_id: 99_999_999_999, name: 'A', email: 'a@example.org' }] },
        { provider: 'tc', purchaser: PURCHASER, attendees: [{ ticket_id: ticket.id, name: 'A', email: 'a@example.org', meta: 'x' }] },
        { provider: 12, purchaser: PURCHASER },
        { provider: 'tc', purchaser: { name: 'x'.repeat(300), email: 'a@example.org' } },
      ];
      for (const body of malformed) {
        const response = await checkout(testApp, identity, body as Record<string, unknown>);
        expect([response.status, response.body.code]).toEqual([400, expect.stringMatching(/^rest_(invalid|missing_callback)_param$/)]);
      }
      expect((await identify(http().get(CART_PATH), identity).expect(200)).body.tickets).toHaveLength(1);
    });

    it('accepts a form-encoded checkout', async () => {
      const ticket = await freeTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const response = await identify(http().post('/cal/tickets/v1/cart/checkout'), identity)
        .type('form')
        .send(
          `provider=tc&purchaser[name]=Form%20Buyer&purchaser[email]=form@example.org&attendees[0][ticket_id]=${ticket.id}&attendees[0][name]=Holder&attendees[0][email]=holder@example.org`,
        )
        .expect(201);
      expect(response.body.purchaser).toEqual({ name: 'Form Buyer', email: 'form@example.org' });
      expect(response.body.attendees[0].title).toBe('Holder');
    });
  });

  describe('idempotency', () => {
    it('answers a retry with the first order, once, and marks it as a replay', async () => {
      const ticket = await paidTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      const body = { provider: 'tc', purchaser: PURCHASER };
      const first = await checkout(testApp, identity, body, 'key-1').expect(201);
      const retry = await checkout(
        testApp,
        identity,
        { purchaser: { email: PURCHASER.email, name: PURCHASER.name }, provider: 'tc' },
        'key-1',
      ).expect(201);
      expect(retry.body).toEqual(first.body);
      expect(new URL(retry.headers.location).pathname).toBe(new URL(first.headers.location).pathname);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(await testApp.dataSource.getRepository(Order).countBy({ cartToken: identity.token })).toBe(1);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 2 });
    });

    it('returns 422 idempotency-key-reused for the same key with another body', async () => {
      const ticket = await paidTicket(10);
      const identity = await fillCart(testApp, { authorization: buyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }, 'key-2').expect(201);
      const reused = await checkout(
        testApp,
        identity,
        { provider: 'tc', purchaser: { ...PURCHASER, name: 'Someone Else' } },
        'key-2',
      ).expect(422);
      expect(reused.body).toEqual({ code: 'idempotency-key-reused', message: expect.any(String), data: { status: 422 } });
    });

    it('keeps keys per buyer, forgets them after a day, and refuses malformed keys', async () => {
      const ticket = await paidTicket(10);
      const first = await fillCart(testApp, { authorization: otherBuyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const second = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const a = await checkout(testApp, first, { provider: 'tc', purchaser: PURCHASER }, 'shared-key').expect(201);
      const b = await checkout(testApp, second, { provider: 'tc', purchaser: PURCHASER }, 'shared-key').expect(201);
      expect(b.body.id).not.toBe(a.body.id);

      clock.advanceMinutes(24 * 60 + 1);
      await fillCart(testApp, first, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const later = await checkout(testApp, first, { provider: 'tc', purchaser: PURCHASER }, 'shared-key').expect(201);
      expect(later.body.id).not.toBe(a.body.id);
      expect(
        await testApp.dataSource.getRepository(IdempotencyKey).countBy({ scope: `user:${otherBuyer.id}`, idempotencyKey: 'shared-key' }),
      ).toBe(1);

      for (const key of ['x'.repeat(256), 'with space inside', 'accent-é']) {
        const response = await checkout(testApp, first, { provider: 'tc', purchaser: PURCHASER }, key).expect(400);
        expect(response.body.data.params).toHaveProperty(['Idempotency-Key']);
      }
    });

    it('does not remember failed checkouts: a retry after the cause is fixed succeeds', async () => {
      const ticket = await paidTicket(1);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const blocker = await placeOrder({ authorization: editor.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }, 'key-3').expect(409);
      await http().post(`${ORDERS_PATH}/${blocker.order.id}/cancel`).set('Authorization', editor.authorization).expect(200);
      await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }, 'key-3').expect(201);
    });

    it('gives concurrent retries with one key a single order', async () => {
      const ticket = await paidTicket(10);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const responses = await Promise.all(
        [1, 2, 3, 4].map(() => checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }, 'race-key')),
      );
      expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
      expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 1 });
    });
  });

  describe('hold expiry', () => {
    it('expires lapsed holds with the injected clock, giving their capacity back once', async () => {
      const ticket = await paidTicket(5);
      const { order } = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      const sweeper = testApp.app.get(OrderExpiryService);
      clock.advanceMinutes(14);
      await sweeper.sweepExpiredOrders();
      expect(await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: order.id })).toMatchObject({ status: 'pending' });

      clock.advanceMinutes(2);
      expect(await sweeper.sweepExpiredOrders()).toBeGreaterThanOrEqual(1);
      expect(await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: order.id })).toMatchObject({ status: 'expired' });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
      const rows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(rows.map((row) => row.orderStatus)).toEqual(['expired', 'expired']);
      await sweeper.sweepExpiredOrders();
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });

      const late = await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(409);
      expect(late.body).toMatchObject({ code: 'order-invalid-status', data: { status: 409, order_status: 'expired' } });
    });

    it('refuses to complete a lapsed hold the sweeper has not reached yet, and expires it', async () => {
      const ticket = await paidTicket(5);
      const { order } = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      clock.advanceMinutes(16);
      const response = await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(409);
      expect(response.body.code).toBe('order-invalid-status');
      expect(await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: order.id })).toMatchObject({ status: 'expired' });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
    });

    it('forgets idle carts and day-old idempotency keys', async () => {
      const ticket = await paidTicket(5);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      clock.advanceMinutes(24 * 60 + 1);
      await testApp.app.get(OrderExpiryService).purgeStale();
      expect(await testApp.dataSource.getRepository(CartItem).count({ where: { ticketId: ticket.id } })).toBe(0);
      expect((await identify(http().get(CART_PATH), identity).expect(200)).body.tickets).toEqual([]);
    });
  });

  describe('completing', () => {
    it('lets an editor complete a pending order: pending becomes sold, attendees completed', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({ authorization: buyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      const response = await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(200);
      expect(response.body).toMatchObject({ id: order.id, status: 'completed' });
      expect(response.body).not.toHaveProperty('expires');
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
      const rows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(rows.map((row) => row.orderStatus)).toEqual(['completed', 'completed']);
      const again = await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(409);
      expect(again.body).toMatchObject({ code: 'order-invalid-status', data: { order_status: 'completed' } });
    });

    it("lets the event's author complete it, and nobody else", async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({ authorization: buyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const anonymous = await http().post(`${ORDERS_PATH}/${order.id}/complete`).expect(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      const byBuyer = await identify(http().post(`${ORDERS_PATH}/${order.id}/complete`), identity).expect(403);
      expect(byBuyer.body.code).toBe('rest_forbidden');
      const byStranger = await http()
        .post(`${ORDERS_PATH}/${order.id}/complete`)
        .set('Authorization', otherAuthor.authorization)
        .expect(404);
      expect(byStranger.body.code).toBe('order-not-found');
      await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', eventAuthor.authorization).expect(200);
    });

    it('needs a manager of every event in the order', async () => {
      const own = await paidTicket(10);
      const foreign = await paidTicket(10, otherEvent.id);
      const { order } = await placeOrder({}, 'tc', [
        { ticket_id: own.id, quantity: 1 },
        { ticket_id: foreign.id, quantity: 1 },
      ]);
      const partial = await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', eventAuthor.authorization).expect(403);
      expect(partial.body.code).toBe('rest_forbidden');
      await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(200);
    });

    it('accepts a payment webhook signed over the canonical JSON body, and refuses bad signatures', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const path = `${ORDERS_PATH}/${order.id}/complete`;
      const bad = await http()
        .post(path)
        .set('X-Signature', signPayload('some-other-secret-entirely', canonicalJson({ order_id: order.id })))
        .send({ order_id: order.id })
        .expect(403);
      expect(bad.body).toEqual({ code: 'invalid-signature', message: expect.any(String), data: { status: 403 } });
      await http().post(path).set('X-Signature', '').send({ order_id: order.id }).expect(403);
      const otherOrder = signPayload(WEBHOOK_SECRET, canonicalJson({ order_id: order.id + 1 }));
      await http()
        .post(path)
        .set('X-Signature', otherOrder)
        .send({ order_id: order.id + 1 })
        .expect(403);
      const tampered = signPayload(WEBHOOK_SECRET, canonicalJson({ order_id: order.id, amount: '25.00' }));
      await http().post(path).set('X-Signature', tampered).send({ order_id: order.id, amount: '99.00' }).expect(403);

      const body = { payment_reference: 'pay_123', order_id: order.id };
      const signature = signPayload(WEBHOOK_SECRET, canonicalJson(body));
      // Key order and spacing in the raw body do not matter: the canonical form is what is signed.
      const response = await http()
        .post(path)
        .set('X-Signature', signature)
        .set('Content-Type', 'application/json')
        .send(`{ "order_id": ${order.id}, "payment_reference": "pay_123" }`)
        .expect(200);
      expect(response.body.status).toBe('completed');
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 1, pending: 0 });
      const missing = signPayload(WEBHOOK_SECRET, canonicalJson({ order_id: 999_999 }));
      await http().post(`${ORDERS_PATH}/999999/complete`).set('X-Signature', missing).send({ order_id: 999_999 }).expect(404);
    });
  });

  describe('cancelling and refunding', () => {
    it('lets the anonymous buyer cancel their pending order, releasing the hold', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 3 }]);
      const response = await identify(http().post(`${ORDERS_PATH}/${order.id}/cancel`), identity).expect(200);
      expect(response.body.status).toBe('cancelled');
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
      const rows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(rows.every((row) => row.orderStatus === 'cancelled')).toBe(true);
      const again = await identify(http().post(`${ORDERS_PATH}/${order.id}/cancel`), identity).expect(409);
      expect(again.body.code).toBe('order-invalid-status');
    });

    it('lets only managers cancel a completed order, releasing what it sold', async () => {
      const ticket = await freeTicket(10);
      const { order, identity } = await placeOrder({ authorization: buyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      const byBuyer = await identify(http().post(`${ORDERS_PATH}/${order.id}/cancel`), identity).expect(403);
      expect(byBuyer.body.code).toBe('rest_forbidden');
      await http().post(`${ORDERS_PATH}/${order.id}/cancel`).expect(401);
      await http().post(`${ORDERS_PATH}/${order.id}/cancel`).set('Authorization', otherBuyer.authorization).expect(404);
      await http().post(`${ORDERS_PATH}/${order.id}/cancel`).set('Authorization', eventAuthor.authorization).expect(200);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 0, pending: 0 });
    });

    it('refunds completed orders only, releasing sold units and pool capacity', async () => {
      const pooled = await insertEvent(testApp.dataSource, { authorId: eventAuthor.id });
      await insertPool(testApp.dataSource, pooled.id, 5);
      const ticket = await insertTicket(testApp.dataSource, { eventId: pooled.id, price: '10.00', capacityMode: 'capped', capacity: 4 });
      const { order } = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      const early = await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', editor.authorization).expect(409);
      expect(early.body).toMatchObject({ code: 'order-invalid-status', data: { order_status: 'pending' } });
      await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(200);
      expect(await reloadPool(testApp.dataSource, pooled.id)).toMatchObject({ sold: 2, pending: 0 });
      await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', otherAuthor.authorization).expect(404);
      const refunded = await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', eventAuthor.authorization).expect(200);
      expect(refunded.body.status).toBe('refunded');
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 0, pending: 0 });
      expect(await reloadPool(testApp.dataSource, pooled.id)).toMatchObject({ sold: 0, pending: 0 });
      await http().post(`${ORDERS_PATH}/${order.id}/cancel`).set('Authorization', editor.authorization).expect(409);
      const rows = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(rows.every((row) => row.orderStatus === 'refunded')).toBe(true);
    });

    it('releases nothing when cancelling an RSVP not-going answer', async () => {
      const ticket = await rsvpTicket(5);
      await placeOrder({}, 'rsvp', [{ ticket_id: ticket.id, quantity: 1 }]);
      const { order } = await placeOrder({}, 'rsvp', [{ ticket_id: ticket.id, quantity: 2 }], { going: false });
      await http().post(`${ORDERS_PATH}/${order.id}/cancel`).set('Authorization', editor.authorization).expect(200);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 1 });
    });

    it('answers non-numeric ids with rest_no_route and unknown ones with order-not-found', async () => {
      for (const action of ['complete', 'cancel', 'refund']) {
        expect((await http().post(`${ORDERS_PATH}/abc/${action}`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
          'rest_no_route',
        );
        expect(
          (await http().post(`${ORDERS_PATH}/999999/${action}`).set('Authorization', editor.authorization).expect(404)).body.code,
        ).toBe('order-not-found');
      }
      expect(
        (await http().post(`${ORDERS_PATH}/1/complete`).set('Authorization', editor.authorization).send({ order_id: 'abc' }).expect(400))
          .body.code,
      ).toBe('rest_invalid_param');
    });
  });

  describe('reading orders', () => {
    let buyerOrderId: number;
    let guestOrderId: number;
    let guest: BuyerIdentity;

    beforeAll(async () => {
      await testApp.dataSource.getRepository(Attendee).createQueryBuilder().delete().execute();
      await testApp.dataSource.getRepository(Order).createQueryBuilder().delete().execute();
      const ticket = await paidTicket(50);
      buyerOrderId = (await placeOrder({ authorization: buyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }])).order.id;
      await placeOrder({ authorization: buyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      await placeOrder({ authorization: otherBuyer.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const placed = await placeOrder({}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      guestOrderId = placed.order.id;
      guest = placed.identity;
    });

    it('shows buyers their own orders only, paginated with the tickets-namespace headers', async () => {
      const own = await http().get(ORDERS_PATH).set('Authorization', buyer.authorization).expect(200);
      expect(Object.keys(own.body)).toEqual(['rest_url', 'total', 'total_pages', 'orders']);
      expect(own.body).toMatchObject({ total: 2, total_pages: 1 });
      expect(own.headers['x-et-total']).toBe('2');
      expect(own.headers['x-et-total-pages']).toBe('1');
      expect(own.body.orders.map((order: { id: number }) => order.id)[0]).toBe(buyerOrderId);
      const other = await http().get(ORDERS_PATH).set('Authorization', otherBuyer.authorization).expect(200);
      expect(other.body.total).toBe(1);
      expect(other.body.orders[0].id).not.toBe(buyerOrderId);
      const byGuest = await identify(http().get(ORDERS_PATH), guest).expect(200);
      expect(byGuest.body.orders.map((order: { id: number }) => order.id)).toEqual([guestOrderId]);
      const anonymous = await http().get(ORDERS_PATH).expect(200);
      expect(anonymous.body).toMatchObject({ total: 0, total_pages: 0, orders: [] });
    });

    it('shows managers every order, with status filter and paging', async () => {
      const all = await http().get(ORDERS_PATH).set('Authorization', editor.authorization).expect(200);
      expect(all.body.total).toBe(4);
      const paged = await http().get(ORDERS_PATH).query({ per_page: 3, page: 2 }).set('Authorization', editor.authorization).expect(200);
      expect(paged.body).toMatchObject({ total: 4, total_pages: 2 });
      expect(paged.body.orders).toHaveLength(1);
      expect(paged.body.rest_url).toMatch(/\/cal\/tickets\/v1\/orders\?page=2&per_page=3$/);
      const pending = await http()
        .get(ORDERS_PATH)
        .query({ status: 'pending,completed' })
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(pending.body.total).toBe(4);
      const none = await http().get(ORDERS_PATH).query({ status: 'refunded' }).set('Authorization', editor.authorization).expect(200);
      expect(none.body.total).toBe(0);
      // An author who is not an editor sees their own purchases in the list, not their events' orders.
      expect((await http().get(ORDERS_PATH).set('Authorization', eventAuthor.authorization).expect(200)).body.total).toBe(0);
    });

    it('refuses bad paging and filters with 400', async () => {
      for (const query of [{ per_page: 0 }, { per_page: 101 }, { page: 0 }, { page: 'x' }, { status: 'lost' }]) {
        const response = await http().get(ORDERS_PATH).query(query).set('Authorization', editor.authorization).expect(400);
        expect(response.body.code).toBe('rest_invalid_param');
      }
      const pastEnd = await http().get(ORDERS_PATH).query({ page: 9 }).set('Authorization', editor.authorization).expect(400);
      expect(pastEnd.body.code).toBe('invalid-page-number');
    });

    it("shows one order to its buyer and its events' managers, and 404 order-not-found to everyone else", async () => {
      const own = await http().get(`${ORDERS_PATH}/${buyerOrderId}`).set('Authorization', buyer.authorization).expect(200);
      expect(own.body.attendees[0].security_code).toMatch(/^[0-9a-f]{32}$/);
      await http().get(`${ORDERS_PATH}/${buyerOrderId}`).set('Authorization', editor.authorization).expect(200);
      await http().get(`${ORDERS_PATH}/${buyerOrderId}`).set('Authorization', eventAuthor.authorization).expect(200);
      for (const stranger of [otherBuyer, otherAuthor]) {
        const response = await http().get(`${ORDERS_PATH}/${buyerOrderId}`).set('Authorization', stranger.authorization).expect(404);
        expect(response.body).toEqual({ code: 'order-not-found', message: expect.any(String), data: { status: 404 } });
      }
      await http().get(`${ORDERS_PATH}/${buyerOrderId}`).expect(404);
      await identify(http().get(`${ORDERS_PATH}/${buyerOrderId}`), guest).expect(404);
      await identify(http().get(`${ORDERS_PATH}/${guestOrderId}`), guest).expect(200);
      await http().get(`${ORDERS_PATH}/${guestOrderId}`).set('Cookie', `cal_cart=${guest.token}`).expect(200);
      expect((await http().get(`${ORDERS_PATH}/12abc`).expect(404)).body.code).toBe('rest_no_route');
      expect((await http().get(`${ORDERS_PATH}/999999`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
        'order-not-found',
      );
    });
  });

  describe('arbitrary input', () => {
    it('never answers a checkout or an order route with a 500', async () => {
      const ticket = await freeTicket(1000);
      const identity = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const person = () =>
        fc.oneof(
          fc.record(
            { name: fc.oneof(fc.string(), fc.jsonValue()), email: fc.oneof(fc.emailAddress(), fc.jsonValue()) },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        );
      const payload = fc.record(
        {
          provider: fc.oneof(fc.constantFrom('tc', 'rsvp', 'tpp', 'woo'), fc.jsonValue()),
          purchaser: person(),
          attendees: fc.oneof(
            fc.array(
              fc.record(
                {
                  ticket_id: fc.oneof(fc.constant(ticket.id), fc.integer(), fc.string(), fc.jsonValue()),
                  name: fc.string(),
                  email: fc.emailAddress(),
                  meta: fc.jsonValue(),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 3 },
            ),
            fc.jsonValue(),
          ),
          going: fc.jsonValue(),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(payload, fc.option(fc.string({ maxLength: 300 })), fc.string(), async (body, key, id) => {
          const test = identify(http().post('/cal/tickets/v1/cart/checkout'), identity).set('Content-Type', 'application/json');
          if (key !== null) test.set('Idempotency-Key', key.replace(/[\r\n]/g, ''));
          expect((await test.send(JSON.stringify(body))).status).toBeLessThan(500);
          const path = `${ORDERS_PATH}/${encodeURIComponent(id)}`;
          expect((await http().get(path).set('Authorization', editor.authorization)).status).toBeLessThan(500);
          expect((await http().post(`${path}/cancel`).set('Authorization', editor.authorization).send(body)).status).toBeLessThan(500);
          expect((await http().get(ORDERS_PATH).query({ page: id, per_page: id, status: id })).status).toBeLessThan(500);
        }),
        { numRuns: 100 },
      );
    });
  });
});
