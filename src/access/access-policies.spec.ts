import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { AuthenticatedUser, ROLES } from '../auth/roles';
import { SCOPES, type TokenGrant } from '../auth/scopes';
import { CountCache } from '../catalogue/caching/count-cache';
import { TransactionHost } from '../common/database/transaction-host';
import type { AppConfig } from '../config/app.config';
import { Coupon } from '../coupons/coupon.entity';
import { Event } from '../events/event.entity';
import { EventListingDimension } from '../catalogue/listings/event-listing.entity';
import { EventListingsReader, ListingSelection } from '../catalogue/listings/event-listings';
import { Order } from '../orders/order.entity';
import { buildDataSourceOptions } from '../database/data-source-options';
import { POST_STATUSES, PostStatus } from '../posts/post-status';
import { Ticket } from '../tickets/ticket.entity';
import { applyAttendeeVisibility, applyTicketAttendeeVisibility, isPubliclyVisible, ticketAttendeeLists } from './attendee-access';
import { canManageCoupon, CouponScope, managedCouponRestriction } from './coupon-access';
import {
  applyEventListVisibility,
  canManageEvent,
  managedEventCondition,
  managedEventRestriction,
  managesEveryEvent,
  reachesEvent,
  restrictToVisibleEvents,
  visibleStatuses,
} from './event-access';
import { doorListScope, mayScan } from './door-access';
import { applyOrderVisibility, isBuyer, OrderViewer } from './order-access';
import { mayBypassQueue } from './queue-access';
import { applyPostVisibility, canReadPost, singleReadAccess } from './post-access';
import { applyHiddenTicketRule, applyTicketVisibility, canReadTicket, canSeeHiddenTicket } from './ticket-access';

/**
 * Each access policy is written twice, as a TypeScript predicate for one object and as an SQL
 * scope for a list. These tests put a table of cases (statuses × roles × ownership) in a database
 * and check that the scope lists exactly the rows the predicate admits.
 */

const ME = 1;
const SOMEONE_ELSE = 2;
/**
 * API tokens limited to events (issue 43): the odd event ids, so that the cases' events fall on both
 * sides of the limit; and a token limited to no event at all.
 */
const ODD_EVENTS = Array.from({ length: 2000 }, (_, index) => 2 * index + 1);
function limitedToken(limitEvents: number[]): TokenGrant {
  return { id: 1, name: 'limited', scopes: new Set(SCOPES), limitEvents, pii: 'full' };
}
const callers: Array<AuthenticatedUser | undefined> = [
  undefined,
  ...ROLES.map((role) => ({ id: ME, login: role, role })),
  ...ROLES.map((role) => ({ id: ME, login: role, role, token: limitedToken(ODD_EVENTS) })),
  ...(['administrator', 'author'] as const).map((role) => ({ id: ME, login: role, role, token: limitedToken([]) })),
];
const callerName = (user: AuthenticatedUser | undefined) =>
  !user
    ? 'anonymous'
    : user.token
      ? `${user.role} with a token limited to ${user.token.limitEvents?.length ? 'odd' : 'no'} events`
      : user.role;

let dataSource: DataSource;

/**
 * The database the cases are put in, built by the migrations as the app's is (so the events list's
 * read model is kept by its triggers): SQLite in memory, or with UNIT_TESTS=1 and TEST_DATABASE_URL
 * naming a MySQL/MariaDB server, a fresh database `<name>_access_policies` on it.
 */
async function openDatabase(): Promise<DataSource> {
  const url = process.env.TEST_DATABASE_URL;
  const entities = [join(__dirname, '..', '**', '*.entity.ts')];
  if (!url || !/^(mysql|mariadb):\/\//.test(url)) {
    const sqlite = new DataSource({ ...buildDataSourceOptions({ type: 'sqlite', path: ':memory:' }), entities });
    await sqlite.initialize();
    await sqlite.runMigrations();
    // The cases name authors, orders and tickets by id only: their rows are beside the point.
    await sqlite.query('PRAGMA foreign_keys = OFF');
    return sqlite;
  }
  const database = new URL(url);
  database.pathname = `/${database.pathname.replace(/^\//, '') || 'cal'}_access_policies`;
  const name = database.pathname.slice(1);
  const server = await createConnection({ uri: url });
  await server.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await server.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await server.end();
  // One connection, so that turning the foreign keys off holds for every statement.
  const mysql = new DataSource({ ...buildDataSourceOptions({ type: 'mysql', url: database.toString(), poolSize: 1 }), entities });
  await mysql.initialize();
  await mysql.runMigrations();
  await mysql.query('SET FOREIGN_KEY_CHECKS = 0');
  return mysql;
}

