import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { CLOCK } from '../src/common/clock';
import { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { OrderExpiryService } from '../src/orders/order-expiry.service';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { Payment, PaymentProviderEvent } from '../src/payments/payment.entity';
import { PaymentsService } from '../src/payments/payments.service';
import { BuyerIdentity, checkout, fillCart, identify, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { PayPalDouble } from './helpers/paypal-double';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, reloadTicket, TestClock } from './helpers/ticketing-fixtures';

jest.setTimeout(60_000);

const CLIENT_ID = 'AbPayPalDoubleClientId0123456789';
const CLIENT_SECRET = 'EFPayPalDoubleSecret0123456789';
const WEBHOOK_ID = 'WH-DOUBLE-0123456789';
const WEBHOOK_PATH = '/cal/tickets/v1/payments/paypal/webhook';
const VARIABLES = [
  'PAYMENT_PROVIDER',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_CLIENT_SECRET',
  'PAYPAL_WEBHOOK_ID',
  'PAYPAL_API_BASE',
  'ORDER_HOLD_MINUTES',
];

describe('Payments through PayPal (e2e, against a local PayPal double)', () => {
  const double = new PayPalDouble(CLIENT_ID, CLIENT_SECRET, WEBHOOK_ID);
  const clock = new TestClock();
  let testApp: TestApp;
  let editor: TestUser;
  let eventAuthor: TestUser;
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
      PAYMENT_PROVIDER: 'paypal',
      PAYPAL_CLIENT_ID: CLIENT_ID,
      PAYPAL_CLIENT_SECRET: CLIENT_SECRET,
      PAYPAL_WEBHOOK_ID: WEBHOOK_ID,
      PAYPAL_API_BASE: double.url,
      ORDER_HOLD_MINUTES: '15',
    });
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    editor = await createUser(testApp, 'editor');
    eventAuthor = await createUser(testApp, 'author');
    buyer = await createUser(testApp, 'subscriber');
    otherBuyer = await createUser(testApp, 'subscriber');
    event = await insertEvent(testApp.dataSource, { authorId: eventAuthor.id });
  });

  afterAll(async () => {
    await testApp.close();
    await double.stop();
    for (const name of VARIABLES) delete process.env[name];
  });

  beforeEach(() => {
    clock.reset();
    double.clear();
  });

  const paidTicket = (capacity = 10, price = '25.00') => insertTicket(testApp.dataSource, { eventId: event.id, price, capacity });

  async function placeOrder(identity: BuyerIdentity, ticketId: number, quantity: number) {
    const filled = await fillCart(testApp, identity, 'tc', [{ ticket_id: ticketId, quantity }]);
    const response = await checkout(testApp, filled, { provider: 'tc', purchaser: PURCHASER });
    if (response.status !== 201) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
    return { identity: filled, order: response.body as Record<string, any> };
  }

  async function paypalOrderOf(orderId: number): Promise<string> {
    return (await payments().findOneByOrFail({ orderId })).intentId as string;
  }

  const capture = (orderId: number, identity: BuyerIdentity) =>
    identify(http().post(`${ORDERS_PATH}/${orderId}/payment/capture`), identity);

  function deliver(payload: string, headers: Record<string, string>) {
    return http().post(WEBHOOK_PATH).set('Content-Type', 'application/json').set(headers).send(payload);
  }
  const signed = (payload: string) => deliver(payload, double.signWebhook(payload));

  /** The buyer approves at PayPal and their page asks for the capture, as a retried request would on 503 database-busy. */
  async function approveAndCapture(orderId: number, identity: BuyerIdentity): Promise<request.Response> {
    double.approve(await paypalOrderOf(orderId));
    for (let attempt = 1; ; attempt += 1) {
      const response = await capture(orderId, identity);
      if (response.status !== 503 || attempt === 5) return response;
      expect(response.body.code).toBe('database-busy');
    }
  }

  async function outboxEvents(orderId: number, type: string): Promise<OutboxMessage[]> {
    const rows = await testApp.dataSource.getRepository(OutboxMessage).find({ where: { channel: 'event', type } });
    return rows.filter((row) => (JSON.parse(row.payload) as { order_id?: number }).order_id === orderId);
  }

  /** Expires the order's hold and sweeps it: its tickets go back. */
  async function lapse(): Promise<void> {
    clock.advanceMinutes(16);
    await sweeper().sweepExpiredOrders();
  }

  describe('checkout', () => {
    it('answers 201 with the pending order and a PayPal order for its total, through the SDK with its OAuth token', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({ authorization: buyer.authorization }, ticket.id, 2);
      expect(order).toMatchObject({ status: 'pending', total: '50.00', currency: 'USD' });
      const paypalOrderId = await paypalOrderOf(order.id);
      expect(order.payment).toEqual({
        provider: 'paypal',
        status: 'requires_payment',
        client_secret: paypalOrderId,
        publishable_key: CLIENT_ID,
        expires_at: order.expires,
        amount: '50.00',
        amount_refunded: '0.00',
      });
      const tokens = double.requestsTo('POST', /^\/v1\/oauth2\/token$/);
      expect(tokens.length).toBeGreaterThanOrEqual(1);
      expect(tokens[0].authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
      const creates = double.requestsTo('POST', /^\/v2\/checkout\/orders$/);
      expect(creates).toHaveLength(1);
      expect(creates[0].authorization).toMatch(/^Bearer A21AA-double-/);
      expect(creates[0].body).toMatchObject({
        intent: 'CAPTURE',
        purchase_units: [{ custom_id: String(order.id), amount: { currency_code: 'USD', value: '50.00' } }],
      });
      expect(creates[0].requestId).toMatch(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-intent$`));
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({
        provider: 'paypal',
        amountMinor: 5000,
        currency: 'usd',
      });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 2, sold: 0 });
    });

    it('keeps the order pending and says so when PayPal does not answer', async () => {
      const ticket = await paidTicket(10);
      double.failNext('/v2/checkout/orders', 500, 2);
      const { order } = await placeOrder({}, ticket.id, 1);
      expect(order.status).toBe('pending');
      expect(order.payment).toMatchObject({
        provider: 'paypal',
        status: 'unavailable',
        client_secret: null,
        failure_message: expect.any(String),
      });
    });
  });

  describe('a paid order', () => {
    it('goes from checkout to completed: the buyer approves, their page asks for the capture, PayPal takes the money', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, ticket.id, 2);
      const paypalOrderId = await paypalOrderOf(order.id);

      // Before the approval, nothing can be captured.
      const early = await capture(order.id, identity).expect(409);
      expect(early.body).toMatchObject({ code: 'payment-not-approved', data: { status: 409 } });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'pending' });

      const captured = await approveAndCapture(order.id, identity);
      expect(captured.status).toBe(200);
      expect(captured.body).toMatchObject({
        id: order.id,
        status: 'completed',
        payment: { provider: 'paypal', status: 'succeeded', client_secret: null },
      });
      const captures = double.requestsTo('POST', new RegExp(`^/v2/checkout/orders/${paypalOrderId}/capture$`));
      expect(captures.map((one) => one.requestId)).toEqual([
        expect.stringMatching(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-capture$`)),
        expect.stringMatching(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-capture$`)),
      ]);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
      const attendees = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(attendees.map((attendee) => attendee.orderStatus)).toEqual(['completed', 'completed']);
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);

      // A second capture answers the order as it is; PayPal's own capture webhook changes nothing more.
      const again = await capture(order.id, identity).expect(200);
      expect(again.body.status).toBe('completed');
      const completed = double.event('PAYMENT.CAPTURE.COMPLETED', double.captureOf(paypalOrderId));
      expect((await signed(completed).expect(200)).body).toMatchObject({ type: 'PAYMENT.CAPTURE.COMPLETED', outcome: 'already_completed' });
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
    });

    it('completes on CHECKOUT.ORDER.APPROVED alone, capturing it; the same event again is a duplicate', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const paypalOrderId = await paypalOrderOf(order.id);
      const approved = double.event('CHECKOUT.ORDER.APPROVED', double.approve(paypalOrderId));
      const first = await signed(approved).expect(200);
      expect(first.body).toMatchObject({ received: true, type: 'CHECKOUT.ORDER.APPROVED', outcome: 'completed' });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
      expect(double.order(paypalOrderId).status).toBe('COMPLETED');

      const replay = await signed(approved).expect(200);
      expect(replay.body.outcome).toBe('duplicate');
      expect(double.requestsTo('POST', /\/capture$/)).toHaveLength(1);
      expect(await outboxEvents(order.id, 'order.completed')).toHaveLength(1);
    });

    it('lets only its buyer or its managers ask for the capture: others get 404, PayPal is not called', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({ authorization: buyer.authorization }, ticket.id, 1);
      double.approve(await paypalOrderOf(order.id));
      for (const identity of [{}, { authorization: otherBuyer.authorization }, { token: 'not-a-cart-token' }]) {
        const response = await capture(order.id, identity).expect(404);
        expect(response.body).toMatchObject({ code: 'order-not-found', data: { status: 404 } });
      }
      expect(double.requestsTo('POST', /\/capture$/)).toHaveLength(0);
      expect((await capture(order.id, { authorization: editor.authorization }).expect(200)).body.status).toBe('completed');
    });

    it('records a capture PayPal declines; the order stays pending', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, ticket.id, 1);
      double.approve(await paypalOrderOf(order.id));
      double.declineNextCapture = true;
      const refused = await capture(order.id, identity).expect(409);
      expect(refused.body).toMatchObject({ code: 'payment-provider-refused', message: expect.stringContaining('INSTRUMENT_DECLINED') });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'pending' });
    });
  });

  describe('webhook verification', () => {
    it('refuses forged, foreign, tampered and unsigned deliveries with 400 invalid-paypal-signature, changing nothing', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      const approved = double.event('CHECKOUT.ORDER.APPROVED', double.approve(await paypalOrderOf(order.id)));
      const processed = () => testApp.dataSource.getRepository(PaymentProviderEvent).countBy({ provider: 'paypal' });
      const processedBefore = await processed();
      const unsigned = await deliver(approved, {}).expect(400);
      expect(unsigned.body).toEqual({ code: 'invalid-paypal-signature', message: expect.stringMatching(/missing/), data: { status: 400 } });
      const forged = await deliver(approved, { ...double.signWebhook(approved), 'PayPal-Transmission-Sig': 'Zm9yZ2Vk' }).expect(400);
      expect(forged.body).toMatchObject({ code: 'invalid-paypal-signature', message: expect.stringMatching(/FAILURE/) });
      // Signed by PayPal, but for another merchant's webhook.
      const foreign = await deliver(approved, double.signWebhook(approved, 'WH-SOMEONE-ELSE')).expect(400);
      expect(foreign.body.code).toBe('invalid-paypal-signature');
      // A genuine signature of another body.
      const other = double.event('CHECKOUT.ORDER.APPROVED', { id: 'ANOTHER' });
      const tampered = await deliver(approved, double.signWebhook(other)).expect(400);
      expect(tampered.body.code).toBe('invalid-paypal-signature');
      const notJson = await deliver('not json', double.signWebhook('not json')).expect(400);
      expect(notJson.body.code).toBe('invalid-paypal-signature');

      expect(double.requestsTo('POST', /\/capture$/)).toHaveLength(0);
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'pending' });
      expect(await processed()).toBe(processedBefore);
      // Every verification went to PayPal's API, for this webhook id.
      const verifications = double.requestsTo('POST', /^\/v1\/notifications\/verify-webhook-signature$/);
      expect(verifications.length).toBeGreaterThanOrEqual(3);
      for (const verification of verifications) expect(verification.body.webhook_id).toBe(WEBHOOK_ID);
    });

    it('answers 503 when PayPal cannot verify, so that PayPal delivers again', async () => {
      const payload = double.event('PAYMENT.CAPTURE.COMPLETED', { id: 'X' });
      double.failNext('/v1/notifications/verify-webhook-signature', 500, 1);
      const response = await signed(payload).expect(503);
      expect(response.body).toMatchObject({ code: 'payment-provider-unavailable', data: { status: 503 } });
    });

    it('processes a replayed event id once', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, ticket.id, 1);
      const paypalOrderId = await paypalOrderOf(order.id);
      await approveAndCapture(order.id, identity);
      const payload = double.event('PAYMENT.CAPTURE.COMPLETED', double.captureOf(paypalOrderId));
      const answers = await Promise.all([signed(payload), signed(payload)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(answers.map((answer) => answer.body.outcome as string).sort()).toEqual(['already_completed', 'duplicate']);
      expect((await signed(payload).expect(200)).body.outcome).toBe('duplicate');
    });

    it('acknowledges event types it does not handle', async () => {
      const payload = double.event('CUSTOMER.DISPUTE.CREATED', { dispute_id: 'PP-D-1' });
      expect((await signed(payload).expect(200)).body).toEqual({
        received: true,
        event_id: expect.any(String),
        type: 'CUSTOMER.DISPUTE.CREATED',
        outcome: 'ignored',
      });
    });
  });

  describe('refunds', () => {
    async function paidOrder() {
      const ticket = await paidTicket(10);
      const placed = await placeOrder({ authorization: buyer.authorization }, ticket.id, 2);
      expect((await approveAndCapture(placed.order.id, { authorization: buyer.authorization })).status).toBe(200);
      double.clear();
      return { ticket, order: placed.order, paypalOrderId: await paypalOrderOf(placed.order.id) };
    }

    it("refunds part then the rest through the capture, with amount and currency; PayPal's refund webhook changes nothing more", async () => {
      const { ticket, order, paypalOrderId } = await paidOrder();
      const captureId = double.captureOf(paypalOrderId).id;
      const partial = await http()
        .post(`${ORDERS_PATH}/${order.id}/refund`)
        .set('Authorization', editor.authorization)
        .send({ amount: '10.00' })
        .expect(200);
      expect(partial.body).toMatchObject({ status: 'completed', payment: { status: 'partially_refunded', amount_refunded: '10.00' } });
      const full = await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', eventAuthor.authorization).expect(200);
      expect(full.body).toMatchObject({ status: 'refunded', payment: { status: 'refunded', amount_refunded: '50.00' } });
      const refunds = double.requestsTo('POST', new RegExp(`^/v2/payments/captures/${captureId}/refund$`));
      expect(refunds.map((refund) => refund.body.amount)).toEqual([
        { currency_code: 'USD', value: '10.00' },
        { currency_code: 'USD', value: '40.00' },
      ]);
      expect(refunds[0].requestId).not.toBe(refunds[1].requestId);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ sold: 0, pending: 0 });
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);

      const echo = await signed(
        double.event('PAYMENT.CAPTURE.REFUNDED', double.refundResource(double.refunds[double.refunds.length - 1])),
      ).expect(200);
      expect(echo.body.outcome).toBe('refunded');
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ refundedMinor: 5000, status: 'refunded' });
    });

    it("marks a refund made in PayPal's dashboard: in part the order stays completed, in full it is refunded", async () => {
      const { order, paypalOrderId } = await paidOrder();
      const capture = double.captureOf(paypalOrderId);
      capture.status = 'PARTIALLY_REFUNDED';
      const first = { id: 'DASHBOARD-1', capture_id: capture.id, amount: { currency_code: 'USD', value: '15.00' } };
      double.refunds.push(first);
      const partial = await signed(double.event('PAYMENT.CAPTURE.REFUNDED', double.refundResource(first))).expect(200);
      expect(partial.body.outcome).toBe('partially_refunded');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
      capture.status = 'REFUNDED';
      const second = { id: 'DASHBOARD-2', capture_id: capture.id, amount: { currency_code: 'USD', value: '35.00' } };
      double.refunds.push(second);
      const full = await signed(double.event('PAYMENT.CAPTURE.REFUNDED', double.refundResource(second))).expect(200);
      expect(full.body.outcome).toBe('refunded');
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'refunded' });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ refundedMinor: 5000 });
    });

    it('answers 503 when PayPal does not answer the refund, leaving the order completed', async () => {
      const { order, paypalOrderId } = await paidOrder();
      double.failNext(`/v2/payments/captures/${double.captureOf(paypalOrderId).id}/refund`, 500, 2);
      const response = await http().post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', editor.authorization).expect(503);
      expect(response.body).toMatchObject({ code: 'payment-provider-unavailable', data: { status: 503 } });
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'completed' });
    });
  });

  describe('after the hold lapsed', () => {
    it('expires the order without a call to PayPal (an order nobody captures is never charged)', async () => {
      const ticket = await paidTicket(10);
      const { order } = await placeOrder({}, ticket.id, 1);
      double.clear();
      await lapse();
      expect(await orders().findOneByOrFail({ id: order.id })).toMatchObject({ status: 'expired' });
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({ status: 'canceled', pendingAction: null });
      expect(double.requests.filter((one) => one.path !== '/v1/oauth2/token')).toHaveLength(0);
    });

    it('completes a late capture when the tickets are still there', async () => {
      const ticket = await paidTicket(3);
      const { order, identity } = await placeOrder({}, ticket.id, 2);
      await lapse();
      const response = await approveAndCapture(order.id, identity);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'completed', payment: { status: 'succeeded' } });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 2 });
    });

    it('refunds through PayPal a late capture whose tickets were sold meanwhile, and tells the buyer', async () => {
      const ticket = await paidTicket(1);
      const { order, identity } = await placeOrder({}, ticket.id, 1);
      await lapse();
      const { order: second } = await placeOrder({}, ticket.id, 1);
      expect(second.status).toBe('pending');

      const response = await approveAndCapture(order.id, identity);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'refunded', payment: { status: 'refunded', amount_refunded: '25.00' } });
      const paypalOrderId = await paypalOrderOf(order.id);
      const refunds = double.requestsTo('POST', new RegExp(`^/v2/payments/captures/${double.captureOf(paypalOrderId).id}/refund$`));
      expect(refunds).toHaveLength(1);
      expect(refunds[0].body.amount).toEqual({ currency_code: 'USD', value: '25.00' });
      expect(refunds[0].requestId).toMatch(new RegExp(`^cal-order-${order.id}-[\\w-]{22}-late-refund$`));
      expect(await payments().findOneByOrFail({ orderId: order.id })).toMatchObject({
        status: 'refunded',
        refundedMinor: 2500,
        pendingAction: null,
      });
      // The other buyer keeps the last unit.
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 1, sold: 0 });
      expect(await outboxEvents(order.id, 'order.refunded')).toHaveLength(1);
    });

    it('does not capture the payment of an order cancelled meanwhile', async () => {
      const ticket = await paidTicket(10);
      const { order, identity } = await placeOrder({}, ticket.id, 1);
      await identify(http().post(`${ORDERS_PATH}/${order.id}/cancel`), identity).expect(200);
      double.approve(await paypalOrderOf(order.id));
      const refused = await capture(order.id, identity).expect(409);
      expect(refused.body).toMatchObject({ code: 'payment-not-capturable', message: expect.stringContaining('cancelled') });
      expect(double.requestsTo('POST', /\/capture$/)).toHaveLength(0);
    });
  });

  describe('concurrency', () => {
    it('never oversells at checkout with PayPal on, and creates PayPal orders for the orders placed only', async () => {
      const ticket = await paidTicket(4);
      const buyers = [];
      for (let index = 0; index < 10; index += 1) buyers.push(await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]));
      const answers = await Promise.all(buyers.map((identity) => checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER })));
      const placed = answers.filter((answer) => answer.status === 201);
      expect(placed).toHaveLength(4);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(6);
      for (const answer of placed) expect(answer.body.payment).toMatchObject({ provider: 'paypal', status: 'requires_payment' });
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 4, sold: 0 });
      const creates = double.requestsTo('POST', /^\/v2\/checkout\/orders$/);
      expect(creates.map((create) => Number(create.body.purchase_units[0].custom_id)).sort()).toEqual(
        placed.map((answer) => answer.body.id as number).sort(),
      );
    });

    it('gives the units left to as many late captures as they cover, never more, and refunds the rest', async () => {
      const ticket = await paidTicket(3);
      const placed = [];
      for (let round = 0; round < 2; round += 1) {
        const batch = [await placeOrder({}, ticket.id, 1), await placeOrder({}, ticket.id, 1), await placeOrder({}, ticket.id, 1)];
        await lapse();
        placed.push(...batch);
      }
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 0 });
      // All six buyers approve and capture at once.
      const answers = await Promise.all(placed.map(({ order, identity }) => approveAndCapture(order.id as number, identity)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      await testApp.app.get(PaymentsService).runDueActions();
      const statuses = await Promise.all(placed.map(async ({ order }) => (await orders().findOneByOrFail({ id: order.id })).status));
      expect(statuses.filter((status) => status === 'completed')).toHaveLength(3);
      expect(statuses.filter((status) => status === 'refunded')).toHaveLength(3);
      expect(await reloadTicket(testApp.dataSource, ticket.id)).toMatchObject({ pending: 0, sold: 3 });
      const completedIds = placed.filter((_, index) => statuses[index] === 'completed').map(({ order }) => order.id as number);
      const attendees = await testApp.dataSource.getRepository(Attendee).find({ where: { ticketId: ticket.id } });
      expect(
        attendees
          .filter((attendee) => attendee.orderStatus === 'completed')
          .map((attendee) => attendee.orderId)
          .sort(),
      ).toEqual(completedIds.sort());
      // Each refunded order was refunded once, in full.
      const refunds = double.requestsTo('POST', /^\/v2\/payments\/captures\/[^/]+\/refund$/);
      expect(refunds.map((refund) => refund.body.amount.value)).toEqual(['25.00', '25.00', '25.00']);
    });
  });
});
