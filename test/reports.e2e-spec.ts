import request from 'supertest';
import { CLOCK } from '../src/common/clock';
import { SalesLedger1765040000001 } from '../src/database/migrations/1765040000001-SalesLedger';
import type { Event } from '../src/events/event.entity';
import { SalesLedger } from '../src/reports/sales-ledger';
import { SalesDaily, SalesLedgerEntry } from '../src/reports/sales-ledger.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { BuyerIdentity, checkout, fillCart, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent, insertPool, insertTicket, TestClock } from './helpers/ticketing-fixtures';

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
}

async function recount(testApp: TestApp, ticketId: number): Promise<Recount> {
  const rows = await testApp.dataSource.query<
    Array<{ status: string; completed_at: unknown; price_paid: string | number; checked_in: number | boolean; rsvp_going: unknown }>
  >(
    'SELECT o.status, o.completed_at, a.price_paid, a.checked_in, a.rsvp_going FROM attendees a INNER JOIN orders o ON o.id = a.order_id WHERE a.ticket_id = ?',
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
  };
  for (const row of rows) {
    if (row.rsvp_going !== null && !Number(row.rsvp_going)) continue;
    const cents = Math.round(Number(row.price_paid) * 100);
    const wasSold = row.completed_at !== null;
    if (row.status === 'completed') {
      result.sold += 1;
      result.netCents += cents;
    }
    if (row.status === 'pending') result.pending += 1;
    if (wasSold) {
      result.everSold += 1;
      result.everSoldCents += cents;
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
      waitlist: null,
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
        },
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
      await migration.down(runner);
      await migration.up(runner);
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
});
