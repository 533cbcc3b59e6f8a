import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { Attendee } from '../../src/attendees/attendee.entity';
import { CheckinList } from '../../src/checkin/checkin-list.entity';
import { Checkin } from '../../src/checkin/checkin.entity';
import { generateSyncKey } from '../../src/checkin/checkin-secrets';
import { DevicesService } from '../../src/checkin/devices.service';
import { NONCE_ACTIONS, NonceService } from '../../src/auth/nonce.service';
import { Cart, CartItem } from '../../src/cart/cart.entity';
import { Category } from '../../src/categories/category.entity';
import { Coupon } from '../../src/coupons/coupon.entity';
import type { PostStatus } from '../../src/posts/post-status';
import { appConfig, AppConfig } from '../../src/config/app.config';
import { Event } from '../../src/events/event.entity';
import { downloadToken } from '../../src/exports/download-token';
import { ExportChunk, ExportJob } from '../../src/exports/export-job.entity';
import { OutboxMessage } from '../../src/outbox/outbox-message.entity';
import { Queue, QueueEntry } from '../../src/queues/queue.entity';
import { EventSeries, EventSeriesOccurrence } from '../../src/series/event-series.entity';
import { Organizer } from '../../src/organizers/organizer.entity';
import { Tag } from '../../src/tags/tag.entity';
import { Ticket } from '../../src/tickets/ticket.entity';
import { Venue } from '../../src/venues/venue.entity';
import { WaitlistEntry } from '../../src/waitlist/waitlist-entry.entity';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { TEC_ACKNOWLEDGEMENT } from '../../src/tec-v1/experimental-acknowledgement.guard';
import { Caller, EVENTS_NS, Method, OtherIdentity, Principal, RequestSpec, TICKETS_NS, uniqueName, UserKey, World } from './world';

/**
 * THE AUTHORIZATION MATRIX: every route of the app (both namespaces, their index and doc, the
 * documentation page, health) with the outcome each caller must get. authorization-matrix.e2e-spec.ts
 * runs it and fails when the app registers a route that is not listed here.
 *
 * Columns: anonymous (no credentials), the five roles, and "other" — another user acting on the
 * owner's object (BOLA). Owners: events, venues, organizers, tickets and attendees belong to
 * `author` (A) or, for drafts, `contributor` (C); carts and orders belong to `subscriber`, the
 * buyer. "other" is a second user of the owner's role (author B, contributor D, buyer B) or a
 * second anonymous buyer with a cart token of their own. Routes on objects nobody owns (terms,
 * documents, health) have no "other" column.
 */

export interface Outcome {
  status: number;
  /** The error code (`code` of the envelope) when the status is an error. */
  code?: string;
}
export type Expectation = number | Outcome;
export type Row = Partial<Record<Principal, Expectation>>;

/** What one case sends, and what else must hold when it succeeds. */
export interface PreparedCase {
  request: RequestSpec;
  /** The caller as they identify for this request (an anonymous buyer who just got a cart token). */
  caller?: Caller;
  /** Checks after a response with the expected status: visibility in lists, database state. */
  verify?: (response: Response) => void | Promise<void>;
}

export interface Scenario {
  name: string;
  /** Who "another user" is; absent when the object has no owner. */
  other?: OtherIdentity;
  /** Makes what the case acts on (fresh objects for writes that succeed) and the request. */
  prepare(world: World, caller: Caller): Promise<PreparedCase>;
  expect: Row;
}

export interface RouteSpec {
  method: Method;
  /** As Express registers it: `/cal/events/v1/events/:id`. */
  path: string;
  scenarios: Scenario[];
}

/** One row of the table: anonymous, administrator, editor, author, contributor, subscriber, other. */
function row(
  anonymous: Expectation,
  administrator: Expectation,
  editor: Expectation,
  author: Expectation,
  contributor: Expectation,
  subscriber: Expectation,
  other?: Expectation,
): Row {
  const result: Row = { anonymous, administrator, editor, author, contributor, subscriber };
  if (other !== undefined) result.other = other;
  return result;
}

// Refusals, as the error envelope names them.
const ANONYMOUS: Outcome = { status: 401, code: 'rest_forbidden' };
const FORBIDDEN: Outcome = { status: 403, code: 'rest_forbidden' };
/** POST /checkin/annul of a scan on a list the caller may not use. */
const ANNUL_FORBIDDEN: Outcome = { status: 403, code: 'checkin-annul-forbidden' };
/** The original answers every refused ticket write with this, whatever the reason. */
const TICKET_FORBIDDEN: Outcome = { status: 403, code: 'forbidden' };
const TICKET_HIDDEN: Outcome = { status: 401, code: 'ticket-not-accessible' };
const ATTENDEE_HIDDEN: Outcome = { status: 401, code: 'attendee-not-accessible' };
/** Orders the caller may not see do not exist for them: ids cannot be probed. */
const ORDER_HIDDEN: Outcome = { status: 404, code: 'order-not-found' };

const PUBLIC = row(200, 200, 200, 200, 200, 200);
/** GET /mcp: the MCP endpoint is stateless, it opens no event stream. */
const MCP_NO_STREAM: Outcome = { status: 405, code: 'mcp-method-not-allowed' };
const PUBLIC_OWNED = row(200, 200, 200, 200, 200, 200, 200);