beforeAll(async () => {
  dataSource = await openDatabase();
}, 120_000);

afterAll(async () => {
  if (dataSource?.options.type === 'mysql') {
    const [{ name }] = await dataSource.query<Array<{ name: string }>>('SELECT DATABASE() AS name');
    await dataSource.query(`DROP DATABASE IF EXISTS \`${name}\``);
  }
  await dataSource?.destroy();
});

/** Every combination of the values of each key. */
function product<T extends Record<string, readonly unknown[]>>(values: T): Array<{ [K in keyof T]: T[K][number] }> {
  return Object.entries(values).reduce<Array<Record<string, unknown>>>(
    (rows, [key, options]) => rows.flatMap((row) => options.map((option) => ({ ...row, [key]: option }))),
    [{}],
  ) as Array<{ [K in keyof T]: T[K][number] }>;
}

let slugs = 0;
async function insertEvent(values: Partial<Event>): Promise<Event> {
  slugs += 1;
  const at = new Date('2030-01-01T10:00:00Z');
  const row = {
    title: `Event ${slugs}`,
    slug: `event-${slugs}`,
    publishedAt: at,
    timezone: 'UTC',
    startUtc: at,
    endUtc: at,
    startLocal: '2030-01-01 10:00:00',
    endLocal: '2030-01-01 10:00:00',
    ...values,
  };
  const { identifiers } = await dataSource.createQueryBuilder().insert().into(Event).values(row).execute();
  return { ...row, id: Number(identifiers[0].id) } as Event;
}

async function insertTicket(event: Event, values: Partial<Ticket> = {}): Promise<Ticket> {
  const row = {
    eventId: event.id,
    provider: 'tc' as const,
    name: 'Ticket',
    capacityMode: 'own' as const,
    publishedAt: new Date(),
    ...values,
  };
  const { identifiers } = await dataSource.createQueryBuilder().insert().into(Ticket).values(row).execute();
  return { ...row, id: Number(identifiers[0].id) } as Ticket;
}

describe('post visibility: canReadPost and applyPostVisibility', () => {
  it('agree for every status, role and owner', async () => {
    const events: Event[] = [];
    for (const status of POST_STATUSES) {
      for (const authorId of [ME, SOMEONE_ELSE, null]) events.push(await insertEvent({ status, authorId }));
    }
    for (const user of callers) {
      const listed = await applyPostVisibility(dataSource.createQueryBuilder(Event, 'post'), 'post', user, [...POST_STATUSES])
        .andWhere('post.id IN (:...ids)', { ids: events.map((event) => event.id) })
        .getMany();
      const expected = events.filter((event) => canReadPost(user, event)).map((event) => event.id);
      expect({ caller: callerName(user), ids: listed.map((event) => event.id).sort((a, b) => a - b) }).toEqual({
        caller: callerName(user),
        ids: expected,
      });
      // Read as events: a token limited to events reads its events beyond the published ones.
      const asEvents = await applyPostVisibility(dataSource.createQueryBuilder(Event, 'post'), 'post', user, [...POST_STATUSES], {
        events: true,
      })
        .andWhere('post.id IN (:...ids)', { ids: events.map((event) => event.id) })
        .getMany();
      const expectedEvents = events.filter((event) => canReadPost(user, event, event.id)).map((event) => event.id);
      expect({ caller: callerName(user), events: asEvents.map((event) => event.id).sort((a, b) => a - b) }).toEqual({
        caller: callerName(user),
        events: expectedEvents,
      });
    }
  });
});

