import request from 'supertest';
import { CLOCK } from '../src/common/clock';
import { SalesLedger1765040000001 } from '../src/database/migrations/1765040000001-SalesLedger';
import { CouponSales1765060000000 } from '../src/database/migrations/1765060000000-CouponSales';
import { MoneyInMinorUnits1765120000000 } from '../src/database/migrations/1765120000000-MoneyInMinorUnits';
import type { Event } from '../src/events/event.entity';
import { SalesLedger } from '../src/reports/sales-ledger';
import { SalesDaily, SalesLedgerEntry } from '../src/reports/sales-ledger.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { Attendee } from '../src/attendees/attendee.entity';
import { Ticket as TicketEntity } from '../src/tickets/ticket.entity';
import { BuyerIdentity, CART_PATH, checkout, fillCart, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket, TestClock } from './helpers/ticketing-fixtures';

const REPORTS = '/cal/tickets/v1/reports';
const DAY_1 = new Date('2026-11-20T10:00:00Z');
const DAY_2 = new Date('2026-11-21T09:30:00Z');
const DAY_3 = new Date('2026-11-22T20:00:00Z');

/** What the attendees and orders tables say, counted the slow way, per ticket. */
interface Recount {
  sold: number;
  pending: number;
  everSold: number;
  everSoldCents: number;
  refunded: number;
  refundedCents: number;
  cancelled: number;
  cancelledCents: number;
  netCents: number;
  checkedIn: number;
  /** Units ever sold with a coupon, and what the coupons took off them. */
  couponUnits: number;
  discountCents: number;
}

async function recount(testApp: TestApp, ticketId: number): Promise<Recount> {
  const rows = await testApp.dataSource.query<
    Array<{
      status: string;
      completed_at: unknown;
      price_paid_minor: string | number;
      checked_in: number | boolean;
      rsvp_going: unknown;
      coupon_code: string | null;
      discount_minor: string | number;
    }>
  >(
    'SELECT o.status, o.completed_at, a.price_paid_minor, a.checked_in, a.rsvp_going, a.coupon_code, a.discount_minor FROM attendees a INNER JOIN orders o ON o.id = a.order_id WHERE a.ticket_id = ?',
    [ticketId],
  );
  const result: Recount = {
    sold: 0,
    pending: 0,
    everSold: 0,
    everSoldCents: 0,
    refunded: 0,
    refundedCents: 0,
    cancelled: 0,
    cancelledCents: 0,
    netCents: 0,
    checkedIn: 0,
    couponUnits: 0,
    discountCents: 0,
  };
  for (const row of rows) {
    if (row.rsvp_going !== null && !Number(row.rsvp_going)) continue;
    const cents = Number(row.price_paid_minor);
    const wasSold = row.completed_at !== null;
    if (row.status === 'completed') {
      result.sold += 1;
      result.netCents += cents;
    }
    if (row.status === 'pending') result.pending += 1;
    if (wasSold) {
      result.everSold += 1;
      result.everSoldCents += cents;
      if (row.coupon_code !== null) {
        result.couponUnits += 1;
        result.discountCents += Number(row.discount_minor);
      }
    }
    if (wasSold && row.status === 'refunded') {
      result.refunded += 1;
      result.refundedCents += cents;
    }
    if (wasSold && row.status === 'cancelled') {
      result.cancelled += 1;
      result.cancelledCents += cents;
    }
    if (Number(row.checked_in)) result.checkedIn += 1;
  }
  return result;
}

const money = (cents: number) => (cents / 100).toFixed(2);

