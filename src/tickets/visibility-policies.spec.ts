import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { AuthenticatedUser, ROLES } from '../auth/roles';
import { Event } from '../events/event.entity';
import { applyPostVisibility, canReadPost } from '../posts/post-visibility';
import { POST_STATUSES } from '../posts/post-status';
import type { Ticket } from './ticket.entity';
import {
  applyAttendeeVisibility,
  applyTicketAttendeeVisibility,
  canManageEvent,
  isPubliclyVisible,
  managedEventCondition,
  ticketAttendeeLists,
} from './ticket-visibility';

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