describe('event management: canManageEvent and managedEventCondition', () => {
  it('agree for every role and owner', async () => {
    const events = [
      await insertEvent({ authorId: ME }),
      await insertEvent({ authorId: SOMEONE_ELSE }),
      await insertEvent({ authorId: null }),
    ];
    for (const user of callers) {
      const query = dataSource.createQueryBuilder(Event, 'event');
      const listed = await query
        .where(managedEventCondition(user, query))
        .andWhere('event.id IN (:...ids)', { ids: events.map((event) => event.id) })
        .getMany();
      const expected = events.filter((event) => canManageEvent(user, event)).map((event) => event.id);
      expect({ caller: callerName(user), ids: listed.map((event) => event.id).sort((a, b) => a - b) }).toEqual({
        caller: callerName(user),
        ids: expected,
      });
    }
  });

  it('agree over another alias, as a condition and as a restriction (null: no join needed)', async () => {
    const events = [
      await insertEvent({ authorId: ME }),
      await insertEvent({ authorId: SOMEONE_ELSE }),
      await insertEvent({ authorId: null }),
    ];
    const ids = { ids: events.map((event) => event.id) };
    // Under the default name stands another event, of mine: a condition over `event` would show.
    const decoy = await insertEvent({ authorId: ME });
    for (const user of callers) {
      const expected = events.filter((event) => canManageEvent(user, event)).map((event) => event.id);
      const conditioned = dataSource
        .createQueryBuilder(Event, 'managed_event')
        .innerJoin(Event, 'event', 'event.id = :decoy', { decoy: decoy.id })
        .where('managed_event.id IN (:...ids)', ids);
      conditioned.andWhere(managedEventCondition(user, conditioned, 'managed_event'));
      const restricted = dataSource.createQueryBuilder(Event, 'e').where('e.id IN (:...ids)', ids);
      const restriction = managedEventRestriction(user, restricted, 'e');
      if (restriction !== null) restricted.andWhere(restriction);
      for (const [form, query] of [
        ['condition', conditioned],
        ['restriction', restricted],
      ] as const) {
        const listed = (await query.getMany()).map((event) => event.id).sort((a, b) => a - b);
        expect({ caller: callerName(user), form, ids: listed }).toEqual({ caller: callerName(user), form, ids: expected });
      }
      expect({ caller: callerName(user), unrestricted: restriction === null }).toEqual({
        caller: callerName(user),
        unrestricted: events.every((event) => canManageEvent(user, event)),
      });
    }
  });
});

describe('coupon management: canManageCoupon and managedCouponRestriction', () => {
  it('agree for every role, coupon author and event author, and coupons without an event', async () => {
    const events: Array<Event | null> = [null];
    for (const authorId of [ME, SOMEONE_ELSE, null]) events.push(await insertEvent({ authorId }));
    const cases: Array<{ coupon: Coupon; event: Event | null }> = [];
    for (const event of events) {
      for (const authorId of [ME, SOMEONE_ELSE]) {
        const code = `coupon-${cases.length + 1}`;
        const row = { code, codeKey: code, authorId, eventId: event?.id ?? null, discountType: 'percent' as const, amount: 10 };
        const { identifiers } = await dataSource.createQueryBuilder().insert().into(Coupon).values(row).execute();
        cases.push({ coupon: { ...row, id: Number(identifiers[0].id) } as Coupon, event });
      }
    }
    for (const user of callers) {
      const query = dataSource
        .createQueryBuilder(Coupon, 'code')
        .leftJoin(Event, 'scope', 'scope.id = code.eventId')
        .where('code.id IN (:...ids)', { ids: cases.map(({ coupon }) => coupon.id) });
      const restriction = managedCouponRestriction(user, query, 'code', 'scope');
      if (restriction !== null) query.andWhere(restriction);
      const listed = (await query.getMany()).map((coupon) => coupon.id).sort((a, b) => a - b);
      const expected = cases.filter(({ coupon, event }) => canManageCoupon(user, coupon, event)).map(({ coupon }) => coupon.id);
      expect({ caller: callerName(user), ids: listed }).toEqual({ caller: callerName(user), ids: expected });
    }
  });
});