function assert(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

function ids(list: unknown): number[] {
  return Array.isArray(list) ? list.map((item) => (item as { id: number }).id) : [];
}

const get = (path: string): Scenario => ({
  name: 'public document',
  prepare: () => Promise.resolve({ request: { path } }),
  expect: PUBLIC,
});

// ---------------------------------------------------------------- events, venues, organizers

type PostKind = 'events' | 'venues' | 'organizers';
type AnyPost = Event | Venue | Organizer;
const SINGULAR: Record<PostKind, string> = { events: 'event', venues: 'venue', organizers: 'organizer' };
const POST_ENTITY = { events: Event, venues: Venue, organizers: Organizer } as const;

function makePost(world: World, kind: PostKind, owner: UserKey, status: PostStatus): Promise<AnyPost> {
  if (kind === 'events') return world.event(owner, { status });
  if (kind === 'venues') return world.venue(owner, status);
  return world.organizer(owner, status);
}

function postPath(kind: PostKind, post: AnyPost, bySlug: boolean): string {
  return `${EVENTS_NS}/${kind}/${bySlug ? `by-slug/${post.slug}` : post.id}`;
}

function createPostBody(kind: PostKind): Record<string, unknown> {
  if (kind === 'events') return { title: uniqueName('Matrix event'), start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00' };
  return { [SINGULAR[kind]]: uniqueName(`Matrix ${SINGULAR[kind]}`) };
}

function renameBody(kind: PostKind, name: string): Record<string, unknown> {
  return kind === 'events' ? { title: name } : { [SINGULAR[kind]]: name };
}

async function reloadPost(world: World, kind: PostKind, id: number): Promise<AnyPost | null> {
  return world.dataSource.getRepository<AnyPost>(POST_ENTITY[kind]).findOneBy({ id });
}

/** A list shows the owner's draft only to its owner and to editors and administrators. */
function draftVisibility(kind: PostKind): Scenario {
  const listKey = kind;
  return {
    name: "lists hide the author's draft from other callers",
    prepare: async (world, caller) => {
      const [published, draft] = await world.shared(`list-${kind}`, () =>
        Promise.all([makePost(world, kind, 'author', 'publish'), makePost(world, kind, 'author', 'draft')]),
      );
      return {
        request: { path: `${EVENTS_NS}/${kind}`, query: { per_page: 100 } },
        verify: (response) => {
          const listed = ids(response.body[listKey]);
          assert(listed.includes(published.id), `the published ${SINGULAR[kind]} is missing from the list`);
          const seesDraft = ['administrator', 'editor', 'author'].includes(caller.principal);
          assert(listed.includes(draft.id) === seesDraft, `${caller.principal} ${seesDraft ? 'does not see' : 'sees'} the author's draft`);
        },
      };
    },
    expect: PUBLIC,
  };
}

function createPost(kind: PostKind): Scenario {
  return {
    name: 'create',
    prepare: () =>
      Promise.resolve({
        request: { path: `${EVENTS_NS}/${kind}`, body: createPostBody(kind) },
        verify: (response) => assert(typeof response.headers.location === 'string', 'a create answers with Location'),
      }),
    expect: row(ANONYMOUS, 201, 201, 201, 201, FORBIDDEN),
  };
}

/** GET of one post (`suffix`: a rendering of it, such as `/ics`). */
function readPost(kind: PostKind, bySlug: boolean, suffix = ''): Scenario[] {
  const hidden: Outcome = { status: 403, code: `${SINGULAR[kind]}-not-accessible` };
  return [
    {
      name: "author A's published",
      other: 'authorB',
      prepare: async (world) => ({
        request: {
          path: postPath(kind, await world.shared(`${kind}-published`, () => makePost(world, kind, 'author', 'publish')), bySlug) + suffix,
        },
      }),
      expect: PUBLIC_OWNED,
    },
    {
      name: "author A's draft",
      other: 'authorB',
      prepare: async (world) => ({
        request: {
          path: postPath(kind, await world.shared(`${kind}-draft`, () => makePost(world, kind, 'author', 'draft')), bySlug) + suffix,
        },
      }),
      expect: row(hidden, 200, 200, 200, hidden, hidden, hidden),
    },
  ];
}

/** A series of one occurrence (its first event, `owner`'s with `status`), written straight to the database. */
async function makeSeries(world: World, owner: UserKey, status: PostStatus): Promise<EventSeries> {
  const event = await world.event(owner, { status });
  const series = await world.dataSource.getRepository(EventSeries).save({
    firstEventId: event.id,
    authorId: event.authorId!,
    timezone: event.timezone,
    startLocal: event.startLocal,
    durationSeconds: Math.round((event.endUtc.getTime() - event.startUtc.getTime()) / 1000),
    rrule: 'FREQ=WEEKLY;COUNT=1',
    rdates: '[]',
    exdates: '[]',
    template: '{}',
    expandedUntil: new Date(event.startUtc.getTime() + 1000),
    exhausted: true,
    claimedUntil: null,
  });
  await world.dataSource
    .getRepository(EventSeriesOccurrence)
    .insert({ eventId: event.id, seriesId: series.id, occurrenceLocal: event.startLocal, detached: false });
  return series;
}

/** The iCalendar file of a series is readable as its first event is. */
const seriesIcs: Scenario[] = [
  {
    name: "author A's published series",
    other: 'authorB',
    prepare: async (world) => ({
      request: {
        path: `${EVENTS_NS}/series/${(await world.shared('series-published', () => makeSeries(world, 'author', 'publish'))).id}/ics`,
      },
    }),
    expect: PUBLIC_OWNED,
  },
  {
    name: "author A's draft series",
    other: 'authorB',
    prepare: async (world) => ({
      request: { path: `${EVENTS_NS}/series/${(await world.shared('series-draft', () => makeSeries(world, 'author', 'draft'))).id}/ics` },
    }),
    expect: row(
      { status: 403, code: 'event-not-accessible' },
      200,
      200,
      200,
      { status: 403, code: 'event-not-accessible' },
      { status: 403, code: 'event-not-accessible' },
      { status: 403, code: 'event-not-accessible' },
    ),
  },
];

/** The iCalendar feed follows the events list: the author's draft only for its owner and editors. */
const icsFeed: Scenario = {
  name: "the feed hides the author's draft from other callers",
  prepare: async (world, caller) => {
    const [published, draft] = (await world.shared('list-events', () =>
      Promise.all([makePost(world, 'events', 'author', 'publish'), makePost(world, 'events', 'author', 'draft')]),
    )) as Event[];
    return {
      request: { path: `${EVENTS_NS}/events/ics` },
      verify: (response) => {
        assert(response.text.includes(published.title), 'the published event is missing from the feed');
        const seesDraft = ['administrator', 'editor', 'author'].includes(caller.principal);
        assert(
          response.text.includes(draft.title) === seesDraft,
          `${caller.principal} ${seesDraft ? 'does not see' : 'sees'} the author's draft`,
        );
      },
    };
  },
  expect: PUBLIC,
};

function updatePost(kind: PostKind, bySlug: boolean): Scenario[] {
  const scenario = (name: string, owner: UserKey, status: PostStatus, other: OtherIdentity, expect: Row): Scenario => ({
    name,
    other,
    prepare: async (world) => {
      const post = await makePost(world, kind, owner, status);
      const title = uniqueName('Renamed');
      return {
        request: { path: postPath(kind, post, bySlug), body: renameBody(kind, title) },
        verify: async () => assert((await reloadPost(world, kind, post.id))?.title === title, 'the update was not saved'),
      };
    },
    expect,
  });
  return [
    scenario("author A's published", 'author', 'publish', 'authorB', row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    scenario(
      "contributor C's draft",
      'contributor',
      'draft',
      'contributorB',
      row(ANONYMOUS, 200, 200, FORBIDDEN, 200, FORBIDDEN, FORBIDDEN),
    ),
  ];
}

function deletePost(kind: PostKind, bySlug: boolean): Scenario[] {
  const scenario = (name: string, owner: UserKey, status: PostStatus, other: OtherIdentity, expect: Row): Scenario => ({
    name,
    other,
    prepare: async (world) => {
      const post = await makePost(world, kind, owner, status);
      return {
        request: { path: postPath(kind, post, bySlug) },
        verify: async () => assert((await reloadPost(world, kind, post.id))?.status === 'trash', 'the delete did not trash it'),
      };
    },
    expect,
  });
  return [
    scenario("author A's published", 'author', 'publish', 'authorB', row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN)),
    scenario(
      "contributor C's draft",
      'contributor',
      'draft',
      'contributorB',
      row(ANONYMOUS, 200, 200, FORBIDDEN, 200, FORBIDDEN, FORBIDDEN),
    ),
  ];
}

function postRoutes(kind: PostKind): RouteSpec[] {
  const base = `${EVENTS_NS}/${kind}`;
  const routes: RouteSpec[] = [
    { method: 'GET', path: base, scenarios: [draftVisibility(kind)] },
    { method: 'POST', path: base, scenarios: [createPost(kind)] },
  ];
  for (const bySlug of [false, true]) {
    const path = bySlug ? `${base}/by-slug/:slug` : `${base}/:id`;
    routes.push({ method: 'GET', path, scenarios: readPost(kind, bySlug) });
    for (const method of ['POST', 'PUT', 'PATCH'] as const) routes.push({ method, path, scenarios: updatePost(kind, bySlug) });
    routes.push({ method: 'DELETE', path, scenarios: deletePost(kind, bySlug) });
  }
  return routes;
}

// ---------------------------------------------------------------- categories, tags

type TermKind = 'categories' | 'tags';

function makeTerm(world: World, kind: TermKind): Promise<Category | Tag> {
  return kind === 'categories' ? world.category() : world.tag();
}

function termRoutes(kind: TermKind): RouteSpec[] {
  const base = `${EVENTS_NS}/${kind}`;
  const entity = kind === 'categories' ? Category : Tag;
  const termPath = (term: Category | Tag, bySlug: boolean) => `${base}/${bySlug ? `by-slug/${term.slug}` : term.id}`;
  const routes: RouteSpec[] = [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: 'public list',
          prepare: async (world) => (
            await world.shared(`${kind}-term`, () => makeTerm(world, kind)),
            { request: { path: base, query: { hide_empty: false } } }
          ),
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: 'create (editors and up)',
          prepare: () => Promise.resolve({ request: { path: base, body: { name: uniqueName('Matrix term') } } }),
          expect: row(ANONYMOUS, 201, 201, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        },
      ],
    },
  ];
  for (const bySlug of [false, true]) {
    const path = bySlug ? `${base}/by-slug/:slug` : `${base}/:id`;
    routes.push({
      method: 'GET',
      path,
      scenarios: [
        {
          name: 'public term',
          prepare: async (world) => ({
            request: { path: termPath(await world.shared(`${kind}-term`, () => makeTerm(world, kind)), bySlug) },
          }),
          expect: PUBLIC,
        },
      ],
    });
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      routes.push({
        method,
        path,
        scenarios: [
          {
            name: 'update (editors and up)',
            prepare: async (world) => {
              const term = await makeTerm(world, kind);
              const description = uniqueName('Described');
              return {
                request: { path: termPath(term, bySlug), body: { description } },
                verify: async () =>
                  assert(
                    (await world.dataSource.getRepository<Category | Tag>(entity).findOneBy({ id: term.id }))?.description === description,
                    'the update was not saved',
                  ),
              };
            },
            expect: row(ANONYMOUS, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN),
          },
        ],
      });
    }
    routes.push({
      method: 'DELETE',
      path,
      scenarios: [
        {
          name: 'delete (editors and up)',
          prepare: async (world) => {
            const term = await makeTerm(world, kind);
            return {
              request: { path: termPath(term, bySlug), query: { force: true } },
              verify: async () =>
                assert(
                  (await world.dataSource.getRepository<Category | Tag>(entity).findOneBy({ id: term.id })) === null,
                  'the term was not deleted',
                ),
            };
          },
          expect: row(ANONYMOUS, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        },
      ],
    });
  }
  return routes;
}

// ---------------------------------------------------------------- tickets

/** Author A's published event with a paid ticket, shared by the cases that only read or buy. */
function sharedTicket(world: World): Promise<{ event: Event; ticket: Ticket }> {
  return world.shared('ticketed-event', async () => {
    const event = await world.event('author', { status: 'publish' });
    return { event, ticket: await world.ticket(event) };
  });
}

function sharedDraftTicket(world: World): Promise<{ event: Event; ticket: Ticket }> {
  return world.shared('draft-ticketed-event', async () => {
    const event = await world.event('author', { status: 'draft' });
    return { event, ticket: await world.ticket(event) };
  });
}

function ticketRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/tickets`;
  const update = (eventStatus: PostStatus): Scenario => ({
    name: `ticket of author A's ${eventStatus === 'publish' ? 'published' : 'draft'} event`,
    other: 'authorB',
    prepare: async (world, caller) => {
      const event = eventStatus === 'publish' ? (await sharedTicket(world)).event : (await sharedDraftTicket(world)).event;
      const ticket = await world.ticket(event);
      const name = uniqueName('Renamed ticket');
      return {
        request: {
          path: `${base}/${ticket.id}`,
          body: { post_id: event.id, name, edit_ticket_nonce: world.nonce('edit_ticket_nonce', caller) },
        },
        verify: async () =>
          assert((await world.dataSource.getRepository(Ticket).findOneBy({ id: ticket.id }))?.name === name, 'the update was not saved'),
      };
    },
    expect:
      eventStatus === 'publish'
        ? row(ANONYMOUS, 200, 200, 200, TICKET_FORBIDDEN, TICKET_FORBIDDEN, TICKET_FORBIDDEN)
        : row(ANONYMOUS, 200, 200, 200, TICKET_HIDDEN, TICKET_HIDDEN, TICKET_HIDDEN),
  });
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists hide tickets of the author's draft event from other callers",
          prepare: async (world, caller) => {
            const [published, draft] = await Promise.all([sharedTicket(world), sharedDraftTicket(world)]);
            return {
              request: { path: base, query: { per_page: 100, post_status: 'any', include: `${published.ticket.id},${draft.ticket.id}` } },
              verify: (response) => {
                const listed = ids(response.body.tickets);
                assert(listed.includes(published.ticket.id), 'the published ticket is missing');
                const seesDraft = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(
                  listed.includes(draft.ticket.id) === seesDraft,
                  `${caller.principal} ${seesDraft ? 'does not see' : 'sees'} the draft event's ticket`,
                );
              },
            };
          },
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: "for author A's event",
          other: 'authorB',
          prepare: async (world, caller) => {
            const { event } = await sharedTicket(world);
            return {
              request: {
                path: base,
                body: {
                  post_id: event.id,
                  provider: 'tc',
                  name: uniqueName('New ticket'),
                  price: '10',
                  ticket: { mode: 'own', capacity: 5 },
                  add_ticket_nonce: world.nonce('add_ticket_nonce', caller),
                },
              },
            };
          },
          expect: row(ANONYMOUS, 201, 201, 201, TICKET_FORBIDDEN, TICKET_FORBIDDEN, TICKET_FORBIDDEN),
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "ticket of author A's published event",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await sharedTicket(world)).ticket.id}` } }),
          expect: PUBLIC_OWNED,
        },
        {
          name: "ticket of author A's draft event",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await sharedDraftTicket(world)).ticket.id}` } }),
          expect: row(TICKET_HIDDEN, 200, 200, 200, TICKET_HIDDEN, TICKET_HIDDEN, TICKET_HIDDEN),
        },
      ],
    },
    ...(['POST', 'PUT', 'PATCH'] as const).map((method): RouteSpec => ({
      method,
      path: `${base}/:id`,
      scenarios: [update('publish'), update('draft')],
    })),
    {
      method: 'DELETE',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "ticket of author A's published event",
          other: 'authorB',
          prepare: async (world, caller) => {
            const { event } = await sharedTicket(world);
            const ticket = await world.ticket(event);
            return {
              request: {
                path: `${base}/${ticket.id}`,
                body: { post_id: event.id, remove_ticket_nonce: world.nonce('remove_ticket_nonce', caller) },
              },
              verify: async () =>
                assert(!(await world.dataSource.getRepository(Ticket).existsBy({ id: ticket.id })), 'the ticket was not deleted'),
            };
          },
          expect: row(ANONYMOUS, 200, 200, 200, TICKET_FORBIDDEN, TICKET_FORBIDDEN, TICKET_FORBIDDEN),
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- attendees and check-in

/** An attendee of author A's event, whose list is not public. */
function sharedPrivateAttendee(world: World): Promise<Attendee> {
  return world.shared('private-attendee', async () => world.attendee((await sharedTicket(world)).ticket));
}

function sharedPublicAttendee(world: World): Promise<Attendee> {
  return world.shared('public-attendee', async () => {
    const event = await world.event('author', { status: 'publish', showAttendeeList: true });
    return world.attendee(await world.ticket(event));
  });
}

const MANAGERS_ONLY = row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN);

function checkInScenario(body: (attendee: Attendee) => Record<string, unknown>, path: (attendee: Attendee) => string): Scenario {
  return {
    name: "attendee of author A's event",
    other: 'authorB',
    prepare: async (world) => {
      const attendee = await world.attendee((await sharedTicket(world)).ticket);
      return {
        request: { path: path(attendee), body: body(attendee) },
        verify: async () =>
          assert(
            (await world.dataSource.getRepository(Attendee).findOneBy({ id: attendee.id }))?.checkedIn === true,
            'the attendee is not checked in',
          ),
      };
    },
    expect: MANAGERS_ONLY,
  };
}

function attendeeRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/attendees`;
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists show the private attendee to the event's managers only",
          prepare: async (world, caller) => {
            const [hidden, shown] = await Promise.all([sharedPrivateAttendee(world), sharedPublicAttendee(world)]);
            return {
              request: { path: base, query: { per_page: 100, include: `${hidden.id},${shown.id}` } },
              verify: (response) => {
                const listed = ids(response.body.attendees);
                assert(listed.includes(shown.id), 'the public attendee is missing');
                const manages = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(
                  listed.includes(hidden.id) === manages,
                  `${caller.principal} ${manages ? 'does not see' : 'sees'} the private attendee`,
                );
              },
            };
          },
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "attendee of author A's event without a public list",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await sharedPrivateAttendee(world)).id}` } }),
          expect: row(ATTENDEE_HIDDEN, 200, 200, 200, ATTENDEE_HIDDEN, ATTENDEE_HIDDEN, ATTENDEE_HIDDEN),
        },
        {
          name: "attendee of author A's event with a public list",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await sharedPublicAttendee(world)).id}` } }),
          expect: PUBLIC_OWNED,
        },
      ],
    },
    ...(['POST', 'PUT', 'PATCH'] as const).map((method): RouteSpec => ({
      method,
      path: `${base}/:id`,
      scenarios: [
        checkInScenario(
          () => ({ check_in: true }),
          (attendee) => `${base}/${attendee.id}`,
        ),
      ],
    })),
    {
      method: 'POST',
      path: `${TICKETS_NS}/qr`,
      scenarios: [
        checkInScenario(
          (attendee) => ({ security_code: attendee.securityCode }),
          () => `${TICKETS_NS}/qr`,
        ),
      ],
    },
  ];
}

// ---------------------------------------------------------------- cart, checkout, orders

async function cartLines(world: World, where: { userId: number } | { token: string }): Promise<CartItem[]> {
  const cart = await world.dataSource.getRepository(Cart).findOneBy(where);
  return cart ? world.dataSource.getRepository(CartItem).findBy({ cartId: cart.id }) : [];
}

async function emptyCart(world: World, userId: number): Promise<void> {
  const cart = await world.dataSource.getRepository(Cart).findOneBy({ userId });
  if (cart) await world.dataSource.getRepository(CartItem).delete({ cartId: cart.id });
}

/** Buyer A's cart holds one unit of the shared ticket (set again before each case that looks at it). */
async function buyerACart(world: World): Promise<Ticket> {
  const { ticket } = await sharedTicket(world);
  await world.fillCart(world.caller('subscriber'), ticket, 1);
  return ticket;
}

function cartRoutes(): RouteSpec[] {
  const path = `${TICKETS_NS}/cart`;
  const write: Scenario = {
    name: "writes change the caller's own cart only",
    other: 'subscriberB',
    prepare: async (world, caller) => {
      const ticket = await buyerACart(world);
      return {
        request: { path, body: { provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 2 }] } },
        verify: async (response) => {
          const lines = await cartLines(world, { userId: world.userId('subscriber') });
          const expected = caller.principal === 'subscriber' ? 2 : 1;
          assert(
            lines.find((line) => line.ticketId === ticket.id)?.quantity === expected,
            `buyer A's cart holds the wrong quantity after ${caller.principal}'s write`,
          );
          if (caller.principal === 'anonymous')
            assert(typeof response.headers['x-cart-token'] === 'string', 'an anonymous buyer gets a cart token');
        },
      };
    },
    expect: row(200, 200, 200, 200, 200, 200, 200),
  };
  return [
    {
      method: 'GET',
      path,
      scenarios: [
        {
          name: "buyer A's cart",
          other: 'subscriberB',
          prepare: async (world, caller) => {
            const ticket = await buyerACart(world);
            return {
              request: { path },
              verify: (response) => {
                const shown = (response.body.tickets as Array<{ ticket_id: number }>).some((line) => line.ticket_id === ticket.id);
                assert(
                  shown === (caller.principal === 'subscriber'),
                  `${caller.principal} ${shown ? 'sees' : 'does not see'} buyer A's cart line`,
                );
              },
            };
          },
          expect: row(200, 200, 200, 200, 200, 200, 200),
        },
        {
          name: "anonymous buyer A's cart, by cart token",
          other: 'guestB',
          prepare: async (world, caller) => {
            const { ticket } = await sharedTicket(world);
            const guestA = await world.shared('guest-a-cart', () => world.fillCart({ principal: 'anonymous' }, ticket, 3));
            return {
              request: { path },
              verify: (response) => {
                const shown = (response.body.tickets as Array<{ ticket_id: number; quantity: number }>).some(
                  (line) => line.ticket_id === ticket.id && line.quantity === 3,
                );
                assert(!shown, `${caller.principal} sees anonymous buyer A's cart (token ${guestA.cartToken})`);
              },
            };
          },
          expect: row(200, 200, 200, 200, 200, 200, 200),
        },
      ],
    },
    ...(['POST', 'PUT', 'PATCH'] as const).map((method): RouteSpec => ({ method, path, scenarios: [write] })),
    {
      method: 'POST',
      path: `${path}/checkout`,
      scenarios: [
        {
          name: "checks out the caller's own cart only",
          other: 'subscriberB',
          prepare: async (world, caller) => {
            const { ticket } = await sharedTicket(world);
            const body = { provider: 'tc', purchaser: { name: 'Matrix Buyer', email: 'matrix@example.org' } };
            if (caller.principal === 'other') {
              await buyerACart(world);
              await emptyCart(world, world.userId('subscriberB'));
              return {
                request: { path: `${path}/checkout`, body },
                verify: async () =>
                  assert(
                    (await cartLines(world, { userId: world.userId('subscriber') })).length === 1,
                    "buyer A's cart was checked out by buyer B",
                  ),
              };
            }
            return { request: { path: `${path}/checkout`, body }, caller: await world.fillCart(caller, ticket, 1) };
          },
          expect: row(201, 201, 201, 201, 201, 201, { status: 400, code: 'cart-empty' }),
        },
      ],
    },
  ];
}

/** A fresh order of buyer A (pending for a paid ticket, completed for a free one). */
async function buyerAOrder(world: World, paid: boolean): Promise<number> {
  const ticket = paid
    ? (await sharedTicket(world)).ticket
    : await world.shared('free-ticket', async () => world.ticket((await sharedTicket(world)).event, { price: '0.00' }));
  return (await world.order(world.caller('subscriber'), ticket)).id;
}

function orderRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/orders`;
  const transition = (action: 'complete' | 'cancel' | 'refund', paid: boolean, expect: Row): Scenario => ({
    name: `buyer A's ${paid ? 'pending' : 'completed'} order`,
    other: 'subscriberB',
    prepare: async (world) => ({ request: { path: `${base}/${await buyerAOrder(world, paid)}/${action}` } }),
    expect,
  });
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists show buyer A's order to the buyer and to editors and up",
          other: 'subscriberB',
          prepare: async (world, caller) => {
            const orderId = await world.shared('buyer-a-order', () => buyerAOrder(world, true));
            return {
              request: { path: base, query: { per_page: 100 } },
              verify: (response) => {
                const listed = ids(response.body.orders);
                const sees = ['administrator', 'editor', 'subscriber'].includes(caller.principal);
                assert(listed.includes(orderId) === sees, `${caller.principal} ${sees ? 'does not see' : 'sees'} buyer A's order`);
              },
            };
          },
          expect: PUBLIC_OWNED,
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "buyer A's order (author A's event)",
          other: 'subscriberB',
          prepare: async (world) => ({
            request: { path: `${base}/${await world.shared('buyer-a-order', () => buyerAOrder(world, true))}` },
          }),
          expect: row(ORDER_HIDDEN, 200, 200, 200, ORDER_HIDDEN, 200, ORDER_HIDDEN),
        },
        {
          name: "anonymous buyer A's order, by cart token",
          other: 'guestB',
          prepare: async (world) => {
            const order = await world.shared('guest-a-order', async () =>
              world.order({ principal: 'anonymous' }, (await sharedTicket(world)).ticket),
            );
            return { request: { path: `${base}/${order.id}` } };
          },
          expect: row(ORDER_HIDDEN, 200, 200, 200, ORDER_HIDDEN, ORDER_HIDDEN, ORDER_HIDDEN),
        },
      ],
    },
    {
      method: 'POST',
      path: `${base}/:id/complete`,
      scenarios: [transition('complete', true, row(ANONYMOUS, 200, 200, 200, ORDER_HIDDEN, FORBIDDEN, ORDER_HIDDEN))],
    },
    {
      method: 'POST',
      path: `${base}/:id/cancel`,
      scenarios: [
        transition('cancel', true, row(ANONYMOUS, 200, 200, 200, ORDER_HIDDEN, 200, ORDER_HIDDEN)),
        transition('cancel', false, row(ANONYMOUS, 200, 200, 200, ORDER_HIDDEN, FORBIDDEN, ORDER_HIDDEN)),
      ],
    },
    {
      method: 'POST',
      path: `${base}/:id/refund`,
      scenarios: [transition('refund', false, row(ANONYMOUS, 200, 200, 200, ORDER_HIDDEN, FORBIDDEN, ORDER_HIDDEN))],
    },
    {
      method: 'POST',
      path: `${base}/:id/payment/capture`,
      scenarios: [
        {
          // Who may ask is who may read the order; with PayPal configured it is captured (test/payments-paypal.e2e-spec.ts).
          name: "buyer A's pending order, paid by hand: nothing to capture, said only to those who may see the order",
          other: 'subscriberB',
          prepare: async (world) => ({ request: { path: `${base}/${await buyerAOrder(world, true)}/payment/capture` } }),
          expect: (() => {
            const notCapturable: Outcome = { status: 409, code: 'payment-not-capturable' };
            return row(ORDER_HIDDEN, notCapturable, notCapturable, notCapturable, ORDER_HIDDEN, notCapturable, ORDER_HIDDEN);
          })(),
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- waitlist

/** Author A's sold-out ticket (capacity 0) with its waitlist on. */
function waitlistTicket(world: World): Promise<Ticket> {
  return world.shared('waitlist-ticket', async () => {
    const ticket = await world.ticket((await sharedTicket(world)).event, { capacity: 0 });
    await world.dataSource.getRepository(Ticket).update(ticket.id, { waitlist: true });
    return ticket;
  });
}

let waitlistEntries = 0;

/** A waiting entry on author A's waitlist ticket (rows only). */
async function waitlistEntry(world: World): Promise<WaitlistEntry> {
  const ticket = await waitlistTicket(world);
  waitlistEntries += 1;
  const email = `matrix-waiting-${waitlistEntries}-${Date.now()}@example.org`;
  const now = new Date();
  return world.dataSource.getRepository(WaitlistEntry).save({
    ticketId: ticket.id,
    eventId: ticket.eventId,
    name: 'Matrix waiting',
    email,
    liveEmail: email,
    quantity: 1,
    priority: 0,
    status: 'waiting',
    cancelToken: `${waitlistEntries.toString(16).padStart(8, '0')}${'a'.repeat(40)}`,
    offerToken: null,
    offerQuantity: null,
    offeredAt: null,
    offerExpiresAt: null,
    orderId: null,
    createdAt: now,
    updatedAt: now,
  });
}

function waitlistRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/waitlist`;
  const MANAGERS_OF_A = row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN);
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists show author A's waitlist to its managers only",
          other: 'authorB',
          prepare: async (world, caller) => {
            const entry = await world.shared('waitlist-entry', () => waitlistEntry(world));
            return {
              request: { path: base, query: { per_page: 100 } },
              verify: (response) => {
                const listed = ids(response.body.entries);
                const sees = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(listed.includes(entry.id) === sees, `${caller.principal} ${sees ? 'does not see' : 'sees'} author A's waitlist`);
              },
            };
          },
          expect: row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, 200),
        },
      ],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: "join author A's sold-out ticket",
          prepare: async (world) => {
            waitlistEntries += 1;
            return {
              request: {
                path: base,
                body: {
                  ticket_id: (await waitlistTicket(world)).id,
                  name: 'Matrix joiner',
                  email: `matrix-join-${waitlistEntries}-${Date.now()}@example.org`,
                  quantity: 1,
                },
              },
            };
          },
          expect: row(201, 201, 201, 201, 201, 201),
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/stats`,
      scenarios: [
        {
          name: "author A's waitlist ticket",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/stats`, query: { ticket_id: (await waitlistTicket(world)).id } } }),
          expect: MANAGERS_OF_A,
        },
      ],
    },
    {
      method: 'POST',
      path: `${base}/offer-next`,
      scenarios: [
        {
          name: "author A's waitlist ticket (nothing free: no offer)",
          other: 'authorB',
          prepare: async (world) => ({
            request: { path: `${base}/offer-next`, body: { ticket_id: (await waitlistTicket(world)).id, quantity: 1 } },
          }),
          expect: MANAGERS_OF_A,
        },
      ],
    },
    {
      method: 'PATCH',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "an entry on author A's waitlist",
          other: 'authorB',
          prepare: async (world) => ({
            request: { path: `${base}/${(await world.shared('waitlist-entry', () => waitlistEntry(world))).id}`, body: { priority: 1 } },
          }),
          expect: row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, { status: 404, code: 'waitlist-entry-not-found' }),
        },
      ],
    },
    {
      method: 'DELETE',
      path: `${base}/:cancel_token`,
      scenarios: [
        {
          name: 'leave by the cancel token (a bearer secret: whoever holds it)',
          prepare: async (world) => ({ request: { path: `${base}/${(await waitlistEntry(world)).cancelToken}` } }),
          expect: row(200, 200, 200, 200, 200, 200),
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- waiting rooms (queues)

/** A queue on author A's published event, open since a minute ago (rows only). */
async function authorAQueue(world: World): Promise<Queue> {
  const event = await world.event('author');
  const now = new Date();
  return world.dataSource.getRepository(Queue).save({
    eventId: event.id,
    ticketIds: null,
    prequeueOpensAt: null,
    opensAt: new Date(now.getTime() - 60_000),
    closesAt: null,
    maxActive: 10,
    maxAdmitPerMinute: 60,
    admissionMinutes: 10,
    unitsPerAdmission: 4,
    queueAll: true,
    paused: false,
    shuffleSeed: 'a'.repeat(64),
    openedAt: new Date(now.getTime() - 60_000),
    lastPosition: 0,
    servingCounter: 0,
    counterAt: now,
    counterVersion: 0,
    rateSamples: '[]',
    joinedCount: 0,
    closedAt: null,
    closedReason: null,
    createdAt: now,
    updatedAt: now,
  });
}

const QUEUE_SECRET = 'matrix-queue-secret';
let queueEntries = 0;

/** An admitted entry of `queue` whose secret is QUEUE_SECRET. */
async function admittedEntry(world: World, queue: Queue): Promise<QueueEntry> {
  queueEntries += 1;
  return world.dataSource.getRepository(QueueEntry).save({
    queueId: queue.id,
    requestId: `matrix-entry-${queueEntries}-${Date.now()}`,
    secretHash: createHash('sha256').update(QUEUE_SECRET).digest('hex'),
    status: 'admitted',
    position: queueEntries,
    clientAddress: null,
    userId: null,
    joinedAt: new Date(),
    admittedAt: new Date(),
    finishedAt: null,
  });
}

function queueRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/queues`;
  const MANAGERS_OF_A = row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN);
  const shared = (world: World) => world.shared('queue', () => authorAQueue(world));
  return [
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: "a queue for author A's event",
          other: 'authorB',
          prepare: async (world) => ({
            request: { path: base, body: { post_id: (await world.event('author')).id, opens_at: '2030-01-01T10:00:00Z', max_active: 10 } },
          }),
          expect: row(ANONYMOUS, 201, 201, 201, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      scenarios: [
        {
          name: 'the queue page reads it',
          prepare: async (world) => ({ request: { path: `${base}/${(await shared(world)).id}` } }),
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'PATCH',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "author A's queue",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await shared(world)).id}`, body: { max_active: 10 } } }),
          expect: MANAGERS_OF_A,
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id/status`,
      scenarios: [
        {
          name: 'shared by every entry',
          prepare: async (world) => ({ request: { path: `${base}/${(await shared(world)).id}/status` } }),
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id/metrics`,
      scenarios: [
        {
          name: "author A's queue",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await shared(world)).id}/metrics` } }),
          expect: MANAGERS_OF_A,
        },
      ],
    },
    {
      method: 'POST',
      path: `${base}/:id/entries`,
      scenarios: [
        {
          name: 'anyone joins (a fresh queue per case: one address sends them all)',
          prepare: async (world) => {
            queueEntries += 1;
            return {
              request: {
                path: `${base}/${(await authorAQueue(world)).id}/entries`,
                body: { request_id: `matrix-join-${queueEntries}-${Date.now()}`, secret_hash: 'b'.repeat(64) },
              },
            };
          },
          expect: row(202, 202, 202, 202, 202, 202),
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id/entries/:request_id`,
      scenarios: [
        {
          name: "an entry's place (anyone knowing its request id)",
          prepare: async (world) => {
            const queue = await shared(world);
            const entry = await world.shared('queue-entry', () => admittedEntry(world, queue));
            return { request: { path: `${base}/${queue.id}/entries/${entry.requestId}` } };
          },
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'POST',
      path: `${base}/:id/entries/:request_id/admission`,
      scenarios: [
        {
          name: 'the admission, to whoever shows the secret (a bearer secret)',
          prepare: async (world) => {
            const queue = await shared(world);
            const entry = await admittedEntry(world, queue);
            return { request: { path: `${base}/${queue.id}/entries/${entry.requestId}/admission`, body: { secret: QUEUE_SECRET } } };
          },
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'DELETE',
      path: `${base}/:id/entries/:request_id/admission`,
      scenarios: [
        {
          name: "revoke an admission of author A's queue",
          other: 'authorB',
          prepare: async (world) => {
            const queue = await shared(world);
            const entry = await admittedEntry(world, queue);
            return { request: { path: `${base}/${queue.id}/entries/${entry.requestId}/admission` } };
          },
          expect: MANAGERS_OF_A,
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- coupons and attendee questions

const COUPON_FORBIDDEN: Outcome = { status: 403, code: 'coupon-forbidden' };
let couponCounter = 0;

/** A fresh coupon of author A for author A's published event, written straight to the database. */
async function authorACoupon(world: World): Promise<Coupon> {
  const { event } = await sharedTicket(world);
  couponCounter += 1;
  const code = `SEC${couponCounter}${uniqueName('c')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-8)}`;
  return world.dataSource.getRepository(Coupon).save({
    code,
    codeKey: code.toLowerCase(),
    authorId: world.userId('author'),
    eventId: event.id,
    ticketIds: null,
    discountType: 'percent',
    amount: 1000,
    maxUses: null,
    uses: 0,
    startsAt: null,
    endsAt: null,
    revealsHidden: false,
  });
}

function couponRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/coupons`;
  const onCoupon = (method: Method, body?: Record<string, unknown>): RouteSpec => ({
    method,
    path: `${base}/:id`,
    scenarios: [
      {
        name: "a coupon of author A's event",
        other: 'authorB',
        prepare: async (world) => {
          const coupon = method === 'GET' ? await world.shared('author-a-coupon', () => authorACoupon(world)) : await authorACoupon(world);
          return { request: { path: `${base}/${coupon.id}`, body } };
        },
        expect: row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, COUPON_FORBIDDEN),
      },
    ],
  });
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists the caller's coupons",
          prepare: async () => ({ request: { path: base } }),
          expect: row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN),
        },
      ],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: "a coupon for author A's event",
          other: 'authorB',
          prepare: async (world) => ({
            request: {
              path: base,
              body: {
                code: `NEW${uniqueName('c')
                  .replace(/[^A-Za-z0-9]/g, '')
                  .slice(-10)}`,
                post_id: (await sharedTicket(world)).event.id,
                discount_type: 'none',
              },
            },
            verify: (response) => assert(typeof response.headers.location === 'string', 'a create answers with Location'),
          }),
          expect: row(ANONYMOUS, 201, 201, 201, FORBIDDEN, FORBIDDEN, COUPON_FORBIDDEN),
        },
      ],
    },
    onCoupon('GET'),
    onCoupon('PUT', { amount: '20' }),
    onCoupon('PATCH', { amount: '15' }),
    onCoupon('DELETE'),
  ];
}

function attendeeInformationRoutes(): RouteSpec[] {
  const EDIT_FORBIDDEN: Outcome = { status: 403, code: 'attendee-edit-forbidden' };
  return (['PUT', 'PATCH'] as const).map((method) => ({
    method,
    path: `${TICKETS_NS}/attendees/:id/information`,
    scenarios: [
      {
        name: "attendee of buyer A's completed order (author A's event)",
        other: 'subscriberB',
        prepare: async (world) => ({
          request: {
            path: `${TICKETS_NS}/attendees/${(await buyerACompletedOrder(world)).attendeeId}/information`,
            body: { information: {} },
          },
        }),
        expect: row(ANONYMOUS, 200, 200, 200, EDIT_FORBIDDEN, 200, EDIT_FORBIDDEN),
      },
    ],
  }));
}

// ---------------------------------------------------------------- notifications

/** Buyer A's completed (free) order and its attendee, for the resend routes. */
async function buyerACompletedOrder(world: World): Promise<{ orderId: number; attendeeId: number }> {
  return world.shared('buyer-a-completed-order', async () => {
    const orderId = await buyerAOrder(world, false);
    const attendee = await world.dataSource.getRepository(Attendee).findOneByOrFail({ orderId });
    return { orderId, attendeeId: attendee.id };
  });
}

function resendRoutes(): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: `${TICKETS_NS}/orders/:id/resend`,
      scenarios: [
        {
          name: "buyer A's completed order",
          other: 'subscriberB',
          prepare: async (world) => ({ request: { path: `${TICKETS_NS}/orders/${(await buyerACompletedOrder(world)).orderId}/resend` } }),
          expect: row(ANONYMOUS, 202, 202, 202, ORDER_HIDDEN, 202, ORDER_HIDDEN),
        },
      ],
    },
    {
      method: 'POST',
      path: `${TICKETS_NS}/attendees/:id/resend`,
      scenarios: [
        {
          name: "attendee of buyer A's completed order (author A's event)",
          other: 'subscriberB',
          prepare: async (world) => ({
            request: { path: `${TICKETS_NS}/attendees/${(await buyerACompletedOrder(world)).attendeeId}/resend` },
          }),
          expect: row(ANONYMOUS, 202, 202, 202, { status: 404, code: 'attendee-not-found' }, 202, {
            status: 404,
            code: 'attendee-not-found',
          }),
        },
      ],
    },
  ];
}

/** A public address literal: creating an endpoint resolves nothing and sends nothing. */
const WEBHOOK_URL = 'https://93.184.216.34/matrix-hook';

async function webhookEndpoint(world: World): Promise<number> {
  return (await world.testApp.app.get(WebhooksService).create({ url: WEBHOOK_URL })).id;
}

function webhookRoutes(): RouteSpec[] {
  const base = `${TICKETS_NS}/webhooks`;
  const ADMIN_ONLY = (status: number) => row(ANONYMOUS, status, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN);
  const onEndpoint = (name: string, suffix: string, status: number, body?: Record<string, unknown>, fresh = false): Scenario => ({
    name,
    prepare: async (world) => {
      const id = fresh ? await webhookEndpoint(world) : await world.shared('webhook-endpoint', () => webhookEndpoint(world));
      return { request: { path: `${base}/${id}${suffix}`, ...(body ? { body } : {}) } };
    },
    expect: ADMIN_ONLY(status),
  });
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [{ name: 'the endpoints', prepare: () => Promise.resolve({ request: { path: base } }), expect: ADMIN_ONLY(200) }],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: 'create',
          prepare: () => Promise.resolve({ request: { path: base, body: { url: WEBHOOK_URL } } }),
          expect: ADMIN_ONLY(201),
        },
      ],
    },
    { method: 'GET', path: `${base}/:id`, scenarios: [onEndpoint('an endpoint', '', 200)] },
    { method: 'PATCH', path: `${base}/:id`, scenarios: [onEndpoint('change', '', 200, { description: 'matrix' })] },
    { method: 'PUT', path: `${base}/:id`, scenarios: [onEndpoint('change', '', 200, { description: 'matrix' })] },
    { method: 'DELETE', path: `${base}/:id`, scenarios: [onEndpoint('delete a fresh endpoint', '', 200, undefined, true)] },
    { method: 'GET', path: `${base}/:id/deliveries`, scenarios: [onEndpoint('its delivery log', '/deliveries', 200)] },
    {
      method: 'POST',
      path: `${base}/:id/deliveries/:deliveryId/redeliver`,
      scenarios: [
        {
          name: 'redeliver a logged delivery',
          prepare: async (world) => {
            const id = await world.shared('webhook-endpoint', () => webhookEndpoint(world));
            const delivery = await world.shared('webhook-delivery', async () => {
              const inserted = await world.dataSource.getRepository(OutboxMessage).save({
                channel: 'webhook',
                type: 'order.placed',
                payload: JSON.stringify({ type: 'order.placed', timestamp: new Date().toISOString(), data: { order_id: 1 } }),
                endpointId: id,
                messageId: 'msg_matrix',
                status: 'delivered',
                attempts: 1,
                nextAttemptAt: new Date(),
                createdAt: new Date(),
              });
              return inserted.id;
            });
            return { request: { path: `${base}/${id}/deliveries/${delivery}/redeliver` } };
          },
          expect: ADMIN_ONLY(202),
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- check-in at the door

/** A check-in list of author A's ticketed event, open all the time, shared by the cases that only read or scan. */
function sharedCheckinList(world: World): Promise<CheckinList> {
  return world.shared('checkin-list', async () => freshCheckinList(world));
}

async function freshCheckinList(world: World): Promise<CheckinList> {
  const { event } = await sharedTicket(world);
  return world.dataSource.getRepository(CheckinList).save({
    eventId: event.id,
    name: uniqueName('Gate'),
    defaultEventId: null,
    ticketIds: '[]',
    startsAt: new Date('2000-01-01T00:00:00Z'),
    endsAt: new Date('2100-01-01T00:00:00Z'),
    syncKey: generateSyncKey(),
  });
}

/** A list of author A's event that sells at the door (allow_sales). */
function sharedSalesList(world: World): Promise<CheckinList> {
  return world.shared('sales-checkin-list', async () => {
    const list = await freshCheckinList(world);
    await world.dataSource.getRepository(CheckinList).update({ id: list.id }, { allowSales: true });
    return Object.assign(list, { allowSales: true });
  });
}

async function freshDevice(world: World): Promise<{ id: number; token: string }> {
  const list = await sharedCheckinList(world);
  const created = await world.testApp.app
    .get(DevicesService)
    .create({ name: uniqueName('Phone'), list_ids: [list.id] }, { id: world.userId('author'), login: 'author', role: 'author' });
  return { id: created.id, token: created.initialization_token };
}

/** Managers of author A's event (administrator, editor, author A) only; author B is "another user". */
const DOOR_MANAGERS = row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN);

function doorScenario(name: string, prepare: Scenario['prepare'], expect: Row = DOOR_MANAGERS): Scenario {
  return { name, other: 'authorB', prepare, expect };
}

function checkinRoutes(): RouteSpec[] {
  const lists = `${TICKETS_NS}/checkin-lists`;
  const devices = `${TICKETS_NS}/devices`;
  const listRead = (suffix: string): Scenario =>
    doorScenario("a list of author A's event", async (world) => ({
      request: { path: `${lists}/${(await sharedCheckinList(world)).id}${suffix}` },
    }));
  return [
    {
      method: 'POST',
      path: lists,
      scenarios: [
        doorScenario(
          "a list for author A's event",
          async (world) => ({
            request: { path: lists, body: { post_id: (await sharedTicket(world)).event.id, name: uniqueName('Gate') } },
          }),
          row(ANONYMOUS, 201, 201, 201, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        ),
      ],
    },
    {
      method: 'GET',
      path: lists,
      scenarios: [
        doorScenario(
          "lists show author A's lists to the event's managers only",
          async (world, caller) => {
            const list = await sharedCheckinList(world);
            return {
              request: { path: lists },
              verify: (response) => {
                const manages = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(ids(response.body.checkin_lists).includes(list.id) === manages, `${caller.principal} sees the wrong lists`);
              },
            };
          },
          row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, 200),
        ),
      ],
    },
    { method: 'GET', path: `${lists}/:id`, scenarios: [listRead('')] },
    { method: 'GET', path: `${lists}/:id/status`, scenarios: [listRead('/status')] },
    { method: 'GET', path: `${lists}/:id/sync`, scenarios: [listRead('/sync')] },
    {
      method: 'PATCH',
      path: `${lists}/:id`,
      scenarios: [
        doorScenario("a list of author A's event", async (world) => ({
          request: { path: `${lists}/${(await sharedCheckinList(world)).id}`, body: { allow_entry_after_exit: true } },
        })),
      ],
    },
    {
      method: 'DELETE',
      path: `${lists}/:id`,
      scenarios: [
        doorScenario("a list of author A's event without check-ins", async (world) => ({
          request: { path: `${lists}/${(await freshCheckinList(world)).id}` },
        })),
      ],
    },
    {
      method: 'POST',
      path: devices,
      scenarios: [
        doorScenario(
          "a device for a list of author A's event",
          async (world) => ({
            request: { path: devices, body: { name: uniqueName('Phone'), list_ids: [(await sharedCheckinList(world)).id] } },
          }),
          row(ANONYMOUS, 201, 201, 201, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        ),
      ],
    },
    {
      method: 'GET',
      path: devices,
      scenarios: [
        doorScenario(
          "author A's devices to those managing every event and to author A",
          async (world, caller) => {
            const device = await world.shared('listed-device', () => freshDevice(world));
            return {
              request: { path: devices },
              verify: (response) => {
                const sees = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(ids(response.body.devices).includes(device.id) === sees, `${caller.principal} sees the wrong devices`);
              },
            };
          },
          row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, 200),
        ),
      ],
    },
    {
      method: 'POST',
      path: `${devices}/initialize`,
      scenarios: [
        {
          name: 'the initialization token is the credential',
          prepare: async (world) => ({ request: { path: `${devices}/initialize`, body: { token: (await freshDevice(world)).token } } }),
          expect: row(201, 201, 201, 201, 201, 201),
        },
      ],
    },
    {
      method: 'POST',
      path: `${devices}/:id/revoke`,
      scenarios: [
        doorScenario("a device of author A's list", async (world) => ({
          request: { path: `${devices}/${(await freshDevice(world)).id}/revoke` },
        })),
      ],
    },
    {
      method: 'POST',
      path: `${TICKETS_NS}/checkin/redeem`,
      scenarios: [
        doorScenario(
          "an attendee of author A's event",
          async (world) => {
            const attendee = await world.attendee((await sharedTicket(world)).ticket);
            const stored = await world.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id });
            return {
              request: {
                path: `${TICKETS_NS}/checkin/redeem`,
                body: { secret: stored.checkinSecret, list_ids: [(await sharedCheckinList(world)).id] },
              },
            };
          },
          row(ANONYMOUS, 201, 201, 201, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        ),
      ],
    },
    {
      method: 'POST',
      path: `${TICKETS_NS}/checkin/annul`,
      scenarios: [
        doorScenario(
          "a scan on author A's list",
          async (world) => {
            const attendee = await world.attendee((await sharedTicket(world)).ticket);
            const stored = await world.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id });
            const list = await sharedCheckinList(world);
            const checkin = await world.dataSource.getRepository(Checkin).save({
              listId: list.id,
              eventId: list.eventId,
              attendeeId: stored.id,
              type: 'entry',
              scannedAt: new Date(),
              createdAt: new Date(),
              successful: true,
              forced: false,
              reason: null,
              deviceId: null,
              userId: world.userId('author'),
              nonceScope: null,
              nonce: null,
              requestHash: null,
              annulledAt: null,
              annulledDeviceId: null,
              annulledUserId: null,
              answerStatus: 201,
              answer: '{}',
            });
            return { request: { path: `${TICKETS_NS}/checkin/annul`, body: { checkin_id: checkin.id } } };
          },
          row(ANONYMOUS, 200, 200, 200, ANNUL_FORBIDDEN, ANNUL_FORBIDDEN, ANNUL_FORBIDDEN),
        ),
      ],
    },
    {
      method: 'GET',
      path: `${lists}/:id/sale-tickets`,
      scenarios: [
        doorScenario("the tickets on sale at author A's selling list", async (world) => ({
          request: { path: `${lists}/${(await sharedSalesList(world)).id}/sale-tickets` },
        })),
      ],
    },
    {
      method: 'POST',
      path: `${TICKETS_NS}/checkin/sell`,
      scenarios: [
        doorScenario(
          "a walk-in sale at author A's selling list",
          async (world) => ({
            request: {
              path: `${TICKETS_NS}/checkin/sell`,
              body: {
                list_id: (await sharedSalesList(world)).id,
                ticket_id: (await sharedTicket(world)).ticket.id,
                quantity: 1,
                payment_method: 'cash',
              },
            },
          }),
          row(ANONYMOUS, 201, 201, 201, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        ),
      ],
    },
    {
      method: 'GET',
      path: `${TICKETS_NS}/checkin/search`,
      scenarios: [
        doorScenario("a list of author A's event", async (world) => ({
          request: { path: `${TICKETS_NS}/checkin/search`, query: { list: (await sharedCheckinList(world)).id, search: 'Holder' } },
        })),
      ],
    },
    {
      method: 'GET',
      path: `${TICKETS_NS}/checkins`,
      scenarios: [
        doorScenario(
          "the history of author A's events to their managers",
          async (world) =>
            Promise.resolve({ request: { path: `${TICKETS_NS}/checkins`, query: { post_id: (await sharedTicket(world)).event.id } } }),
          row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        ),
      ],
    },
    {
      method: 'PATCH',
      path: `${TICKETS_NS}/checkin/attendees/:id`,
      scenarios: [
        doorScenario("an attendee of author A's event", async (world) => {
          const attendee = await world.attendee((await sharedTicket(world)).ticket);
          return { request: { path: `${TICKETS_NS}/checkin/attendees/${attendee.id}`, body: { blocked: false } } };
        }),
      ],
    },
  ];
}

// ---------------------------------------------------------------- the table

const DOCS_PAGE = ['/docs', '/docs/', '/docs/index.html', '/docs/swagger-ui-init.js', '/docs/docs/swagger-ui-init.js', '/docs-json'];
/** @nestjs/swagger registers this path only to refuse it, so that the UI's license file is not served. */
const REFUSED_DOCS_FILE = '/docs/LICENSE';
const NO_ROUTE: Outcome = { status: 404, code: 'rest_no_route' };

// ---------------------------------------------------------------- exports and reports

/** A finished export of author A's, with its file and signed link. */
function sharedExport(world: World): Promise<{ id: number; token: string }> {
  return world.shared('author-export', async () => {
    const createdAt = new Date();
    const job = await world.dataSource.getRepository(ExportJob).save({
      kind: 'attendees',
      format: 'csv',
      status: 'done',
      userId: world.userId('author'),
      query: '{}',
      rowCount: 0,
      sizeBytes: 12,
      completedAt: createdAt,
      expiresAt: new Date(createdAt.getTime() + 3600_000),
      createdAt,
    });
    await world.dataSource.getRepository(ExportChunk).insert({ jobId: job.id, seq: 1, data: Buffer.from('Attendee ID\n') });
    const stored = await world.dataSource.getRepository(ExportJob).findOneByOrFail({ id: job.id });
    const secret = world.testApp.app.get<AppConfig>(appConfig.KEY).nonceSecret;
    return { id: job.id, token: downloadToken(secret, job.id, stored.createdAt) };
  });
}

const EXPORT_HIDDEN: Outcome = { status: 404, code: 'export-not-found' };

function exportRoutes(): RouteSpec[] {
  const streamed = (noun: 'attendees' | 'orders'): RouteSpec => ({
    method: 'GET',
    path: `${TICKETS_NS}/${noun}/export`,
    scenarios: [
      {
        name: `the ${noun} export shows author A's ${noun === 'attendees' ? 'attendee' : 'buyer'} to the event's managers only`,
        other: 'authorB',
        prepare: async (world, caller) => {
          const attendee = await sharedPrivateAttendee(world);
          const needle =
            noun === 'attendees' ? attendee.securityCode : `\n${await world.shared('buyer-a-order', () => buyerAOrder(world, true))},`;
          return {
            request: { path: `${TICKETS_NS}/${noun}/export` },
            verify: (response) => {
              const manages = ['administrator', 'editor', 'author'].includes(caller.principal);
              assert(
                response.text.includes(needle) === manages,
                `${caller.principal} ${manages ? 'does not see' : 'sees'} author A's ${noun === 'attendees' ? 'attendee' : 'order'}`,
              );
            },
          };
        },
        expect: row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, 200),
      },
    ],
  });
  const queued = (noun: 'attendees' | 'orders'): RouteSpec => ({
    method: 'POST',
    path: `${TICKETS_NS}/${noun}/export`,
    scenarios: [
      {
        name: `queue an export of the ${noun} the caller manages`,
        prepare: () => Promise.resolve({ request: { path: `${TICKETS_NS}/${noun}/export`, query: { format: 'csv' } } }),
        expect: row(ANONYMOUS, 202, 202, 202, FORBIDDEN, FORBIDDEN),
      },
    ],
  });
  return [
    streamed('attendees'),
    queued('attendees'),
    streamed('orders'),
    queued('orders'),
    {
      method: 'GET',
      path: `${TICKETS_NS}/exports/:id`,
      scenarios: [
        {
          name: "author A's export job",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${TICKETS_NS}/exports/${(await sharedExport(world)).id}` } }),
          expect: row(ANONYMOUS, EXPORT_HIDDEN, EXPORT_HIDDEN, 200, EXPORT_HIDDEN, EXPORT_HIDDEN, EXPORT_HIDDEN),
        },
      ],
    },
    {
      method: 'GET',
      path: `${TICKETS_NS}/exports/:id/download`,
      scenarios: [
        {
          name: "author A's export file, with the signed token of its link",
          prepare: async (world) => {
            const { id, token } = await sharedExport(world);
            return { request: { path: `${TICKETS_NS}/exports/${id}/download`, query: { token } } };
          },
          expect: PUBLIC,
        },
        {
          name: "author A's export file, with a wrong token",
          prepare: async (world) => ({
            request: { path: `${TICKETS_NS}/exports/${(await sharedExport(world)).id}/download`, query: { token: 'forged' } },
          }),
          expect: row(EXPORT_HIDDEN, EXPORT_HIDDEN, EXPORT_HIDDEN, EXPORT_HIDDEN, EXPORT_HIDDEN, EXPORT_HIDDEN),
        },
      ],
    },
    ...(['sales', 'summary'] as const).map((report): RouteSpec => ({
      method: 'GET',
      path: `${TICKETS_NS}/reports/${report}`,
      scenarios: [
        {
          name: `the ${report} report of author A's event`,
          other: 'authorB',
          prepare: async (world) => ({
            request: { path: `${TICKETS_NS}/reports/${report}`, query: { post_id: (await sharedTicket(world)).event.id } },
          }),
          expect: MANAGERS_ONLY,
        },
      ],
    })),
  ];
}

