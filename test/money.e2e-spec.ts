import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { Coupon } from '../src/coupons/coupon.entity';
import { MoneyInMinorUnits1765120000000 } from '../src/database/migrations/1765120000000-MoneyInMinorUnits';
import type { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { Payment } from '../src/payments/payment.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { BuyerIdentity, CART_PATH, checkout, identify, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { StripeDouble } from './helpers/stripe-double';
import { noncesOf, postTicket, TicketNonces } from './helpers/ticket-fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(120_000);

const WEBHOOK_SECRET = 'whsec_test_double_money_0123456789';
const WEBHOOK_PATH = '/cal/tickets/v1/payments/stripe/webhook';
const COUPONS = '/cal/tickets/v1/coupons';
const TICKETS = '/cal/tickets/v1/tickets';

/**
 * One deployment per currency (CURRENCY_CODE is the app's), paid through the Stripe double: what is
 * refused, what an order says and what Stripe is asked for, to the unit.
 */
interface CurrencyCase {
  code: string;
  /** Two ticket prices as a manager types them, and a 15 % coupon on the second one. */
  prices: [string, string];
  /** What the order answers: the second ticket after the coupon, the coupon's discount, the total of 3 × first + 1 × second. */
  discountedSecond: string;
  discount: string;
  total: string;
  /** The PaymentIntent's amount and currency as Stripe counts them. */
  stripeAmount: number;
  /** A price with one decimal more than the currency has. */
  tooPrecise: string;
  /** A price the currency has but Stripe cannot charge (off its step), if any. */
  offStep?: string;
  /** The largest amount the validators take (on Stripe's step), and one more than it. */
  largest: string;
  tooLarge: string;
  /** A partial refund, and what Stripe is asked for. */
  refund: string;
  stripeRefund: number;
  /** The total as the attendees' CSV writes a unit of the first ticket. */
  firstCsv: string;
}

const CASES: CurrencyCase[] = [
  {
    code: 'JPY',
    // 15 % of 1 001 yen is 150.15: 150 off, 851 to pay; 3 × 1 500 + 851.
    prices: ['1500', '1001'],
    discountedSecond: '851',
    discount: '150',
    total: '5351',
    stripeAmount: 5351,
    tooPrecise: '1500.50',
    largest: '9999999999',
    tooLarge: '10000000000',
    refund: '1000',
    stripeRefund: 1000,
    firstCsv: '1500',
  },
  {
    code: 'EUR',
    // 15 % of 10.01 is 1.5015: 1.50 off, 8.51 to pay.
    prices: ['15', '10.01'],
    discountedSecond: '8.51',
    discount: '1.50',
    total: '53.51',
    stripeAmount: 5351,
    tooPrecise: '25.999',
    largest: '9999999999.99',
    tooLarge: '10000000000',
    refund: '10.01',
    stripeRefund: 1001,
    firstCsv: '15.00',
  },
  {
    code: 'KWD',
    // Stripe takes dinars in steps of 0.010: 15 % of 1.010 is 0.1515, 0.150 off, 0.860 to pay.
    prices: ['1.5', '1.010'],
    discountedSecond: '0.860',
    discount: '0.150',
    total: '5.360',
    stripeAmount: 5360,
    tooPrecise: '4.1255',
    offStep: '4.125',
    largest: '9999999999.990',
    tooLarge: '10000000000',
    refund: '1.010',
    stripeRefund: 1010,
    firstCsv: '1.500',
  },
];

describe('Money in the currency units (e2e, one app per currency, Stripe double)', () => {
  const double = new StripeDouble();
  const saved: Record<string, string | undefined> = {};
  const variables = [
    'CURRENCY_CODE',
    'PAYMENT_PROVIDER',
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_PUBLISHABLE_KEY',
    'STRIPE_API_BASE',
  ];

  beforeAll(async () => {
    await double.start();
    for (const name of variables) saved[name] = process.env[name];
  });

  afterAll(async () => {
    await double.stop();
    for (const name of variables) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  describe.each(CASES)('$code', (currency) => {
    let testApp: TestApp;
    let editor: TestUser;
    let author: TestUser;
    let event: Event;
    let nonces: TicketNonces;
    const http = () => request(testApp.server);

    beforeAll(async () => {
      Object.assign(process.env, {
        CURRENCY_CODE: currency.code,
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_double_0123456789',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_double_0123456789',
        STRIPE_API_BASE: double.url,
      });
      testApp = await createTestApp();
      editor = await createUser(testApp, 'editor');
      author = await createUser(testApp, 'author');
      event = await insertEvent(testApp.dataSource, { authorId: author.id });
      nonces = await noncesOf(testApp, author);
    });

    afterAll(() => testApp.close());

    beforeEach(() => double.clear());

    function createTicket(price: unknown) {
      return http()
        .post(TICKETS)
        .set('Authorization', author.authorization)
        .send({
          post_id: event.id,
          provider: 'tc',
          name: 'Seat',
          price,
          ticket: { mode: 'own', capacity: 50 },
          add_ticket_nonce: nonces.add_ticket_nonce,
        });
    }

    function createCoupon(body: Record<string, unknown>) {
      return http()
        .post(COUPONS)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, ...body });
    }

    let codes = 0;
    const nextCode = () => `${currency.code}CODE${(codes += 1)}`;

    it('refuses a decimal more than the currency has on every money input, with 400 rest_invalid_param naming the field', async () => {
      const price = await createTicket(currency.tooPrecise).expect(400);
      expect(price.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { price: expect.stringContaining(currency.code) } },
      });

      if (currency.offStep) {
        const offStep = await createTicket(currency.offStep).expect(400);
        expect(offStep.body.data.params).toEqual({
          price: `price must be a multiple of 0.010: ${currency.code} is charged in steps of 0.010`,
        });
      }

      const ticket = (await createTicket(currency.prices[0]).expect(201)).body as { id: number };
      const update = await http()
        .patch(`${TICKETS}/${ticket.id}`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, price: currency.tooPrecise, edit_ticket_nonce: nonces.edit_ticket_nonce })
        .expect(400);
      expect(Object.keys(update.body.data.params)).toEqual(['price']);

      const flat = await createCoupon({ code: nextCode(), discount_type: 'flat', amount: currency.tooPrecise }).expect(400);
      expect(flat.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { amount: expect.stringContaining(currency.code) } } });

      const filter = await http()
        .get('/cal/tickets/v1/attendees')
        .query({ price_min: currency.tooPrecise })
        .set('Authorization', editor.authorization)
        .expect(400);
      expect(Object.keys(filter.body.data.params)).toEqual(['price_min']);
    });

    it('takes the largest amounts the validators accept, in prices and flat coupons, and refuses one more (no 500)', async () => {
      const ticket = await createTicket(currency.largest).expect(201);
      expect(ticket.body.cost_details.values).toEqual([currency.largest.replace(/\.?0+$/, '')]);
      const stored = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticket.body.id as number });
      expect(String(stored.priceMinor)).toBe(currency.largest.replace('.', ''));

      const code = nextCode();
      const coupon = await createCoupon({ code, discount_type: 'flat', amount: currency.largest }).expect(201);
      expect(coupon.body.amount).toBe(currency.largest);
      expect((await http().get(`${COUPONS}/${coupon.body.id}`).set('Authorization', author.authorization).expect(200)).body.amount).toBe(
        currency.largest,
      );
      expect(String((await testApp.dataSource.getRepository(Coupon).findOneByOrFail({ code })).amount)).toBe(
        currency.largest.replace('.', ''),
      );
      const updated = await http()
        .put(`${COUPONS}/${coupon.body.id}`)
        .set('Authorization', author.authorization)
        .send({ amount: currency.largest })
        .expect(200);
      expect(updated.body.amount).toBe(currency.largest);

      expect((await createTicket(currency.tooLarge).expect(400)).body.data.params).toEqual({ price: expect.stringMatching(/at most/) });
      const refused = await createCoupon({ code: nextCode(), discount_type: 'flat', amount: currency.tooLarge }).expect(400);
      expect(refused.body.data.params).toEqual({ amount: expect.stringMatching(/at most/) });
    });

    it('charges Stripe exactly what the order says, refunds exactly what is asked, and prints the currency decimals everywhere', async () => {
      const first = await postTicket(testApp.server, author.authorization, event.id, { price: currency.prices[0], capacity: 20 });
      const second = await postTicket(testApp.server, author.authorization, event.id, { price: currency.prices[1], capacity: 20 });
      const code = nextCode();
      await createCoupon({ code, discount_type: 'percent', amount: '15', ticket_ids: [second.id] }).expect(201);

      const cart = await http()
        .post(CART_PATH)
        .set('Authorization', editor.authorization)
        .send({
          provider: 'tc',
          tickets: [
            { ticket_id: first.id, quantity: 3 },
            { ticket_id: second.id, quantity: 1 },
          ],
          coupon: code,
        })
        .expect(200);
      const secondLine = (cart.body.tickets as Array<Record<string, unknown>>).find((line) => line.ticket_id === second.id);
      expect(secondLine).toMatchObject({ discount: currency.discount, discounted_price: currency.discountedSecond });

      const buyer: BuyerIdentity = { authorization: editor.authorization };
      const placed = await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      expect(placed.body).toMatchObject({ status: 'pending', total: currency.total, currency: currency.code, discount: currency.discount });
      const attendees = placed.body.attendees as Array<{
        ticket_id: number;
        payment: { price: string };
        ticket: { currency_config: { number_of_decimals: number } };
      }>;
      expect(attendees.find((attendee) => attendee.ticket_id === second.id)?.payment.price).toBe(
        currency.discountedSecond.replace(/\.?0+$/, ''),
      );
      expect(attendees[0].ticket.currency_config.number_of_decimals).toBe(currency.total.split('.')[1]?.length ?? 0);

      // What Stripe is asked for, in its units: the order's total to the unit.
      const intents = double.requestsTo('POST', /^\/v1\/payment_intents$/);
      expect(intents).toHaveLength(1);
      expect(intents[0].body).toMatchObject({ amount: String(currency.stripeAmount), currency: currency.code.toLowerCase() });
      expect(placed.body.payment).toMatchObject({
        amount: currency.total,
        amount_refunded: (0).toFixed(currency.total.split('.')[1]?.length ?? 0),
      });
      const order = await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: placed.body.id as number });
      expect(String(order.totalMinor)).toBe(currency.total.replace('.', ''));

      // Stripe took exactly that: the order completes.
      const payment = await testApp.dataSource.getRepository(Payment).findOneByOrFail({ orderId: order.id });
      const paid = double.event('payment_intent.succeeded', double.succeed(payment.intentId!));
      const webhook = await http()
        .post(WEBHOOK_PATH)
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', StripeDouble.sign(paid, WEBHOOK_SECRET))
        .send(paid)
        .expect(200);
      expect(webhook.body.outcome).toBe('completed');

      const report = await http()
        .get('/cal/tickets/v1/reports/summary')
        .query({ post_id: event.id })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(report.body).toMatchObject({ currency: currency.code, revenue: currency.total, discount: currency.discount });

      const csv = await http()
        .get('/cal/tickets/v1/attendees/export')
        .query({ post_id: event.id })
        .set('Authorization', author.authorization)
        .expect(200);
      const rows = parse<Record<string, string>>(csv.text, { bom: true, columns: true, skip_empty_lines: true });
      const units = rows.filter((row) => Number(row['Ticket ID']) === first.id && Number(row['Order ID']) === order.id);
      expect(units.map((row) => [row['Price paid'], row.Currency])).toEqual([0, 1, 2].map(() => [currency.firstCsv, currency.code]));

      // Refunds: no more decimals than the currency has, and Stripe asked for exactly the amount.
      const refundPath = `${ORDERS_PATH}/${order.id}/refund`;
      const tooPrecise = await http()
        .post(refundPath)
        .set('Authorization', editor.authorization)
        .send({ amount: currency.tooPrecise })
        .expect(400);
      expect(Object.keys(tooPrecise.body.data.params)).toEqual(['amount']);
      const partial = await http()
        .post(refundPath)
        .set('Authorization', editor.authorization)
        .send({ amount: currency.refund })
        .expect(200);
      expect(partial.body).toMatchObject({
        status: 'completed',
        payment: { status: 'partially_refunded', amount_refunded: currency.refund },
      });
      const refunds = double.requestsTo('POST', /^\/v1\/refunds$/);
      expect(refunds.map((refund) => refund.body.amount)).toEqual([String(currency.stripeRefund)]);
      const rest = await http().post(refundPath).set('Authorization', editor.authorization).expect(200);
      expect(rest.body).toMatchObject({ status: 'refunded', payment: { status: 'refunded', amount_refunded: currency.total } });
      const all = double.requestsTo('POST', /^\/v1\/refunds$/).map((refund) => Number(refund.body.amount));
      expect(all.reduce((sum, amount) => sum + amount, 0)).toBe(currency.stripeAmount);
    });

    it('does not complete an order when Stripe took another amount than it says', async () => {
      const ticket = await postTicket(testApp.server, author.authorization, event.id, { price: currency.prices[0], capacity: 5 });
      await identify(http().post(CART_PATH), { authorization: editor.authorization })
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], coupon: '' })
        .expect(200);
      const placed = await checkout(testApp, { authorization: editor.authorization }, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      const payment = await testApp.dataSource.getRepository(Payment).findOneByOrFail({ orderId: placed.body.id as number });
      const intent = double.succeed(payment.intentId!);
      const tampered = double.event('payment_intent.succeeded', {
        ...intent,
        amount: intent.amount - 10,
        amount_received: intent.amount - 10,
      });
      const webhook = await http()
        .post(WEBHOOK_PATH)
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', StripeDouble.sign(tampered, WEBHOOK_SECRET))
        .send(tampered)
        .expect(200);
      expect(webhook.body.outcome).toBe('amount_mismatch');
      expect(await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: placed.body.id as number })).toMatchObject({
        status: 'pending',
      });
    });
  });
});

describe('MoneyInMinorUnits on stored amounts', () => {
  const saved = process.env.CURRENCY_CODE;
  afterAll(() => {
    if (saved === undefined) delete process.env.CURRENCY_CODE;
    else process.env.CURRENCY_CODE = saved;
  });

  it.each(['JPY', 'EUR'])('converts %s amounts to minor units and back', async (code) => {
    process.env.CURRENCY_CODE = code;
    const testApp = await createTestApp();
    try {
      const author = await createUser(testApp, 'author');
      const event = await insertEvent(testApp.dataSource, { authorId: author.id });
      const ticket = await postTicket(testApp.server, author.authorization, event.id, { price: '1500', capacity: 5 });
      const runner = testApp.dataSource.createQueryRunner();
      const migration = new MoneyInMinorUnits1765120000000();
      try {
        await migration.down(runner);
        const [decimal] = (await runner.query('SELECT price FROM tickets WHERE id = ?', [ticket.id])) as Array<{ price: string | number }>;
        expect(Number(decimal.price)).toBe(1500);
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      const stored = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticket.id as number });
      expect(stored.priceMinor).toBe(code === 'JPY' ? 1500 : 150000);
    } finally {
      await testApp.close();
    }
  });
});
