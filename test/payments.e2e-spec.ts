import { Writable } from 'node:stream';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { CLOCK } from '../src/common/clock';
import { Coupon } from '../src/coupons/coupon.entity';
import { LOG_DESTINATION } from '../src/common/security/log-redaction';
import { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { OrderExpiryService } from '../src/orders/order-expiry.service';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { OutboxWorker } from '../src/outbox-worker/outbox-worker.service';
import { Payment, PaymentProviderEvent } from '../src/payments/payment.entity';
import { PaymentsService } from '../src/payments/payments.service';
import { BuyerIdentity, CART_PATH, checkout, fillCart, identify, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { StripeDouble } from './helpers/stripe-double';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, reloadTicket, TestClock } from './helpers/ticketing-fixtures';

jest.setTimeout(60_000);

const WEBHOOK_SECRET = 'whsec_test_double_secret_0123456789';
const PUBLISHABLE_KEY = 'pk_test_double_0123456789';
const SECRET_KEY = 'sk_test_double_0123456789';
const WEBHOOK_PATH = '/cal/tickets/v1/payments/stripe/webhook';

describe('Payments through Stripe (e2e, against a local Stripe double)', () => {
  const double = new StripeDouble();
  // Everything the app logs (at info: every request with its headers), searched for secrets at the end.
  const logLines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const signatures: string[] = [];
  const clock = new TestClock();
  let testApp: TestApp;
  let editor: TestUser;
  let eventAuthor: TestUser;
  let otherAuthor: TestUser;
  let buyer: TestUser;
  let otherBuyer: TestUser;
  let event: Event;

  const http = () => request(testApp.server);
  const orders = () => testApp.dataSource.getRepository(Order);
  const payments = () => testApp.dataSource.getRepository(Payment);
  const sweeper = () => testApp.app.get(OrderExpiryService);

  beforeAll(async () => {
    await double.start();
    Object.assign(process.env, {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      STRIPE_API_BASE: double.url,
      ORDER_HOLD_MINUTES: '15',
      LOG_LEVEL: 'info',
    });
    testApp = await createTestApp({
      overrides: [
        { provide: CLOCK, useValue: clock },
        { provide: LOG_DESTINATION, useValue: capture },
      ],
    });
    editor = await createUser(testApp, 'editor');
    eventAuthor = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    buyer = await createUser(testApp, 'subscriber');
    otherBuyer = await createUser(testApp, 'subscriber');
    event = await insertEvent(testApp.dataSource, { authorId: eventAuthor.id });
  });

  afterAll(async () => {
    await testApp.close();
    await double.stop();
    for (const name of ['PAYMENT_PROVIDER', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_API_BASE']) {
      delete process.env[name];
    }
  });

  beforeEach(() => {
    clock.reset();
    double.clear();
  });

  const paidTicket = (capacity = 10, price = '25.00') => insertTicket(testApp.dataSource, { eventId: event.id, price, capacity });

  async function placeOrder(identity: BuyerIdentity, ticketId: number, quantity: number, idempotencyKey?: string) {
    const filled = await fillCart(testApp, identity, 'tc', [{ ticket_id: ticketId, quantity }]);
    const response = await checkout(testApp, filled, { provider: 'tc', purchaser: PURCHASER }, idempotencyKey);
    if (response.status !== 201) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
    return { identity: filled, order: response.body as Record<string, any>, response };
  }

  function deliver(payload: string, signature?: string) {
    const test = http().post(WEBHOOK_PATH).set('Content-Type', 'application/json');
    if (signature !== undefined) test.set('Stripe-Signature', signature);
    return test.send(payload);
  }

  const signed = (payload: string) => {
    const signature = StripeDouble.sign(payload, WEBHOOK_SECRET);
    signatures.push(signature);
    return deliver(payload, signature);
  };

  async function intentOf(orderId: number): Promise<string> {
    return (await payments().findOneByOrFail({ orderId })).intentId as string;
  }

  /** Stripe does not answer the cancel of this order's intent (the SDK's try and its retry). */
  async function cancelFails(orderId: number): Promise<void> {
    double.failNext(`/v1/payment_intents/${await intentOf(orderId)}/cancel`, 500, 2);
  }

  /**
   * Like pay, with Stripe's delivery: an answer of 503 (`database-busy`, when concurrent payments'
   * transactions kept colliding past their retries) has Stripe send the same event again.
   */
  async function payAsStripeDelivers(orderId: number): Promise<request.Response> {
    const payload = double.event('payment_intent.succeeded', double.succeed(await intentOf(orderId)));
    for (let delivery = 1; ; delivery += 1) {
      const response = await signed(payload);
      if (response.status !== 503 || delivery === 5) return response;
      expect(response.body.code).toBe('database-busy');
    }
  }

  /** The buyer pays: the intent succeeds at the double and Stripe's signed event arrives (200). */
  async function pay(orderId: number): Promise<request.Response> {
    const intent = double.succeed(await intentOf(orderId));
    return signed(double.event('payment_intent.succeeded', intent)).expect(200);
  }

  async function outboxEvents(orderId: number, type: string): Promise<OutboxMessage[]> {
    const rows = await testApp.dataSource.getRepository(OutboxMessage).find({ where: { channel: 'event', type } });
    return rows.filter((row) => (JSON.parse(row.payload) as { order_id?: number }).order_id === orderId);
  }

  describe('checkout', () => {
    it('answers 201 with the pending order, its hold, and a PaymentIntent for its total', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({ authorization: buyer.authorization }, ticket.id, 2);
      expect(order).toMatchObject({ status: 'pending', provider: 'tc', total: '50.00', currency: 'USD' });
      expect(order.payment).toEqual({
        provider: 'stripe',
        status: 'requires_payment',
        client_secret: expect.stringMatching(/^pi_double_\d+_secret_\d+$/),
        publishable_key: PUBLISHABLE_KEY,
        expires_at: order.expires,
        amount: '50.00',
        amount_refunded: '0.00',
      });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 2, sold: 0 });

      const creates = double.requestsTo('POST', /^\/v1\/payment_intents$/);
      expect(creates).toHaveLength(1);
      expect(creates[0].authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(creates[0].body).toMatchObject({ amount: '5000', currency: 'usd', metadata: { order_id: String(order.id) } });
      expect(creates[0].idempotencyKey).toMatch(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-intent$`));
      const stored = await payments().findOneByOrFail({ orderId: order.id });
      expect(stored).toMatchObject({ provider: 'stripe', amountMinor: 5000, currency: 'usd', status: 'requires_payment' });
      expect(double.intent(stored.intentId as string).client_secret).toBe(order.payment.client_secret);
    });

    it('replays a retried checkout with the same intent, never creating a second one', async () => {
      const ticket = await paidTicket(10);
      const filled = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const body = { provider: 'tc', purchaser: PURCHASER };
      const first = await checkout(testApp, filled, body, 'retry-key-1').expect(201);
      const again = await checkout(testApp, filled, body, 'retry-key-1').expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      expect(again.body.payment.client_secret).toBe(first.body.payment.client_secret);
      expect(double.requestsTo('POST', /^\/v1\/payment_intents$/)).toHaveLength(1);
    });

    it('keeps the order pending and says so when Stripe fails; the retry creates the one intent with the same key', async () => {
      const ticket = await paidTicket(10);
      const filled = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const body = { provider: 'tc', purchaser: PURCHASER };
      // The SDK tries twice (one retry): both fail.
      double.failNext('/v1/payment_intents', 500, 2);
      const first = await checkout(testApp, filled, body, 'retry-key-2').expect(201);
      expect(first.body.status).toBe('pending');
      expect(first.body.payment).toMatchObject({ provider: 'stripe', status: 'unavailable', client_secret: null });
      expect(first.body.payment.failure_message).toEqual(expect.any(String));
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 1 });

      const retry = await checkout(testApp, filled, body, 'retry-key-2').expect(201);
      expect(retry.body.id).toBe(first.body.id);
      expect(retry.body.payment).toMatchObject({ status: 'requires_payment', client_secret: expect.stringMatching(/_secret_/) });
      expect(retry.body.payment.failure_message).toBeUndefined();
      const creates = double.requestsTo('POST', /^\/v1\/payment_intents$/);
      expect(creates).toHaveLength(3);
      expect(new Set(creates.map((create) => create.idempotencyKey)).size).toBe(1);
      const ours = [...double.intents.values()].filter((intent) => intent.metadata.order_id === String(first.body.id));
      expect(ours).toHaveLength(1);
    });

    it('leaves free orders alone: completed at once, no payment, no call to Stripe', async () => {
      const ticket = await paidTicket(10, '0.00');
      const { order } = await placeOrder({}, ticket.id, 1);
      expect(order.status).toBe('completed');
      expect(order.payment).toBeUndefined();
      expect(double.requests).toHaveLength(0);
    });
  });

  describe('webhook signature', () => {
    it('refuses a missing, malformed, forged or foreign signature with a 400 envelope, changing nothing', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const payload = double.event('payment_intent.succeeded', double.succeed(await intentOf(order.id)));
      const missing = await deliver(payload).expect(400);
      expect(missing.body).toEqual({ code: 'invalid-stripe-signature', message: expect.stringMatching(/missing/), data: { status: 400 } });
      const malformed = await deliver(payload, 'not-a-signature').expect(400);
      expect(malformed.body).toMatchObject({ code: 'invalid-stripe-signature', data: { status: 400 } });
      const foreign = await deliver(payload, StripeDouble.sign(payload, 'whsec_another_secret_entirely')).expect(400);
      expect(foreign.body.code).toBe('invalid-stripe-signature');
      // A valid signature of another body.
      const other = double.event('payment_intent.succeeded', { id: 'pi_other' });
      const tampered = await deliver(payload, StripeDouble.sign(other, WEBHOOK_SECRET)).expect(400);
      expect(tampered.body.code).toBe('invalid-stripe-signature');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'pending' });
      expect(await testApp.dataSource.getRepository(PaymentProviderEvent).count()).toBe(0);
    });

    it('refuses a replay signed outside the tolerance (5 minutes)', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const payload = double.event('payment_intent.succeeded', double.succeed(await intentOf(order.id)));
      const old = StripeDouble.sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600);
      const replay = await deliver(payload, old).expect(400);
      expect(replay.body).toMatchObject({ code: 'invalid-stripe-signature', message: expect.stringMatching(/tolerance/i) });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'pending' });
    });

    it('answers bodies the parser refuses with the envelope, never a 500', async () => {
      const large = await deliver('x'.repeat(1024 * 1024 + 1), 't=1,v1=0').expect(413);
      expect(large.body).toMatchObject({ code: 'rest_request_too_large', data: { status: 413 } });
      const encoded = await http()
        .post(WEBHOOK_PATH)
        .set('Content-Encoding', 'bogus')
        .set('Stripe-Signature', 't=1,v1=0')
        .send('{}')
        .expect(415);
      expect(encoded.body).toMatchObject({ code: 'rest_unsupported_media_type', data: { status: 415 } });
      const form = await http().post(WEBHOOK_PATH).type('form').set('Stripe-Signature', 't=1,v1=0').send('id=evt_1').expect(400);
      expect(form.body.code).toBe('invalid-stripe-signature');
    });

    it('acknowledges event types it does not handle, once', async () => {
      const payload = double.event('customer.created', { id: 'cus_1', object: 'customer' });
      const response = await signed(payload).expect(200);
      expect(response.body).toEqual({ received: true, event_id: expect.any(String), type: 'customer.created', outcome: 'ignored' });
    });
  });

  describe('payment_intent.succeeded', () => {
    it('completes the order: attendees valid, tickets sold, order.completed in the outbox; a second delivery does nothing', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({ authorization: buyer.authorization }, ticket.id, 2);
      const intent = double.succeed(await intentOf(order.id));
      const payload = double.event('payment_intent.succeeded', intent);
      const response = await signed(payload).expect(200);
      expect(response.body).toMatchObject({ received: true, type: 'payment_intent.succeeded', outcome: 'completed' });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed', expiresAt: null });
      const attendees = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(attendees.map((attendee) => attendee.orderStatus)).toEqual(['completed', 'completed']);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);

      const duplicate = await signed(payload).expect(200);
      expect(duplicate.body.outcome).toBe('duplicate');
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });

      const read = await http().get(`${ORDERS_PATH}/${order.id}`).set('Authorization', buyer.authorization).expect(200);
      expect(read.body.status).toBe('completed');
      expect(read.body.payment).toMatchObject({ status: 'succeeded', client_secret: null, expires_at: null, amount: '50.00' });
      const list = await http().get(ORDERS_PATH).set('Authorization', buyer.authorization).expect(200);
      expect(list.body.orders.find((listed: { id: number }) => listed.id === order.id).payment).toEqual(read.body.payment);

      // Event ids are kept 30 days (Stripe retries for three), then forgotten by the sweep's purge.
      const processed = testApp.dataSource.getRepository(PaymentProviderEvent);
      const eventId = (JSON.parse(payload) as { id: string }).id;
      await sweeper().purgeStale();
      expect(await processed.countBy({ eventId })).toBe(1);
      clock.advanceMinutes(31 * 24 * 60);
      await sweeper().purgeStale();
      expect(await processed.countBy({ eventId })).toBe(0);
    });

    it('sends the confirmation email through the outbox as a manager completion does', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      await pay(order.id);
      await testApp.app.get(OutboxWorker).drain();
      const emails = await testApp.dataSource
        .getRepository(OutboxMessage)
        .find({ where: { channel: 'email', type: 'order-confirmation' } });
      expect(emails.filter((email) => (JSON.parse(email.payload) as { order_id: number }).order_id === order.id)).toEqual([
        expect.objectContaining({ recipient: PURCHASER.email }),
      ]);
    });

    it('completes a payment made after the hold lapsed when the tickets are still there, taking them again', async () => {
      const ticket = await paidTicket(3);
      const { order } = await placeOrder({}, ticket.id, 2);
      clock.advanceMinutes(16);
      // Stripe does not answer the cancel the sweep owes it: the payment goes through meanwhile.
      await cancelFails(order.id);
      await sweeper().sweepExpiredOrders();
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'expired' });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'canceled', pendingAction: 'cancel' });

      const response = await pay(order.id);
      expect(response.body.outcome).toBe('completed');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
      // The cancel it owed is dropped: the money is kept for the tickets.
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'succeeded', pendingAction: null });
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);
    });

    /** A 20 % code of the event's author for `maxUses` units, and an order of `quantity` units placed with it. */
    async function placeOrderWithCoupon(ticketId: number, quantity: number, maxUses: number) {
      const code = `LATE${Date.now()}${Math.floor(Math.random() * 1e6)}`;
      const coupon = await testApp.dataSource.getRepository(Coupon).save({
        code,
        codeKey: code.toLowerCase(),
        authorId: eventAuthor.id,
        eventId: event.id,
        ticketIds: null,
        discountType: 'percent',
        amount: 2000,
        maxUses,
        uses: 0,
        startsAt: null,
        endsAt: null,
        revealsHidden: false,
      });
      const cart = await identify(http().post(CART_PATH), {}).send({
        provider: 'tc',
        tickets: [{ ticket_id: ticketId, quantity }],
        coupon: code,
      });
      expect(cart.status).toBe(200);
      const response = await checkout(testApp, { token: cart.headers['x-cart-token'] }, { provider: 'tc', purchaser: PURCHASER });
      expect(response.status).toBe(201);
      return { coupon, order: response.body as Record<string, any> };
    }
    const usesOf = async (id: number) => (await testApp.dataSource.getRepository(Coupon).findOneByOrFail({ id })).uses;

    it('takes again the coupon uses an expired order gave back when its late payment completes it', async () => {
      const ticket = await paidTicket(3);
      const { coupon, order } = await placeOrderWithCoupon(ticket.id, 2, 2);
      expect(await usesOf(coupon.id)).toBe(2);
      clock.advanceMinutes(16);
      await cancelFails(order.id);
      await sweeper().sweepExpiredOrders();
      expect(await usesOf(coupon.id)).toBe(0);
      expect((await pay(order.id)).body.outcome).toBe('completed');
      expect(await usesOf(coupon.id)).toBe(2);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
    });

    it('refunds a late payment whose coupon was used up meanwhile, never going past its uses', async () => {
      const ticket = await paidTicket(5);
      const { coupon, order } = await placeOrderWithCoupon(ticket.id, 1, 1);
      clock.advanceMinutes(16);
      await cancelFails(order.id);
      await sweeper().sweepExpiredOrders();
      // Another buyer uses the code's only use meanwhile.
      const cart = await identify(http().post(CART_PATH), {}).send({
        provider: 'tc',
        tickets: [{ ticket_id: ticket.id, quantity: 1 }],
        coupon: coupon.code,
      });
      expect(cart.status).toBe(200);
      expect((await checkout(testApp, { token: cart.headers['x-cart-token'] }, { provider: 'tc', purchaser: PURCHASER })).status).toBe(201);
      expect(await usesOf(coupon.id)).toBe(1);

      expect((await pay(order.id)).body.outcome).toBe('refund_scheduled');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'refunded' });
      expect(await usesOf(coupon.id)).toBe(1);
      // The tickets it took again were rolled back with it: only the other buyer's unit is held.
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 1, sold: 0 });
    });

    it('completes a lapsed hold the sweeper has not reached yet', async () => {
      const ticket = await paidTicket(3);
      const { order } = await placeOrder({}, ticket.id, 1);
      clock.advanceMinutes(20);
      const response = await pay(order.id);
      expect(response.body.outcome).toBe('completed');
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 1 });
      expect(double.requestsTo('POST', /\/cancel$/)).toHaveLength(0);
    });

    it('refunds through Stripe a payment made after the hold lapsed when the tickets were sold meanwhile, and tells the buyer', async () => {
      const ticket = await paidTicket(1);
      const { order } = await placeOrder({}, ticket.id, 1);
      clock.advanceMinutes(16);
      await cancelFails(order.id);
      await sweeper().sweepExpiredOrders();
      const { order: second } = await placeOrder({}, ticket.id, 1);
      expect(second.status).toBe('pending');

      const response = await pay(order.id);
      expect(response.body.outcome).toBe('refund_scheduled');
      const intentId = await intentOf(order.id);
      const refunds = double.requestsTo('POST', /^\/v1\/refunds$/);
      expect(refunds).toHaveLength(1);
      expect(refunds[0].body).toMatchObject({ payment_intent: intentId, amount: '2500', metadata: { order_id: String(order.id) } });
      expect(refunds[0].idempotencyKey).toMatch(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-late-refund$`));
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'refunded' });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({
        status: 'refunded',
        refundedMinor: 2500,
        pendingAction: null,
      });
      const attendees = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(attendees.map((attendee) => attendee.orderStatus)).toEqual(['refunded']);
      // The other buyer keeps the last unit.
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 1, sold: 0 });
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);
      await testApp.app.get(OutboxWorker).drain();
      const emails = await testApp.dataSource.getRepository(OutboxMessage).find({ where: { channel: 'email', type: 'order-refunded' } });
      expect(emails.filter((email) => (JSON.parse(email.payload) as { order_id: number }).order_id === order.id)).toHaveLength(1);
    });

    it('retries the refund it owes when Stripe does not answer, with the same idempotency key', async () => {
      const ticket = await paidTicket(1);
      const { order } = await placeOrder({}, ticket.id, 1);
      clock.advanceMinutes(16);
      await cancelFails(order.id);
      await sweeper().sweepExpiredOrders();
      await placeOrder({}, ticket.id, 1);
      double.failNext('/v1/refunds', 500, 2);
      expect((await pay(order.id)).body.outcome).toBe('refund_scheduled');
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'succeeded', pendingAction: 'refund' });

      clock.advanceMinutes(1);
      expect(await testApp.app.get(PaymentsService).runDueActions()).toBeGreaterThanOrEqual(1);
      const attempts = double.requestsTo('POST', /^\/v1\/refunds$/);
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'refunded', pendingAction: null });
    });
  });

  describe('payment_intent.payment_failed', () => {
    it('records the failure; the order stays pending and the buyer may try again', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, ticket.id, 1);
      const intent = double.decline(await intentOf(order.id), 'Your card has insufficient funds.');
      const response = await signed(double.event('payment_intent.payment_failed', intent)).expect(200);
      expect(response.body.outcome).toBe('failure_recorded');
      const read = await identify(http().get(`${ORDERS_PATH}/${order.id}`), identity).expect(200);
      expect(read.body.status).toBe('pending');
      expect(read.body.payment).toMatchObject({
        status: 'failed',
        failure_message: 'Your card has insufficient funds.',
        client_secret: expect.stringMatching(/_secret_/),
      });
      expect((await pay(order.id)).body.outcome).toBe('completed');
    });
  });

  describe('charge.refunded', () => {
    it('marks a partial refund, then a full one: the order is refunded and its tickets released', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 2);
      await pay(order.id);
      const intentId = await intentOf(order.id);
      // Refunded in Stripe's dashboard.
      double.refunds.push({ id: 're_dashboard_1', payment_intent: intentId, amount: 1500 });
      const partial = await signed(double.event('charge.refunded', double.charge(intentId))).expect(200);
      expect(partial.body.outcome).toBe('partially_refunded');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'partially_refunded', refundedMinor: 1500 });

      double.refunds.push({ id: 're_dashboard_2', payment_intent: intentId, amount: 3500 });
      const full = await signed(double.event('charge.refunded', double.charge(intentId))).expect(200);
      expect(full.body.outcome).toBe('refunded');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'refunded' });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'refunded', refundedMinor: 5000 });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);
    });
  });

  describe('hold expiry', () => {
    it('cancels the PaymentIntent after the order expires', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const intentId = await intentOf(order.id);
      clock.advanceMinutes(16);
      await sweeper().sweepExpiredOrders();
      const cancels = double.requestsTo('POST', new RegExp(`^/v1/payment_intents/${intentId}/cancel$`));
      expect(cancels).toHaveLength(1);
      expect(cancels[0].idempotencyKey).toMatch(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-cancel$`));
      expect(double.intent(intentId).status).toBe('canceled');
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'canceled', pendingAction: null });
    });

    it('retries the cancel on a later sweep when Stripe did not answer', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const intentId = await intentOf(order.id);
      clock.advanceMinutes(16);
      double.failNext(`/v1/payment_intents/${intentId}/cancel`, 503, 2);
      await sweeper().sweepExpiredOrders();
      expect(double.intent(intentId).status).not.toBe('canceled');
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ pendingAction: 'cancel', actionAttempts: 1 });
      await sweeper().sweepExpiredOrders();
      // Not due yet: 30 s after the first failure.
      expect(double.intent(intentId).status).not.toBe('canceled');
      clock.advanceMinutes(1);
      await sweeper().sweepExpiredOrders();
      expect(double.intent(intentId).status).toBe('canceled');
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ pendingAction: null, lastError: null });
    });

    it('cancels the intent when a manager completes the order by hand, so the buyer cannot pay twice', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const intentId = await intentOf(order.id);
      const completed = await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', editor.authorization).expect(200);
      expect(completed.body).toMatchObject({ status: 'completed', payment: { status: 'canceled', client_secret: null } });
      await testApp.app.get(PaymentsService).runDueActions();
      expect(double.intent(intentId).status).toBe('canceled');
    });

    it('cancels the intent when the buyer cancels the pending order', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, ticket.id, 1);
      const intentId = await intentOf(order.id);
      const cancelled = await identify(http().post(`${ORDERS_PATH}/${order.id}/cancel`), identity).expect(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', payment: { status: 'canceled', client_secret: null } });
      await testApp.app.get(PaymentsService).runDueActions();
      expect(double.intent(intentId).status).toBe('canceled');
    });
  });

  describe('manager refunds', () => {
    async function paidOrder(quantity = 2) {
      const ticket = await paidTicket(10);
      const placed = await placeOrder({ authorization: buyer.authorization }, ticket.id, quantity);
      await pay(placed.order.id);
      double.clear();
      return { ticket, order: placed.order };
    }

    it('refunds part through Stripe (the order stays completed), then the rest (the order is refunded)', async () => {
      const { ticket, order } = await paidOrder();
      const intentId = await intentOf(order.id);
      const partial = await http()
        .post(`${ORDERS_PATH}/${order.id}/refund`)
        .set('Authorization', editor.authorization)
        .send({ amount: '10.00' })
        .expect(200);
      expect(partial.body).toMatchObject({ status: 'completed', payment: { status: 'partially_refunded', amount_refunded: '10.00' } });
      const first = double.requestsTo('POST', /^\/v1\/refunds$/);
      expect(first).toHaveLength(1);
      expect(first[0].body).toMatchObject({ payment_intent: intentId, amount: '1000' });

      const full = await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', eventAuthor.authorization).expect(200);
      expect(full.body).toMatchObject({ status: 'refunded', payment: { status: 'refunded', amount_refunded: '50.00' } });
      const all = double.requestsTo('POST', /^\/v1\/refunds$/);
      expect(all).toHaveLength(2);
      expect(all[1].body).toMatchObject({ payment_intent: intentId, amount: '4000' });
      expect(all[0].idempotencyKey).not.toBe(all[1].idempotencyKey);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 0, pending: 0 });
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);

      // Stripe's charge.refunded for the same refunds changes nothing more.
      const echo = await signed(double.event('charge.refunded', double.charge(intentId))).expect(200);
      expect(echo.body.outcome).toBe('refunded');
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ refundedMinor: 5000 });
    });

    it('refuses bad amounts with 400 naming amount, without calling Stripe', async () => {
      const { order } = await paidOrder();
      for (const amount of ['0', '0.00', '50.01', 'ten', '-5', '1.234']) {
        const response = await http()
          .post(`${ORDERS_PATH}/${order.id}/refund`)
          .set('Authorization', editor.authorization)
          .send({ amount })
          .expect(400);
        expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { amount: expect.any(String) } } });
      }
      expect(double.requestsTo('POST', /^\/v1\/refunds$/)).toHaveLength(0);
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
    });

    it('answers 503 when Stripe does not answer, leaving the order completed', async () => {
      const { order } = await paidOrder();
      double.failNext('/v1/refunds', 500, 2);
      const response = await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', editor.authorization).expect(503);
      expect(response.body).toMatchObject({ code: 'payment-provider-unavailable', data: { status: 503 } });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'succeeded', refundedMinor: 0 });
    });

    it('lets only managers of its events refund: anonymous 401, its buyer 403, others 404; Stripe never called', async () => {
      const { order } = await paidOrder();
      const path = `${ORDERS_PATH}/${order.id}/refund`;
      const anonymous = await http().post(path).send({ amount: '5.00' }).expect(401);
      expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
      const ownBuyer = await http().post(path).set('Authorization', buyer.authorization).send({ amount: '5.00' }).expect(403);
      expect(ownBuyer.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
      for (const stranger of [otherBuyer, otherAuthor]) {
        const response = await http().post(path).set('Authorization', stranger.authorization).send({ amount: '5.00' }).expect(404);
        expect(response.body).toMatchObject({ code: 'order-not-found', data: { status: 404 } });
      }
      expect(double.requestsTo('POST', /^\/v1\/refunds$/)).toHaveLength(0);
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ refundedMinor: 0 });
    });
  });

  describe('concurrency', () => {
    it('processes one event id once when Stripe delivers it twice at the same time', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const payload = double.event('payment_intent.succeeded', double.succeed(await intentOf(order.id)));
      const answers = await Promise.all([signed(payload), signed(payload), signed(payload)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers.map((answer) => answer.body.outcome).sort()).toEqual(['completed', 'duplicate', 'duplicate']);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 1 });
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);
    });

    it('never oversells at checkout with Stripe on, and creates intents for the orders placed only', async () => {
      const ticket = await paidTicket(4);
      const buyers = [];
      for (let index = 0; index < 10; index += 1) buyers.push(await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]));
      const answers = await Promise.all(buyers.map((identity) => checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER })));
      const placed = answers.filter((answer) => answer.status === 201);
      expect(placed).toHaveLength(4);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(6);
      for (const answer of placed) expect(answer.body.payment).toMatchObject({ status: 'requires_payment' });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 4, sold: 0 });
      const creates = double.requestsTo('POST', /^\/v1\/payment_intents$/);
      expect(creates.map((create) => Number(create.body.metadata.order_id)).sort()).toEqual(
        placed.map((answer) => answer.body.id as number).sort(),
      );
    });

    it('gives the units left to as many late payments as they cover, never more, and refunds the rest', async () => {
      // Three units; six orders of one unit each, placed three at a time and left to expire.
      const ticket = await paidTicket(3);
      const placed = [];
      for (let round = 0; round < 2; round += 1) {
        const batch = [await placeOrder({}, ticket.id, 1), await placeOrder({}, ticket.id, 1), await placeOrder({}, ticket.id, 1)];
        clock.advanceMinutes(16);
        for (const { order } of batch) await cancelFails(order.id);
        await sweeper().sweepExpiredOrders();
        placed.push(...batch);
      }
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
      // All six buyers' payments arrive at once.
      const answers = await Promise.all(placed.map(({ order }) => payAsStripeDelivers(order.id)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const outcomes = answers.map((answer) => answer.body.outcome as string);
      expect(outcomes.filter((outcome) => outcome === 'completed')).toHaveLength(3);
      expect(outcomes.filter((outcome) => outcome === 'refund_scheduled')).toHaveLength(3);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 3 });
      const statuses = await Promise.all(placed.map(async ({ order }) => (await orders().findOneByOrFail({ id: order.id })).status));
      expect(statuses.filter((status) => status === 'completed')).toHaveLength(3);
      expect(statuses.filter((status) => status === 'refunded')).toHaveLength(3);
      // The sweep: a refund the webhook could not make right away (the database busy with the others) is made now.
      await testApp.app.get(PaymentsService).runDueActions();
      const completedIds = placed.filter((_, index) => statuses[index] === 'completed').map(({ order }) => order.id as number);
      const attendees = await testApp.dataSource.getRepository(Attendee).find({ where: { ticketId: ticket.id } });
      expect(
        attendees
          .filter((attendee) => attendee.orderStatus === 'completed')
          .map((attendee) => attendee.orderId)
          .sort(),
      ).toEqual(completedIds.sort());
      // Each refunded order was refunded once, in full.
      const refunds = double.requestsTo('POST', /^\/v1\/refunds$/);
      expect(refunds).toHaveLength(3);
      expect(refunds.map((refund) => refund.body.amount)).toEqual(['2500', '2500', '2500']);
    });
  });

  describe('logs', () => {
    it('never carry the Stripe keys, the webhook signatures or the client secrets', () => {
      const log = logLines.join('');
      expect(log).toMatch(/stripe\/webhook/);
      const clientSecrets = [...double.intents.values()].map((intent) => intent.client_secret);
      for (const secret of [SECRET_KEY, WEBHOOK_SECRET, ...signatures, ...clientSecrets]) expect(log).not.toContain(secret);
    });
  });
});