// ---------------------------------------------------------------- tec/v1 and the WordPress discovery routes

const TEC_NS = '/tec/v1';
const TEC_HEADERS = { 'X-TEC-EEA': TEC_ACKNOWLEDGEMENT };

function tecPostBody(kind: PostKind, title: string): Record<string, unknown> {
  return kind === 'events' ? { title, start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00' } : { title };
}

/** tec/v1's posts: the events namespace's rules (its services), so the same rows as postRoutes. */
function tecPostRoutes(kind: PostKind): RouteSpec[] {
  const base = `${TEC_NS}/${kind}`;
  const hidden: Outcome = { status: 403, code: `${SINGULAR[kind]}-not-accessible` };
  const write = (name: string, owner: UserKey, status: PostStatus, other: OtherIdentity, expect: Row, remove: boolean): Scenario => ({
    name,
    other,
    prepare: async (world) => {
      const post = await makePost(world, kind, owner, status);
      const title = uniqueName('Renamed');
      return {
        request: { path: `${base}/${post.id}`, headers: TEC_HEADERS, ...(remove ? {} : { body: { title } }) },
        verify: async () => {
          const saved = await reloadPost(world, kind, post.id);
          assert(
            remove ? saved?.status === 'trash' : saved?.title === title,
            remove ? 'the delete did not trash it' : 'the update was not saved',
          );
        },
      };
    },
    expect,
  });
  const writes = (remove: boolean) => [
    write("author A's published", 'author', 'publish', 'authorB', row(ANONYMOUS, 200, 200, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN), remove),
    write(
      "contributor C's draft",
      'contributor',
      'draft',
      'contributorB',
      row(ANONYMOUS, 200, 200, FORBIDDEN, 200, FORBIDDEN, FORBIDDEN),
      remove,
    ),
  ];
  const read = (name: string, status: PostStatus, expect: Row): Scenario => ({
    name,
    other: 'authorB',
    prepare: async (world) => ({
      request: {
        path: `${base}/${(await world.shared(`tec-${kind}-${status}`, () => makePost(world, kind, 'author', status))).id}`,
        headers: TEC_HEADERS,
      },
    }),
    expect,
  });
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists hide the author's draft from other callers",
          prepare: async (world, caller) => {
            const [published, draft] = await world.shared(`tec-list-${kind}`, () =>
              Promise.all([makePost(world, kind, 'author', 'publish'), makePost(world, kind, 'author', 'draft')]),
            );
            return {
              request: { path: base, query: { per_page: 100 }, headers: TEC_HEADERS },
              verify: (response) => {
                const listed = ids(response.body);
                assert(listed.includes(published.id), `the published ${SINGULAR[kind]} is missing from the list`);
                const seesDraft = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(
                  listed.includes(draft.id) === seesDraft,
                  `${caller.principal} ${seesDraft ? 'does not see' : 'sees'} the author's draft`,
                );
              },
            };
          },
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: 'create',
          prepare: () => Promise.resolve({ request: { path: base, body: tecPostBody(kind, uniqueName('Matrix')), headers: TEC_HEADERS } }),
          expect: row(ANONYMOUS, 201, 201, 201, 201, FORBIDDEN),
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      scenarios: [
        read("author A's published", 'publish', PUBLIC_OWNED),
        read("author A's draft", 'draft', row(hidden, 200, 200, 200, hidden, hidden, hidden)),
      ],
    },
    { method: 'PUT', path: `${base}/:id`, scenarios: writes(false) },
    { method: 'PATCH', path: `${base}/:id`, scenarios: writes(false) },
    { method: 'DELETE', path: `${base}/:id`, scenarios: writes(true) },
  ];
}