describe('hidden tickets: canSeeHiddenTicket and applyHiddenTicketRule (tickets `t` of events `e`)', () => {
  it('agree for every role, owner and revealing code', async () => {
    const cases: Array<{ ticket: Ticket; event: Event }> = [];
    for (const { authorId, hiddenWithoutCoupon } of product({ authorId: [ME, SOMEONE_ELSE, null], hiddenWithoutCoupon: [true, false] })) {
      const event = await insertEvent({ authorId });
      for (let copy = 0; copy < 2; copy += 1) cases.push({ ticket: await insertTicket(event, { hiddenWithoutCoupon }), event });
    }
    const [first, second] = cases;
    const reveals: Array<CouponScope | null> = [
      null,
      { eventId: first.event.id, authorId: SOMEONE_ELSE, ticketIds: [] },
      { eventId: first.event.id, authorId: SOMEONE_ELSE, ticketIds: [second.ticket.id] },
      { eventId: null, authorId: SOMEONE_ELSE, ticketIds: [] },
      { eventId: null, authorId: ME, ticketIds: [first.ticket.id] },
    ];
    for (const user of callers) {
      for (const reveal of reveals) {
        const query = dataSource
          .createQueryBuilder(Ticket, 't')
          .innerJoin(Event, 'e', 'e.id = t.eventId')
          .where('t.id IN (:...ids)', { ids: cases.map(({ ticket }) => ticket.id) });
        applyHiddenTicketRule(query, user, reveal);
        const listed = (await query.getMany()).map((ticket) => ticket.id).sort((a, b) => a - b);
        const expected = cases
          .filter(({ ticket, event }) => canSeeHiddenTicket(user, ticket, event, reveal))
          .map(({ ticket }) => ticket.id);
        expect({ caller: callerName(user), reveal, ids: listed }).toEqual({ caller: callerName(user), reveal, ids: expected });
      }
    }
  });
});

describe('attendee visibility: isPubliclyVisible / canManageEvent, and the attendee lists', () => {
  const cases: Array<{ attendee: Attendee; event: Event }> = [];
  const visible = (user: AuthenticatedUser | undefined) =>
    cases
      .filter(({ attendee, event }) => canManageEvent(user, event) || isPubliclyVisible(attendee, event))
      .map(({ attendee }) => attendee.id);
  const ids = (rows: Attendee[]) => rows.map((attendee) => attendee.id).sort((a, b) => a - b);

  beforeAll(async () => {
    const states = product({
      provider: ['rsvp', 'tc'],
      rsvpGoing: [true, false, null],
      orderStatus: ['completed', 'yes', 'pending', 'refunded', 'no'],
      optout: [false, true],
      status: ['publish', 'trash'],
    });
    for (const { eventStatus, showAttendeeList, authorId } of product({
      eventStatus: ['publish', 'draft'] as const,
      showAttendeeList: [true, false],
      authorId: [ME, SOMEONE_ELSE],
    })) {
      const event = await insertEvent({ status: eventStatus, showAttendeeList, authorId });
      for (const state of states) {
        const row = {
          ...state,
          orderId: 1,
          ticketId: event.id,
          eventId: event.id,
          holderName: 'Ada',
          holderEmail: 'ada@example.org',
          securityCode: `code-${cases.length + 1}`,
        };
        const { identifiers } = await dataSource.createQueryBuilder().insert().into(Attendee).values(row).execute();
        cases.push({ attendee: { ...row, id: Number(identifiers[0].id) } as unknown as Attendee, event });
      }
    }
  });

  it('applyAttendeeVisibility (the attendees list) lists what they admit, for every state, role and owner', async () => {
    for (const user of callers) {
      const query = dataSource.createQueryBuilder(Attendee, 'attendee').innerJoin(Event, 'event', 'event.id = attendee.eventId');
      applyAttendeeVisibility(query, user);
      const listed = await query.andWhere('attendee.id IN (:...ids)', { ids: cases.map(({ attendee }) => attendee.id) }).getMany();
      expect({ caller: callerName(user), ids: ids(listed) }).toEqual({ caller: callerName(user), ids: visible(user) });
    }
  });

  it('ticketAttendeeLists + applyTicketAttendeeVisibility (attendees inside tickets) list what they admit', async () => {
    const events = [...new Map(cases.map(({ event }) => [event.id, event])).values()];
    // One ticket per event, with the event's id.
    const tickets = events.map((event) => ({ id: event.id, eventId: event.id }) as Ticket);
    const eventsById = new Map(events.map((event) => [event.id, event]));
    for (const user of callers) {
      const query = dataSource.createQueryBuilder(Attendee, 'a');
      applyTicketAttendeeVisibility(query, ticketAttendeeLists(user, tickets, eventsById));
      const listed = await query.getMany();
      expect({ caller: callerName(user), ids: ids(listed) }).toEqual({ caller: callerName(user), ids: visible(user) });
    }
  });
});

