import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { AuthenticatedUser, ROLES } from '../auth/roles';
import { Coupon } from '../coupons/coupon.entity';
import { Event } from '../events/event.entity';
import { POST_STATUSES } from '../posts/post-status';
import { Ticket } from '../tickets/ticket.entity';
import { applyAttendeeVisibility, applyTicketAttendeeVisibility, isPubliclyVisible, ticketAttendeeLists } from './attendee-access';
import { canManageCoupon, CouponScope, managedCouponRestriction } from './coupon-access';
import { canManageEvent, managedEventCondition, managedEventRestriction } from './event-access';
import { applyPostVisibility, canReadPost } from './post-access';
import { applyHiddenTicketRule, canSeeHiddenTicket } from './ticket-access';

/**
 * Each access policy is written twice, as a TypeScript predicate for one object and as an SQL
 * scope for a list. These tests put a table of cases (statuses × roles × ownership) in a database
 * and check that the scope lists exactly the rows the predicate admits.
 */

const ME = 1;
const SOMEONE_ELSE = 2;
const callers: Array<AuthenticatedUser | undefined> = [undefined, ...ROLES.map((role) => ({ id: ME, login: role, role }))];
const callerName = (user: AuthenticatedUser | undefined) => user?.role ?? 'anonymous';

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: [join(__dirname, '..', '**', '*.entity.ts')],
    synchronize: true,
  });
  await dataSource.initialize();
  // The cases name authors, orders and tickets by id only: their rows are beside the point.
  await dataSource.query('PRAGMA foreign_keys = OFF');
});

afterAll(() => dataSource?.destroy());

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
      for (let copy = 0; copy < 2; copy += 1) {
        const row = {
          eventId: event.id,
          provider: 'tc' as const,
          name: 'Ticket',
          capacityMode: 'own' as const,
          publishedAt: new Date(),
          hiddenWithoutCoupon,
        };
        const { identifiers } = await dataSource.createQueryBuilder().insert().into(Ticket).values(row).execute();
        cases.push({ ticket: { ...row, id: Number(identifiers[0].id) } as Ticket, event });
      }
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