/** tec/v1's tickets: the tickets namespace's rules (who manages the event), without its nonces. */
function tecTicketRoutes(): RouteSpec[] {
  const base = `${TEC_NS}/tickets`;
  // The role is checked first (subscribers: rest_forbidden), then whether the caller manages the event.
  const managers = (ok: number) => row(ANONYMOUS, ok, ok, ok, TICKET_FORBIDDEN, FORBIDDEN, TICKET_FORBIDDEN);
  const write = (remove: boolean): Scenario => ({
    name: "ticket of author A's published event",
    other: 'authorB',
    prepare: async (world) => {
      const ticket = await world.ticket((await sharedTicket(world)).event);
      const name = uniqueName('Renamed ticket');
      return {
        request: { path: `${base}/${ticket.id}`, headers: TEC_HEADERS, ...(remove ? {} : { body: { title: name } }) },
        verify: async () => {
          const saved = await world.dataSource.getRepository(Ticket).findOneBy({ id: ticket.id });
          assert(remove ? saved === null : saved?.name === name, remove ? 'the ticket was not deleted' : 'the update was not saved');
        },
      };
    },
    expect: managers(200),
  });
  return [
    {
      method: 'GET',
      path: base,
      scenarios: [
        {
          name: "lists hide tickets of the author's draft event from other callers",
          prepare: async (world, caller) => {
            const [published, draft] = await Promise.all([sharedTicket(world), sharedDraftTicket(world)]);
            return {
              request: { path: base, query: { per_page: 100, include: `${published.ticket.id},${draft.ticket.id}` }, headers: TEC_HEADERS },
              verify: (response) => {
                const listed = ids(response.body);
                assert(listed.includes(published.ticket.id), 'the published ticket is missing');
                const seesDraft = ['administrator', 'editor', 'author'].includes(caller.principal);
                assert(
                  listed.includes(draft.ticket.id) === seesDraft,
                  `${caller.principal} ${seesDraft ? 'does not see' : 'sees'} the draft event's ticket`,
                );
              },
            };
          },
          expect: PUBLIC,
        },
      ],
    },
    {
      method: 'POST',
      path: base,
      scenarios: [
        {
          name: "ticket for author A's published event",
          other: 'authorB',
          prepare: async (world) => ({
            request: {
              path: base,
              body: { title: uniqueName('Matrix ticket'), event: (await sharedTicket(world)).event.id, price: 5 },
              headers: TEC_HEADERS,
            },
          }),
          expect: managers(201),
        },
      ],
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      scenarios: [
        {
          name: "ticket of author A's published event",
          other: 'authorB',
          prepare: async (world) => ({ request: { path: `${base}/${(await sharedTicket(world)).ticket.id}`, headers: TEC_HEADERS } }),
          expect: PUBLIC_OWNED,
        },
      ],
    },
    { method: 'PUT', path: `${base}/:id`, scenarios: [write(false)] },
    { method: 'PATCH', path: `${base}/:id`, scenarios: [write(false)] },
    { method: 'DELETE', path: `${base}/:id`, scenarios: [write(true)] },
  ];
}