describe('ticket read and ticket list: canReadTicket and applyTicketVisibility (tickets `t` of events `e`)', () => {
  it('agree for every ticket status, event status, role and owner', async () => {
    const cases: Array<{ ticket: Ticket; event: Event }> = [];
    for (const { eventStatus, authorId } of product({ eventStatus: POST_STATUSES, authorId: [ME, SOMEONE_ELSE, null] })) {
      const event = await insertEvent({ status: eventStatus, authorId });
      for (const status of ['publish', 'draft', 'private', 'trash']) cases.push({ ticket: await insertTicket(event, { status }), event });
    }
    for (const user of callers) {
      const query = dataSource
        .createQueryBuilder(Ticket, 't')
        .innerJoin(Event, 'e', 'e.id = t.eventId')
        .where('t.id IN (:...ids)', { ids: cases.map(({ ticket }) => ticket.id) });
      applyTicketVisibility(query, user);
      const listed = (await query.getMany()).map((ticket) => ticket.id).sort((a, b) => a - b);
      const expected = cases.filter(({ ticket, event }) => canReadTicket(user, ticket, event)).map(({ ticket }) => ticket.id);
      expect({ caller: callerName(user), ids: listed }).toEqual({ caller: callerName(user), ids: expected });
    }
  });
});

describe('order read and order list: isBuyer (or managing every event) and applyOrderVisibility', () => {
  it('agree for every buyer, cart token, role and viewer', async () => {
    const tokens = [null, 'cart-token-a', 'cart-token-b'];
    const orders: Order[] = [];
    for (const { userId, cartToken } of product({ userId: [ME, SOMEONE_ELSE, null], cartToken: tokens })) {
      const row = {
        status: 'pending' as const,
        provider: 'tc',
        userId,
        cartToken,
        purchaserName: 'Ada',
        purchaserEmail: 'ada@example.org',
        currency: 'EUR',
      };
      const { identifiers } = await dataSource.createQueryBuilder().insert().into(Order).values(row).execute();
      orders.push({ ...row, id: Number(identifiers[0].id) } as unknown as Order);
    }
    for (const { user, cartToken } of product({ user: callers, cartToken: tokens })) {
      const viewer: OrderViewer = { user, cartToken };
      const query = dataSource.createQueryBuilder(Order, 'purchase').where('purchase.id IN (:...ids)', { ids: orders.map(({ id }) => id) });
      const listed = applyOrderVisibility(query, 'purchase', viewer)
        ? (await query.getMany()).map(({ id }) => id).sort((a, b) => a - b)
        : [];
      const expected = orders.filter((order) => managesEveryEvent(user) || isBuyer(order, viewer)).map(({ id }) => id);
      expect({ caller: callerName(user), cartToken, ids: listed }).toEqual({ caller: callerName(user), cartToken, ids: expected });
    }
  });
});