describe('Reports (e2e)', () => {
  const clock = new TestClock();
  let testApp: TestApp;
  let editor: TestUser;
  let authorA: TestUser;
  let authorB: TestUser;
  let subscriber: TestUser;
  let event: Event;
  let front: Ticket;
  let pooled: Ticket;
  let rsvp: Ticket;

  const http = () => request(testApp.server);

  /** A buyer's checkout of `lines`: the order body. */
  async function buy(provider: string, lines: Array<{ ticket_id: number; quantity: number }>, extra: Record<string, unknown> = {}) {
    const buyer = await createUser(testApp, 'subscriber');
    const identity: BuyerIdentity = await fillCart(testApp, { authorization: buyer.authorization }, provider, lines);
    const response = await checkout(testApp, identity, { provider, purchaser: PURCHASER, ...extra });
    if (response.status !== 201) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as { id: number; status: string; attendees: Array<{ id: number; ticket_id: number }> };
  }

  const transition = (orderId: number, action: 'complete' | 'cancel' | 'refund') =>
    http().post(`${ORDERS_PATH}/${orderId}/${action}`).set('Authorization', editor.authorization).send({}).expect(200);
  const checkIn = (attendeeId: number, value: boolean) =>
    http().post(`/cal/tickets/v1/attendees/${attendeeId}`).set('Authorization', editor.authorization).send({ check_in: value }).expect(200);
  const summary = (user: TestUser = authorA) =>
    http().get(`${REPORTS}/summary`).query({ post_id: event.id }).set('Authorization', user.authorization);
  const sales = (query: Record<string, unknown>, user: TestUser = authorA) =>
    http()
      .get(`${REPORTS}/sales`)
      .query({ post_id: event.id, ...query })
      .set('Authorization', user.authorization);

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    [editor, authorA, authorB, subscriber] = [
      await createUser(testApp, 'editor'),
      await createUser(testApp, 'author'),
      await createUser(testApp, 'author'),
      await createUser(testApp, 'subscriber'),
    ];
    event = await insertEvent(testApp.dataSource, { authorId: authorA.id });
    front = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Front', price: '25.00', capacity: 10 });
    await insertPool(testApp.dataSource, event.id, 20);
    pooled = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      name: 'Pooled',
      price: '10.50',
      capacityMode: 'global',
      capacity: null,
    });
    rsvp = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'RSVP', provider: 'rsvp', price: '0.00', capacity: 50 });

    // Day 1: two paid orders completed, RSVP answers (two going, one not).
    clock.set(DAY_1);
    const first = await buy('tc', [
      { ticket_id: front.id, quantity: 2 },
      { ticket_id: pooled.id, quantity: 1 },
    ]);
    await transition(first.id, 'complete');
    const second = await buy('tc', [{ ticket_id: front.id, quantity: 1 }]);
    await transition(second.id, 'complete');
    const going = await buy('rsvp', [{ ticket_id: rsvp.id, quantity: 2 }]);
    await buy('rsvp', [{ ticket_id: rsvp.id, quantity: 1 }], { going: false });

    // Day 2: a refund, a sale cancelled after completion, a pending order, a pending one cancelled; check-ins.
    clock.set(DAY_2);
    await transition(second.id, 'refund');
    const fifth = await buy('tc', [{ ticket_id: pooled.id, quantity: 2 }]);
    await transition(fifth.id, 'complete');
    await transition(fifth.id, 'cancel');
    await buy('tc', [{ ticket_id: front.id, quantity: 1 }]);
    const seventh = await buy('tc', [{ ticket_id: pooled.id, quantity: 1 }]);
    await transition(seventh.id, 'cancel');
    for (const attendee of first.attendees) await checkIn(attendee.id, true);
    const pooledAttendee = first.attendees.find((attendee) => attendee.ticket_id === pooled.id)!;
    await checkIn(pooledAttendee.id, false);
    await checkIn(going.attendees[0].id, true);

    // Day 3: checked in again.
    clock.set(DAY_3);
    await checkIn(pooledAttendee.id, true);
  });

  afterAll(() => testApp.close());

  it('summarises capacity, sold, pending, available, revenue and check-ins from the counters', async () => {
    const response = await summary().expect(200);
    expect(response.body).toEqual({
      post_id: event.id,
      currency: 'USD',
      capacity: 80,
      sold: 5,
      pending: 1,
      available: 10 - 3 + 20 - 1 + 50 - 2,
      revenue: '60.50',
      refunded_amount: '25.00',
      checked_in: 4,
      coupon_units: 0,
      discount: '0.00',
      waitlist: 0,
      waitlist_entries: 0,
      // The event's default list, where the attendee API's check-ins are recorded too.
      checkin_lists: [{ list_id: expect.any(Number), name: 'Default', checked_in: 4, inside: 4 }],
      tickets: [
        {
          ticket_id: front.id,
          name: 'Front',
          capacity_mode: 'own',
          capacity: 10,
          sold: 2,
          pending: 1,
          available: 7,
          revenue: '50.00',
          checked_in: 2,
          waitlist: 0,
        },
        {
          ticket_id: pooled.id,
          name: 'Pooled',
          capacity_mode: 'global',
          capacity: 20,
          sold: 1,
          pending: 0,
          available: 19,
          revenue: '10.50',
          checked_in: 1,
          waitlist: 0,
        },
        {
          ticket_id: rsvp.id,
          name: 'RSVP',
          capacity_mode: 'own',
          capacity: 50,
          sold: 2,
          pending: 0,
          available: 48,
          revenue: '0.00',
          checked_in: 1,
          waitlist: 0,
        },
      ],
      // Web checkouts only; RSVPs are not sales.
      payment_methods: [
        { payment_method: 'online', orders: 1, sold: 3, revenue: '60.50' },
        { payment_method: 'cash', orders: 0, sold: 0, revenue: '0.00' },
        { payment_method: 'card_terminal', orders: 0, sold: 0, revenue: '0.00' },
        { payment_method: 'free', orders: 0, sold: 0, revenue: '0.00' },
      ],
    });
  });

  it('reports each day: sales on the day they completed, refunds, cancellations and check-ins on theirs', async () => {
    const response = await sales({ from: '2026-11-20', to: '2026-11-22', interval: 'day' }).expect(200);
    expect(response.body).toMatchObject({
      post_id: event.id,
      from: '2026-11-20',
      to: '2026-11-22',
      interval: 'day',
      time_zone: 'UTC',
      currency: 'USD',
    });
    const byTicket = new Map<number, { intervals: Array<Record<string, unknown>>; totals: Record<string, unknown> }>(
      response.body.tickets.map((entry: { ticket_id: number }) => [entry.ticket_id, entry]),
    );
    expect(byTicket.get(front.id)!.intervals).toEqual([
      expect.objectContaining({ start: '2026-11-20', end: '2026-11-20', sold: 3, revenue: '75.00', refunded: 0, checked_in: 0 }),
      expect.objectContaining({
        start: '2026-11-21',
        sold: 0,
        refunded: 1,
        refunded_amount: '25.00',
        net_sold: -1,
        net_revenue: '-25.00',
        checked_in: 2,
      }),
      expect.objectContaining({ start: '2026-11-22', sold: 0, refunded: 0, checked_in: 0 }),
    ]);
    expect(byTicket.get(pooled.id)!.intervals).toEqual([
      expect.objectContaining({ start: '2026-11-20', sold: 1, revenue: '10.50', checked_in: 0 }),
      expect.objectContaining({
        start: '2026-11-21',
        sold: 2,
        revenue: '21.00',
        cancelled: 2,
        cancelled_amount: '21.00',
        net_sold: 0,
        checked_in: 0,
      }),
      expect.objectContaining({ start: '2026-11-22', sold: 0, checked_in: 1 }),
    ]);
    expect(byTicket.get(rsvp.id)!.totals).toMatchObject({ sold: 2, revenue: '0.00', checked_in: 1 });
    expect(response.body.totals).toEqual({
      sold: 8,
      revenue: '106.50',
      refunded: 1,
      refunded_amount: '25.00',
      cancelled: 2,
      cancelled_amount: '21.00',
      net_sold: 5,
      net_revenue: '60.50',
      checked_in: 4,
      coupon_units: 0,
      discount: '0.00',
    });
    expect(response.body.intervals.map((interval: { sold: number }) => interval.sold)).toEqual([6, 2, 0]);
  });

  it('equals a recount of the attendees and orders, before and after the ledger is folded', async () => {
    const check = async () => {
      const report = await sales({ from: '2026-11-01', to: '2026-11-30' }).expect(200);
      const overview = await summary().expect(200);
      for (const ticket of [front, pooled, rsvp]) {
        const truth = await recount(testApp, ticket.id);
        const totals = report.body.tickets.find((entry: { ticket_id: number }) => entry.ticket_id === ticket.id).totals;
        expect(totals).toEqual({
          sold: truth.everSold,
          revenue: money(truth.everSoldCents),
          refunded: truth.refunded,
          refunded_amount: money(truth.refundedCents),
          cancelled: truth.cancelled,
          cancelled_amount: money(truth.cancelledCents),
          net_sold: truth.sold,
          net_revenue: money(truth.netCents),
          checked_in: truth.checkedIn,
          coupon_units: truth.couponUnits,
          discount: money(truth.discountCents),
        });
        expect(overview.body.tickets.find((entry: { ticket_id: number }) => entry.ticket_id === ticket.id)).toMatchObject({
          sold: truth.sold,
          pending: truth.pending,
          revenue: money(truth.netCents),
          checked_in: truth.checkedIn,
        });
      }
      return { report: report.body as unknown, overview: overview.body as unknown };
    };
    const before = await check();
    expect(await testApp.dataSource.getRepository(SalesLedgerEntry).count()).toBeGreaterThan(0);
    expect(await testApp.app.get(SalesLedger).fold()).toBeGreaterThan(0);
    expect(await testApp.dataSource.getRepository(SalesLedgerEntry).count()).toBe(0);
    // One row per ticket and day: Front on days 1 and 2, Pooled on 1, 2, 3, RSVP on 1 and 2.
    expect(await testApp.dataSource.getRepository(SalesDaily).countBy({ eventId: event.id })).toBe(7);
    expect(await check()).toEqual(before);
  });

  it('groups days into ISO weeks from Monday, cut to the range', async () => {
    const response = await sales({ from: '2026-11-18', to: '2026-11-29', interval: 'week' }).expect(200);
    expect(response.body.intervals).toEqual([
      expect.objectContaining({ start: '2026-11-18', end: '2026-11-22', sold: 8, net_revenue: '60.50', checked_in: 4 }),
      expect.objectContaining({ start: '2026-11-23', end: '2026-11-29', sold: 0, net_revenue: '0.00', checked_in: 0 }),
    ]);
    const outside = await sales({ from: '2026-11-21', to: '2026-11-21' }).expect(200);
    expect(outside.body.totals).toMatchObject({ sold: 2, refunded: 1, cancelled: 2, checked_in: 3 });
  });

  it('covers the 30 days up to today when no range is given', async () => {
    clock.set(new Date('2026-11-30T12:00:00Z'));
    const response = await sales({}).expect(200);
    expect(response.body).toMatchObject({ from: '2026-11-01', to: '2026-11-30', interval: 'day' });
    expect(response.body.intervals).toHaveLength(30);
    expect(response.body.totals.net_sold).toBe(5);
  });

  it('stays exact while buyers check out at once and the ledger folds meanwhile', async () => {
    const free = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Free', price: '0.00', capacity: 6 });
    const buyers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const user = await createUser(testApp, 'subscriber');
        return fillCart(testApp, { authorization: user.authorization }, 'tc', [{ ticket_id: free.id, quantity: 1 }]);
      }),
    );
    const folds = testApp.app.get(SalesLedger);
    const results = await Promise.all([
      ...buyers.map((identity) =>
        checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).then((response) => response.status),
      ),
      folds.fold(),
      folds.fold(),
    ]);
    expect(results.slice(0, 10).filter((status) => status === 201)).toHaveLength(6);
    await folds.fold();
    const overview = await summary().expect(200);
    const row = overview.body.tickets.find((entry: { ticket_id: number }) => entry.ticket_id === free.id);
    expect(row).toMatchObject({ sold: 6, pending: 0, available: 0 });
    const report = await sales({ from: '2026-11-01', to: '2026-11-30' }).expect(200);
    expect(report.body.tickets.find((entry: { ticket_id: number }) => entry.ticket_id === free.id).totals.sold).toBe(6);
    expect((await recount(testApp, free.id)).sold).toBe(6);
  });

  it('writes the same ledger from the attendees and orders when the migration runs on existing sales', async () => {
    const fullRange = { from: '2026-11-01', to: '2026-11-30' };
    const fromTriggers = (await sales(fullRange).expect(200)).body as unknown;
    const runner = testApp.dataSource.createQueryRunner();
    try {
      const migration = new SalesLedger1765040000001();
      const coupons = new CouponSales1765060000000();
      const minorUnits = new MoneyInMinorUnits1765120000000();
      await minorUnits.down(runner);
      await coupons.down(runner);
      await migration.down(runner);
      await migration.up(runner);
      await coupons.up(runner);
      await minorUnits.up(runner);
    } finally {
      await runner.release();
    }
    expect(await testApp.dataSource.getRepository(SalesDaily).count()).toBe(0);
    expect((await sales(fullRange).expect(200)).body).toEqual(fromTriggers);
  });

  it('is for managers of the event only', async () => {
    for (const path of ['summary', 'sales']) {
      const anonymous = await http().get(`${REPORTS}/${path}`).query({ post_id: event.id }).expect(401);
      expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
      const subscriberCall = await http()
        .get(`${REPORTS}/${path}`)
        .query({ post_id: event.id })
        .set('Authorization', subscriber.authorization)
        .expect(403);
      expect(subscriberCall.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
      const other = await http()
        .get(`${REPORTS}/${path}`)
        .query({ post_id: event.id })
        .set('Authorization', authorB.authorization)
        .expect(403);
      expect(other.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
      await http().get(`${REPORTS}/${path}`).query({ post_id: event.id }).set('Authorization', editor.authorization).expect(200);
    }
  });

  it('names the bad parameter (400)', async () => {
    const missing = await http().get(`${REPORTS}/summary`).set('Authorization', editor.authorization).expect(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['post_id'] } });
    const unknown = await http().get(`${REPORTS}/sales`).query({ post_id: 999999 }).set('Authorization', editor.authorization).expect(400);
    expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { post_id: expect.any(String) } } });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ interval: 'month' }, 'interval'],
      [{ from: '2026-11-30', to: '2026-11-01' }, 'from'],
      [{ from: '20261101' }, 'from'],
      [{ to: '2026-02-30' }, 'to'],
      [{ from: '2024-01-01', to: '2026-01-01' }, 'from'],
      [{ post_id: 'abc' }, 'post_id'],
    ];
    for (const [query, field] of cases) {
      const response = await sales(query, editor).expect(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
      expect(response.body.data.params).toHaveProperty(field);
    }
  });
  describe('coupons, check-in lists and the waitlist', () => {
    const DEC_1 = new Date('2026-12-01T10:00:00Z');
    const DEC_2 = new Date('2026-12-02T18:00:00Z');
    const DEC_3 = new Date('2026-12-03T21:00:00Z');
    let mixed: Event;
    let main: Ticket;
    let side: Ticket;
    let gate: number;
    let vip: number;

    const mixedSummary = () => http().get(`${REPORTS}/summary`).query({ post_id: mixed.id }).set('Authorization', authorA.authorization);
    const mixedSales = (query: Record<string, unknown>) =>
      http()
        .get(`${REPORTS}/sales`)
        .query({ post_id: mixed.id, ...query })
        .set('Authorization', authorA.authorization);

    /** An anonymous buyer's checkout with a coupon, completed by the editor: the order body. */
    async function buyWithCoupon(lines: Array<{ ticket_id: number; quantity: number }>, coupon: string) {
      const cart = await http().post(CART_PATH).send({ provider: 'tc', tickets: lines, coupon }).expect(200);
      const placed = await checkout(testApp, { token: cart.headers['x-cart-token'] }, { provider: 'tc', purchaser: PURCHASER });
      if (placed.status !== 201) throw new Error(`checkout failed: ${placed.status} ${JSON.stringify(placed.body)}`);
      await transition(placed.body.id as number, 'complete');
      return placed.body as { id: number; discount: string; attendees: Array<{ id: number; ticket_id: number }> };
    }

    async function createList(name: string, ticketIds: number[]): Promise<number> {
      const response = await http()
        .post('/cal/tickets/v1/checkin-lists')
        .set('Authorization', authorA.authorization)
        .send({ post_id: mixed.id, name, ticket_ids: ticketIds, starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-31T00:00:00Z' })
        .expect(201);
      return response.body.id as number;
    }

    async function scan(attendeeId: number, listId: number, status: number, type: 'entry' | 'exit' = 'entry') {
      const attendee = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendeeId });
      const response = await http()
        .post('/cal/tickets/v1/checkin/redeem')
        .set('Authorization', authorA.authorization)
        .send({ secret: attendee.checkinSecret, list_ids: [listId], type });
      if (response.status !== status) throw new Error(`redeem answered ${response.status} ${JSON.stringify(response.body)}`);
      return response;
    }

    /** The check-in history and the waitlist counted the slow way. */
    async function recountLists() {
      const rows = await testApp.dataSource.query<Array<{ list_id: number | string; attendee_id: number | string; type: string }>>(
        'SELECT list_id, attendee_id, type FROM checkins WHERE event_id = ? AND successful = 1 ORDER BY id',
        [mixed.id],
      );
      const perList = new Map<number, { entries: number; exits: number; inside: Map<number, boolean> }>();
      for (const row of rows) {
        const list = perList.get(Number(row.list_id)) ?? { entries: 0, exits: 0, inside: new Map<number, boolean>() };
        if (row.type === 'entry') {
          list.entries += 1;
          list.inside.set(Number(row.attendee_id), true);
        } else {
          list.exits += 1;
          if (list.inside.has(Number(row.attendee_id))) list.inside.set(Number(row.attendee_id), false);
        }
        perList.set(Number(row.list_id), list);
      }
      return perList;
    }

    async function recountWaitlist(ticketId: number) {
      const [row] = await testApp.dataSource.query<Array<{ units: number | string | null; entries: number | string }>>(
        "SELECT SUM(quantity) AS units, COUNT(*) AS entries FROM waitlist_entries WHERE ticket_id = ? AND status = 'waiting'",
        [ticketId],
      );
      return { units: Number(row.units ?? 0), entries: Number(row.entries) };
    }

    beforeAll(async () => {
      clock.set(DEC_1);
      mixed = await insertEvent(testApp.dataSource, { authorId: authorA.id });
      main = await insertTicket(testApp.dataSource, { eventId: mixed.id, name: 'Main', price: '20.00', capacity: 3 });
      side = await insertTicket(testApp.dataSource, { eventId: mixed.id, name: 'Side', price: '10.00', capacity: 10 });
      await testApp.dataSource.getRepository(TicketEntity).update(main.id, { waitlist: true });
      const coupon = await http()
        .post('/cal/tickets/v1/coupons')
        .set('Authorization', authorA.authorization)
        .send({ code: `SAVE25-${mixed.id}`, discount_type: 'percent', amount: 25, post_id: mixed.id })
        .expect(201);
      const code = coupon.body.code as string;

      // Dec 1: Main x2 and Side x2 with the coupon, Side x1 and Main x1 without: Main sells out.
      const mainWithCoupon = await buyWithCoupon([{ ticket_id: main.id, quantity: 2 }], code);
      expect(mainWithCoupon.discount).toBe('10.00');
      const sideWithCoupon = await buyWithCoupon([{ ticket_id: side.id, quantity: 2 }], code);
      const sidePlain = await buy('tc', [{ ticket_id: side.id, quantity: 1 }]);
      await transition(sidePlain.id, 'complete');
      const mainPlain = await buy('tc', [{ ticket_id: main.id, quantity: 1 }]);
      await transition(mainPlain.id, 'complete');
      // Three join Main's waitlist, one leaves again.
      await http()
        .post('/cal/tickets/v1/waitlist')
        .send({ ticket_id: main.id, name: 'Ada', email: 'ada-wl@example.org', quantity: 2 })
        .expect(201);
      await http()
        .post('/cal/tickets/v1/waitlist')
        .send({ ticket_id: main.id, name: 'Bob', email: 'bob-wl@example.org', quantity: 1 })
        .expect(201);
      const leaving = await http()
        .post('/cal/tickets/v1/waitlist')
        .send({ ticket_id: main.id, name: 'Cy', email: 'cy-wl@example.org', quantity: 3 })
        .expect(201);
      await http()
        .delete(`/cal/tickets/v1/waitlist/${leaving.body.cancel_token as string}`)
        .expect(200);

      // Dec 2: the Side coupon order refunded; Main's buyers enter through the gate, one of them through VIP too.
      clock.set(DEC_2);
      await transition(sideWithCoupon.id, 'refund');
      gate = await createList('Gate', []);
      vip = await createList('VIP', [main.id]);
      for (const attendee of mainWithCoupon.attendees) await scan(attendee.id, gate, 201);
      await scan(mainWithCoupon.attendees[0].id, vip, 201);
      // Refunded tickets and tickets not on the list are refused, and not counted.
      await scan(sideWithCoupon.attendees[0].id, gate, 409);
      await scan(sidePlain.attendees[0].id, vip, 409);

      // Dec 3: the VIP leaves, the Side buyer and the Main buyer enter.
      clock.set(DEC_3);
      await scan(mainWithCoupon.attendees[0].id, vip, 201, 'exit');
      await scan(sidePlain.attendees[0].id, gate, 201);
      await scan(mainPlain.attendees[0].id, gate, 201);
    });

    it('reports coupons used and check-ins per list per interval, equal to a recount', async () => {
      const response = await mixedSales({ from: '2026-12-01', to: '2026-12-03' }).expect(200);
      const byTicket = new Map<number, { intervals: Array<Record<string, unknown>>; totals: Record<string, unknown> }>(
        response.body.tickets.map((entry: { ticket_id: number }) => [entry.ticket_id, entry]),
      );
      expect(byTicket.get(main.id)!.intervals[0]).toMatchObject({ sold: 3, revenue: '50.00', coupon_units: 2, discount: '10.00' });
      expect(byTicket.get(side.id)!.intervals.map((interval) => [interval.coupon_units, interval.discount, interval.refunded])).toEqual([
        [2, '5.00', 0],
        [0, '0.00', 2],
        [0, '0.00', 0],
      ]);
      expect(response.body.totals).toMatchObject({ sold: 6, coupon_units: 4, discount: '15.00', refunded: 2, refunded_amount: '15.00' });
      for (const ticket of [main, side]) {
        const truth = await recount(testApp, ticket.id);
        expect(byTicket.get(ticket.id)!.totals).toMatchObject({
          sold: truth.everSold,
          coupon_units: truth.couponUnits,
          discount: money(truth.discountCents),
          refunded: truth.refunded,
        });
      }

      const lists = response.body.checkin_lists as Array<{
        list_id: number;
        name: string;
        intervals: Array<{ start: string; entries: number; exits: number }>;
        totals: { entries: number; exits: number };
      }>;
      const gateReport = lists.find((list) => list.list_id === gate)!;
      const vipReport = lists.find((list) => list.list_id === vip)!;
      expect(gateReport).toEqual({
        list_id: gate,
        name: 'Gate',
        intervals: [
          { start: '2026-12-01', end: '2026-12-01', entries: 0, exits: 0 },
          { start: '2026-12-02', end: '2026-12-02', entries: 2, exits: 0 },
          { start: '2026-12-03', end: '2026-12-03', entries: 2, exits: 0 },
        ],
        totals: { entries: 4, exits: 0 },
      });
      expect(vipReport.intervals.map((interval) => [interval.entries, interval.exits])).toEqual([
        [0, 0],
        [1, 0],
        [0, 1],
      ]);
      const truth = await recountLists();
      for (const list of lists) {
        expect(list.totals).toEqual({ entries: truth.get(list.list_id)?.entries ?? 0, exits: truth.get(list.list_id)?.exits ?? 0 });
      }
      const weekly = await mixedSales({ from: '2026-12-01', to: '2026-12-03', interval: 'week' }).expect(200);
      expect(weekly.body.checkin_lists.find((list: { list_id: number }) => list.list_id === gate).intervals).toEqual([
        { start: '2026-12-01', end: '2026-12-03', entries: 4, exits: 0 },
      ]);
    });

    it('summarises coupons, check-ins per list and the waitlist length, equal to a recount, before and after the fold', async () => {
      const check = async () => {
        const response = await mixedSummary().expect(200);
        const waiting = await recountWaitlist(main.id);
        expect(waiting).toEqual({ units: 3, entries: 2 });
        expect(response.body).toMatchObject({
          coupon_units: 4,
          discount: '15.00',
          waitlist: waiting.units,
          waitlist_entries: waiting.entries,
        });
        expect(response.body.tickets.map((ticket: { ticket_id: number; waitlist: number }) => [ticket.ticket_id, ticket.waitlist])).toEqual(
          [
            [main.id, 3],
            [side.id, 0],
          ],
        );
        const truth = await recountLists();
        const lists = response.body.checkin_lists as Array<{ list_id: number; name: string; checked_in: number; inside: number }>;
        expect(lists.find((list) => list.list_id === gate)).toEqual({ list_id: gate, name: 'Gate', checked_in: 4, inside: 4 });
        expect(lists.find((list) => list.list_id === vip)).toEqual({ list_id: vip, name: 'VIP', checked_in: 1, inside: 0 });
        for (const list of lists) {
          const counted = truth.get(list.list_id)?.inside ?? new Map<number, boolean>();
          expect([list.checked_in, list.inside]).toEqual([counted.size, [...counted.values()].filter(Boolean).length]);
        }
        return response.body as unknown;
      };
      const before = await check();
      await testApp.app.get(SalesLedger).fold();
      expect(await check()).toEqual(before);
    });
  });
});