function tecRoutes(): RouteSpec[] {
  return [
    { method: 'GET', path: TEC_NS, scenarios: [get(TEC_NS)] },
    { method: 'GET', path: `${TEC_NS}/docs`, scenarios: [get(`${TEC_NS}/docs`)] },
    ...tecPostRoutes('events'),
    ...tecPostRoutes('venues'),
    ...tecPostRoutes('organizers'),
    ...tecTicketRoutes(),
    {
      method: 'GET',
      path: '/wp/v2/users/me',
      scenarios: [
        {
          name: 'the signed-in user',
          prepare: () => Promise.resolve({ request: { path: '/wp/v2/users/me' } }),
          expect: row(ANONYMOUS, 200, 200, 200, 200, 200),
        },
      ],
    },
    {
      method: 'GET',
      path: '/wp/v2/settings',
      scenarios: [
        {
          name: 'site settings: administrators only',
          prepare: () => Promise.resolve({ request: { path: '/wp/v2/settings' } }),
          expect: row(ANONYMOUS, 200, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN),
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- API tokens (cal/auth/v1)

const AUTH_NS = '/cal/auth/v1';
/** Another user's token does not exist for a non-administrator: ids cannot be probed. */
const TOKEN_HIDDEN: Outcome = { status: 404, code: 'token-not-found' };

/** A fresh token of author A, made by the administrator through the route. */
async function authorsToken(world: World): Promise<number> {
  const response = await world.send(
    'POST',
    { path: `${AUTH_NS}/tokens`, body: { name: uniqueName('Matrix token'), scopes: ['events:read'], owner: world.userId('author') } },
    world.caller('administrator'),
  );
  assert(response.status === 201, `token creation failed: ${response.status}`);
  return (response.body as { id: number }).id;
}

function tokenRoutes(): RouteSpec[] {
  const onAuthorsToken = (method: Method, suffix: string): RouteSpec => ({
    method,
    path: `${AUTH_NS}/tokens/:id${suffix}`,
    scenarios: [
      {
        name: "author A's token",
        other: 'authorB',
        prepare: async (world) => ({ request: { path: `${AUTH_NS}/tokens/${await authorsToken(world)}${suffix}` } }),
        expect: row(ANONYMOUS, 200, TOKEN_HIDDEN, 200, TOKEN_HIDDEN, TOKEN_HIDDEN, TOKEN_HIDDEN),
      },
    ],
  });
  return [
    { method: 'GET', path: AUTH_NS, scenarios: [get(AUTH_NS)] },
    { method: 'GET', path: `${AUTH_NS}/doc`, scenarios: [get(`${AUTH_NS}/doc`)] },
    {
      method: 'GET',
      path: `${AUTH_NS}/tokens`,
      scenarios: [
        {
          name: 'own tokens (every token for administrators)',
          prepare: () => Promise.resolve({ request: { path: `${AUTH_NS}/tokens` } }),
          expect: row(ANONYMOUS, 200, 200, 200, 200, 200),
        },
      ],
    },
    {
      method: 'POST',
      path: `${AUTH_NS}/tokens`,
      scenarios: [
        {
          name: 'a token of one’s own',
          prepare: () =>
            Promise.resolve({ request: { path: `${AUTH_NS}/tokens`, body: { name: uniqueName('Own token'), scopes: ['events:read'] } } }),
          expect: row(ANONYMOUS, 201, 201, 201, 201, 201),
        },
      ],
    },
    onAuthorsToken('GET', ''),
    onAuthorsToken('POST', '/revoke'),
    onAuthorsToken('DELETE', ''),
  ];
}

export const ROUTE_TABLE: RouteSpec[] = [
  // The API root index, namespace indexes and OpenAPI documents, the documentation page, operations: public.
  { method: 'GET', path: '/', scenarios: [get('/')] },
  { method: 'GET', path: EVENTS_NS, scenarios: [get(EVENTS_NS)] },
  { method: 'GET', path: `${EVENTS_NS}/doc`, scenarios: [get(`${EVENTS_NS}/doc`)] },
  { method: 'GET', path: TICKETS_NS, scenarios: [get(TICKETS_NS)] },
  { method: 'GET', path: `${TICKETS_NS}/doc`, scenarios: [get(`${TICKETS_NS}/doc`)] },
  ...tokenRoutes(),
  ...tecRoutes(),
  ...DOCS_PAGE.map((path): RouteSpec => ({ method: 'GET', path, scenarios: [get(path)] })),
  {
    method: 'GET',
    path: REFUSED_DOCS_FILE,
    scenarios: [
      { ...get(REFUSED_DOCS_FILE), name: 'refused to everyone', expect: row(NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE, NO_ROUTE) },
    ],
  },
  ...['/health', '/health/ready', '/health/live', '/metrics'].map((path): RouteSpec => ({ method: 'GET', path, scenarios: [get(path)] })),
  // The MCP endpoint (src/mcp): open to every caller, who see the tools their role allows (test/mcp.e2e-spec.ts checks which).
  ...['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'].map((path): RouteSpec => ({
    method: 'GET',
    path,
    scenarios: [get(path)],
  })),
  {
    method: 'POST',
    path: '/mcp',
    scenarios: [
      {
        name: 'tools/list: the tools the caller may use',
        prepare: () =>
          Promise.resolve({
            request: {
              path: '/mcp',
              headers: { Accept: 'application/json, text/event-stream' },
              body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
            },
            verify: (response) => assert(Array.isArray(response.body?.result?.tools), 'no tools listed'),
          }),
        expect: PUBLIC,
      },
    ],
  },
  {
    method: 'GET',
    path: '/mcp',
    scenarios: [
      {
        name: 'stateless: no stream to open',
        prepare: () => Promise.resolve({ request: { path: '/mcp', headers: { Accept: 'text/event-stream' } } }),
        expect: row(MCP_NO_STREAM, MCP_NO_STREAM, MCP_NO_STREAM, MCP_NO_STREAM, MCP_NO_STREAM, MCP_NO_STREAM),
      },
    ],
  },
  {
    method: 'GET',
    path: `${TICKETS_NS}/nonces`,
    scenarios: [
      {
        name: "the caller's own nonces",
        prepare: (world, caller) =>
          Promise.resolve({
            request: { path: `${TICKETS_NS}/nonces` },
            verify: (response) => {
              const nonces = world.testApp.app.get(NonceService);
              for (const action of NONCE_ACTIONS)
                assert(nonces.verify(response.body[action], action, caller.user!.id), `${action} is not the caller's`);
            },
          }),
        expect: row(ANONYMOUS, 200, 200, 200, 200, 200),
      },
    ],
  },
  ...postRoutes('events'),
  { method: 'GET', path: `${EVENTS_NS}/events/ics`, scenarios: [icsFeed] },
  { method: 'GET', path: `${EVENTS_NS}/events/:id/ics`, scenarios: readPost('events', false, '/ics') },
  { method: 'GET', path: `${EVENTS_NS}/series/:id/ics`, scenarios: seriesIcs },
  ...postRoutes('venues'),
  ...postRoutes('organizers'),
  ...termRoutes('categories'),
  ...termRoutes('tags'),
  ...ticketRoutes(),
  ...attendeeRoutes(),
  ...cartRoutes(),
  ...orderRoutes(),
  ...waitlistRoutes(),
  ...queueRoutes(),
  ...resendRoutes(),
  ...couponRoutes(),
  ...attendeeInformationRoutes(),
  ...webhookRoutes(),
  ...checkinRoutes(),
  ...exportRoutes(),
  {
    method: 'POST',
    path: `${TICKETS_NS}/payments/:provider/webhook`,
    scenarios: [
      {
        // Credentials grant nothing here: only the provider's signature does (test/payments.e2e-spec.ts and
        // test/payments-paypal.e2e-spec.ts, with the provider configured).
        name: 'Stripe webhook without Stripe configured: refused alike for everyone',
        other: 'subscriberB',
        prepare: () =>
          Promise.resolve({
            request: { path: `${TICKETS_NS}/payments/stripe/webhook`, body: { id: 'evt_1', type: 'payment_intent.succeeded' } },
          }),
        expect: (() => {
          const refused: Outcome = { status: 400, code: 'payment-provider-not-configured' };
          return row(refused, refused, refused, refused, refused, refused, refused);
        })(),
      },
      {
        name: 'PayPal webhook without PayPal configured: refused alike for everyone',
        other: 'subscriberB',
        prepare: () =>
          Promise.resolve({
            request: { path: `${TICKETS_NS}/payments/paypal/webhook`, body: { id: 'WH-1', event_type: 'CHECKOUT.ORDER.APPROVED' } },
          }),
        expect: (() => {
          const refused: Outcome = { status: 400, code: 'payment-provider-not-configured' };
          return row(refused, refused, refused, refused, refused, refused, refused);
        })(),
      },
      {
        name: 'a provider nobody registered: 404 for everyone',
        other: 'subscriberB',
        prepare: () => Promise.resolve({ request: { path: `${TICKETS_NS}/payments/braintree/webhook`, body: { id: 'x' } } }),
        expect: (() => {
          const unknown: Outcome = { status: 404, code: 'rest_no_route' };
          return row(unknown, unknown, unknown, unknown, unknown, unknown, unknown);
        })(),
      },
    ],
  },
];

export function routeKey(route: Pick<RouteSpec, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