describe('the events lists: singleReadAccess against applyEventListVisibility and the read model (visibleStatuses)', () => {
  const window = { start: new Date('2031-03-01T00:00:00Z'), end: new Date('2031-03-31T23:59:59Z') };
  const events: Event[] = [];
  const asked: Array<PostStatus[] | undefined> = [
    undefined,
    ['publish'],
    [...POST_STATUSES],
    ['draft', 'private'],
    ['trash'],
    ['future', 'pending'],
  ];
  /** What a list of `statuses` shows of `event`, as one read of it decides (`readable`), less the events hidden from listings. */
  const listable = (user: AuthenticatedUser | undefined, statuses: PostStatus[] | undefined, event: Event) =>
    (statuses ? statuses.includes(event.status) : event.status !== 'trash') &&
    !event.hideFromListings &&
    singleReadAccess(user, event) === 'readable';
  /** The lists a caller can ask for: anonymous callers only published events (parseStatusFilter refuses the rest). */
  const requests = () =>
    callers.flatMap((user) =>
      asked
        .filter((statuses) => user || !statuses || statuses.every((status) => status === 'publish'))
        .map((statuses) => ({ user, statuses })),
    );

  beforeAll(async () => {
    const day = (date: number) => new Date(`2031-03-${String(date).padStart(2, '0')}T10:00:00Z`);
    let date = 1;
    for (const { status, authorId, hideFromListings } of product({
      status: POST_STATUSES,
      authorId: [ME, SOMEONE_ELSE, null],
      hideFromListings: [false, true],
    })) {
      const start = day((date % 28) + 1);
      date += 1;
      events.push(
        await insertEvent({
          status,
          authorId,
          hideFromListings,
          startUtc: start,
          endUtc: new Date(start.getTime() + 3_600_000),
          startLocal: '2031-03-01 10:00:00',
          endLocal: '2031-03-01 11:00:00',
        }),
      );
    }
  });

  it('applyEventListVisibility (the events table) lists what a single read admits, for every status asked, role and owner', async () => {
    for (const { user, statuses } of requests()) {
      const query = applyEventListVisibility(dataSource.createQueryBuilder(Event, 'event'), 'event', user, statuses).andWhere(
        'event.id IN (:...ids)',
        { ids: events.map(({ id }) => id) },
      );
      const listed = (await query.getMany()).map(({ id }) => id).sort((a, b) => a - b);
      const expected = events.filter((event) => listable(user, statuses, event)).map(({ id }) => id);
      expect({ caller: callerName(user), statuses, ids: listed }).toEqual({ caller: callerName(user), statuses, ids: expected });
    }
  });

  it('the read model (EventListingsReader over visibleStatuses) pages and counts what a single read admits', async () => {
    const tx = new TransactionHost(dataSource);
    const reader = new EventListingsReader(tx, new CountCache(tx, { countCacheMb: 0 } as AppConfig, { now: () => new Date() }));
    for (const { user, statuses } of requests()) {
      const selection: ListingSelection = {
        dim: EventListingDimension.All,
        values: [0],
        ...visibleStatuses(user, statuses),
        windowStart: window.start,
        windowEnd: window.end,
      };
      const listed = (await reader.page(selection, 0, 1000)).map(({ id }) => id).sort((a, b) => a - b);
      const expected = events.filter((event) => listable(user, statuses, event)).map(({ id }) => id);
      expect({ caller: callerName(user), statuses, ids: listed }).toEqual({ caller: callerName(user), statuses, ids: expected });
      expect({ caller: callerName(user), statuses, total: await reader.count(selection) }).toEqual({
        caller: callerName(user),
        statuses,
        total: expected.length,
      });
    }
  });

  /**
   * The events linked to a venue or organizer follow WordPress's default query, not the single
   * read: published and private events only (no drafts, even one's own), and one's own private
   * events whatever one's role. The one difference from a single read besides the statuses: a
   * caller without `edit_events` (subscriber, door staff) who is the author of a private event
   * sees it linked but may not read it.
   */
  it('restrictToVisibleEvents lists the published and private events a single read admits, and authors their own private ones', async () => {
    for (const user of callers) {
      const query = dataSource.createQueryBuilder(Event, 'linked').where('linked.id IN (:...ids)', { ids: events.map(({ id }) => id) });
      restrictToVisibleEvents(query, 'linked', user);
      const listed = (await query.getMany()).map(({ id }) => id).sort((a, b) => a - b);
      const expected = events
        .filter(
          (event) =>
            (['publish', 'private'].includes(event.status) && singleReadAccess(user, event, event.id) === 'readable') ||
            (event.status === 'private' && user !== undefined && event.authorId === user.id && reachesEvent(user, event)),
        )
        .map(({ id }) => id);
      expect({ caller: callerName(user), ids: listed }).toEqual({ caller: callerName(user), ids: expected });
    }
  });
});

describe('API tokens limited to events: the orders of their events, the door and the waiting room', () => {
  it('applyOrderVisibility shows a manager’s limited token the orders with an attendee of its events, and its own', async () => {
    const reached = await insertEvent({ authorId: SOMEONE_ELSE });
    const other = await insertEvent({ authorId: SOMEONE_ELSE });
    const orders: Record<'reached' | 'other' | 'own', number> = { reached: 0, other: 0, own: 0 };
    for (const [key, event, userId] of [
      ['reached', reached, SOMEONE_ELSE],
      ['other', other, SOMEONE_ELSE],
      ['own', other, ME],
    ] as const) {
      const row = {
        status: 'completed' as const,
        provider: 'tc',
        userId,
        cartToken: null,
        purchaserName: 'Ada',
        purchaserEmail: 'ada@example.org',
        currency: 'EUR',
      };
      const { identifiers } = await dataSource.createQueryBuilder().insert().into(Order).values(row).execute();
      orders[key] = Number(identifiers[0].id);
      const attendee = {
        provider: 'tc',
        orderStatus: 'completed',
        orderId: orders[key],
        ticketId: event.id,
        eventId: event.id,
        holderName: 'Ada',
        holderEmail: 'ada@example.org',
        securityCode: `limited-${key}`,
      };
      await dataSource.createQueryBuilder().insert().into(Attendee).values(attendee).execute();
    }
    const listed = async (user: AuthenticatedUser) => {
      const query = dataSource.createQueryBuilder(Order, 'purchase').where('purchase.id IN (:...ids)', { ids: Object.values(orders) });
      applyOrderVisibility(query, 'purchase', { user, cartToken: null });
      return (await query.getMany()).map(({ id }) => id).sort((a, b) => a - b);
    };
    const token = limitedToken([reached.id]);
    expect(await listed({ id: ME, login: 'a', role: 'administrator', token })).toEqual([orders.reached, orders.own]);
    expect(await listed({ id: ME, login: 'e', role: 'editor', token })).toEqual([orders.reached, orders.own]);
    expect(await listed({ id: ME, login: 's', role: 'subscriber', token })).toEqual([orders.own]);
    expect(await listed({ id: ME, login: 'a', role: 'administrator' })).toEqual(Object.values(orders).sort((a, b) => a - b));
  });

  it('lets door staff and managers scan only on the lists of the token’s events', () => {
    const token = limitedToken([7]);
    const doorStaff: AuthenticatedUser = { id: ME, login: 'd', role: 'door_staff', token };
    const editor: AuthenticatedUser = { id: ME, login: 'e', role: 'editor', token };
    const list = { id: 1 };
    for (const user of [doorStaff, editor]) {
      expect(mayScan({ kind: 'user', user }, list, { id: 7, authorId: SOMEONE_ELSE })).toBe(true);
      expect(mayScan({ kind: 'user', user }, list, { id: 8, authorId: SOMEONE_ELSE })).toBe(false);
      expect(mayScan({ kind: 'user', user }, list, { authorId: SOMEONE_ELSE })).toBe(false);
      expect(doorListScope({ kind: 'user', user })).toEqual({ kind: 'events', eventIds: [7] });
    }
    expect(doorListScope({ kind: 'user', user: { ...doorStaff, token: undefined } })).toEqual({ kind: 'all' });
  });

  it('lets a token through a waiting room only with queue:bypass, for an event its owner manages and its limit reaches', () => {
    const withBypass: TokenGrant = { id: 1, name: 'box office', scopes: new Set(['queue:bypass']), limitEvents: null, pii: 'full' };
    const without: TokenGrant = { ...withBypass, scopes: new Set(['orders:write']) };
    const event = { id: 5, authorId: SOMEONE_ELSE };
    const editor: AuthenticatedUser = { id: ME, login: 'e', role: 'editor' };
    expect(mayBypassQueue(editor, event)).toBe(true);
    expect(mayBypassQueue({ ...editor, token: withBypass }, event)).toBe(true);
    expect(mayBypassQueue({ ...editor, token: without }, event)).toBe(false);
    expect(mayBypassQueue({ ...editor, token: { ...withBypass, limitEvents: [6] } }, event)).toBe(false);
    expect(mayBypassQueue({ id: ME, login: 's', role: 'subscriber', token: withBypass }, event)).toBe(false);
    expect(mayBypassQueue({ id: ME, login: 'a', role: 'author', token: withBypass }, { id: 5, authorId: ME })).toBe(true);
    expect(mayBypassQueue(undefined, event)).toBe(false);
  });
});
