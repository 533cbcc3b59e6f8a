import { CountCache } from '../src/catalogue/caching/count-cache';
import { recordedExchange } from './helpers/recorded';
import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { CLOCK, Clock } from '../src/common/clock';
import type { Event } from '../src/events/event.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { clearTicketing, insertAttendeeRow, insertTicketRow } from './helpers/attendee-fixtures';
import { insertEvent } from './helpers/fixtures';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

// Post dates are shown in the site zone and sale dates in the event's zone: both differ from UTC.
process.env.SITE_TIMEZONE = 'America/New_York';

function recorded(file: string): Record<string, any> {
  return recordedExchange(file).body;
}

const PUBLIC_KEYS = Object.keys(recorded('41-attendees-list-anon.json').attendees[0]);
const RECORDED_MANAGER_TC = Object.keys(recorded('40-attendees-list-auth.json').attendees[1]);
const RECORDED_MANAGER_RSVP = Object.keys(recorded('40-attendees-list-auth.json').attendees[0]);
/** The recorded manager keys plus our security_code, which goes right after is_purchaser. */
const withSecurityCode = (keys: string[]) => {
  const at = keys.indexOf('is_purchaser') + 1;
  // The check-in secret and its revocation (src/checkin/) follow the security code.
  return [...keys.slice(0, at), 'security_code', 'checkin_secret', 'checkin_secret_revoked', ...keys.slice(at)];
};
const MANAGER_ONLY_KEYS = [
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
  'rsvp_going',
  'payment',
];

describe('Attendees (e2e)', () => {
  let testApp: TestApp;
  let nowMs = Date.parse('2026-12-01T09:00:05Z');
  const clock: Clock = { now: () => new Date(nowMs) };
  let admin: TestUser;
  let editor: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let contributor: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    admin = {
      id: 1,
      login: ADMIN.login,
      role: 'administrator',
      password: ADMIN.password,
      authorization: basicAuth(ADMIN.login, ADMIN.password),
    };
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    contributor = await createUser(testApp, 'contributor');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);
  const base = '/cal/tickets/v1/attendees';
  const as = (user: TestUser | null) => (user ? { Authorization: user.authorization } : {});
  const list = (query: string, user: TestUser | null = null) => http().get(`${base}${query}`).set(as(user));
  const idsOf = (body: { attendees: Array<{ id: number }> }) => body.attendees.map((attendee) => attendee.id);
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  /**
   * Event A (author's, shows its list): tcA (paid, collects attendee information) and rsvpA.
   * Event B (other author's): tcB. Hidden (author's, list not shown) and Draft (author's, draft).
   */
  describe('lists and reads', () => {
    let eventA: Event;
    let eventB: Event;
    let eventHidden: Event;
    let eventDraft: Event;
    let tcA: Ticket;
    let rsvpA: Ticket;
    let tcB: Ticket;
    let tcHidden: Ticket;
    let tcDraft: Ticket;
    const a: Record<string, Attendee> = {};
    let all: number[];
    let publicIds: number[];

    const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12, 0, 0));

    beforeAll(async () => {
      await clearTicketing(testApp.dataSource);
      const ds = testApp.dataSource;
      eventA = await insertEvent(ds, { authorId: author.id, timezone: 'Europe/Paris', showAttendeeList: true });
      eventB = await insertEvent(ds, { authorId: otherAuthor.id, showAttendeeList: true });
      eventHidden = await insertEvent(ds, { authorId: author.id, showAttendeeList: false });
      eventDraft = await insertEvent(ds, { authorId: author.id, status: 'draft', showAttendeeList: true });
      tcA = await insertTicketRow(ds, eventA, {
        provider: 'tc',
        price: '25.00',
        name: 'General Admission',
        iac: 'optional',
        attendeeInformationFields: JSON.stringify([
          { type: 'text', label: 'Company', slug: 'company', required: false, options: [], description: '' },
        ]),
        sku: 'GA-1',
        saleStartUtc: new Date('2026-10-31T23:30:00Z'),
        saleEndUtc: new Date('2027-01-15T09:00:00Z'),
      });
      rsvpA = await insertTicketRow(ds, eventA, { provider: 'rsvp', name: 'Free RSVP' });
      tcB = await insertTicketRow(ds, eventB, { provider: 'tc', price: '10.50' });
      tcHidden = await insertTicketRow(ds, eventHidden, { provider: 'tc', price: '25.00' });
      tcDraft = await insertTicketRow(ds, eventDraft, { provider: 'tc', price: '25.00' });

      a.turing = await insertAttendeeRow(ds, tcA, {
        name: 'Alan Turing',
        email: 'alan@example.com',
        createdAt: day(1),
        userId: subscriber.id,
      });
      a.pending = await insertAttendeeRow(ds, tcA, { name: 'Grace Hopper', orderStatus: 'pending', createdAt: day(2) });
      a.optedOut = await insertAttendeeRow(ds, tcA, { name: 'Quiet Person', optout: true, createdAt: day(3) });
      a.lovelace = await insertAttendeeRow(ds, rsvpA, { name: 'Ada Lovelace', email: 'ada@example.com', createdAt: day(4) });
      a.notGoing = await insertAttendeeRow(ds, rsvpA, { name: 'Busy Bee', orderStatus: 'no', createdAt: day(5) });
      a.refunded = await insertAttendeeRow(ds, tcA, { name: 'Refunded Rita', orderStatus: 'refunded', createdAt: day(6) });
      a.privateStatus = await insertAttendeeRow(ds, tcA, { name: 'Private Pat', status: 'private', createdAt: day(7) });
      a.bravo = await insertAttendeeRow(ds, tcB, { name: 'Bravo Buyer', createdAt: day(8) });
      a.cancelled = await insertAttendeeRow(ds, tcB, { name: 'Cancelled Carl', orderStatus: 'cancelled', createdAt: day(9) });
      a.hidden = await insertAttendeeRow(ds, tcHidden, { name: 'Hidden Hal', checkedIn: true, createdAt: day(10) });
      a.draft = await insertAttendeeRow(ds, tcDraft, { name: 'Draft Dora', createdAt: day(11) });
      all = Object.values(a).map((attendee) => attendee.id);
      publicIds = [a.turing.id, a.lovelace.id, a.bravo.id];
    });

    describe('visibility', () => {
      it('shows anonymous callers only public attendees with public fields, in the recorded shape', async () => {
        const response = await list('').expect(200);
        expect(idsOf(response.body)).toEqual(publicIds);
        expect(Object.keys(response.body)).toEqual(['rest_url', 'total', 'total_pages', 'attendees']);
        expect(response.body.rest_url).toMatch(/\/cal\/tickets\/v1\/attendees\/$/);
        expect(response.body.total).toBe(3);
        expect(response.body.total_pages).toBe(1);
        expect(response.headers['x-et-total']).toBe('3');
        expect(response.headers['x-et-total-pages']).toBe('1');
        for (const attendee of response.body.attendees) expect(Object.keys(attendee)).toEqual(PUBLIC_KEYS);
        const turing = response.body.attendees[0];
        expect(turing).toMatchObject({
          id: a.turing.id,
          post_id: eventA.id,
          ticket_id: tcA.id,
          global_id: `127.0.0.1?type=attendee&id=${a.turing.id}`,
          global_id_lineage: [`127.0.0.1?type=attendee&id=${a.turing.id}`],
          author: String(subscriber.id),
          status: 'publish',
          date: '2026-11-01 07:00:00',
          date_utc: '2026-11-01 12:00:00',
          title: 'Alan Turing',
          optout: false,
          ticket: {
            id: tcA.id,
            title: 'General Admission',
            description: 'Ticket desc',
            raw_price: '25',
            formatted_price: '25.00',
            currency_config: { symbol: '$', placement: 'prefix', decimal_point: '.', thousands_sep: ',', number_of_decimals: 2 },
            start_sale: '2026-11-01',
            end_sale: '2027-01-15',
          },
        });
        expect(turing.rest_url).toMatch(new RegExp(`/cal/tickets/v1/attendees/${a.turing.id}$`));
      });

      it('never sends security codes or emails to anonymous callers, subscribers or contributors', async () => {
        for (const user of [null, subscriber, contributor]) {
          const response = await list('?per_page=100', user).expect(200);
          expect(idsOf(response.body)).toEqual(publicIds);
          const text = JSON.stringify(response.body);
          for (const attendee of Object.values(a)) {
            expect(text).not.toContain(attendee.securityCode);
            expect(text).not.toContain(attendee.holderEmail);
          }
          for (const attendee of response.body.attendees) for (const key of MANAGER_ONLY_KEYS) expect(attendee).not.toHaveProperty(key);
        }
      });

      it('shows editors and administrators every attendee with manager fields in the recorded order', async () => {
        for (const user of [editor, admin]) {
          const response = await list('', user).expect(200);
          expect(idsOf(response.body)).toEqual(all);
          const byId = new Map(response.body.attendees.map((attendee: any) => [attendee.id, attendee]));
          expect(Object.keys(byId.get(a.turing.id) as object)).toEqual(withSecurityCode(RECORDED_MANAGER_TC));
          expect(Object.keys(byId.get(a.lovelace.id) as object)).toEqual(withSecurityCode(RECORDED_MANAGER_RSVP));
        }
        const response = await list(`?include=${a.turing.id},${a.lovelace.id},${a.optedOut.id}&orderby=include`, editor).expect(200);
        const [turing, lovelace, optedOut] = response.body.attendees;
        expect(turing).toMatchObject({
          provider: 'tc',
          order: a.turing.orderId,
          sku: 'GA-1',
          email: 'alan@example.com',
          checked_in: false,
          checkin_details: false,
          is_subscribed: false,
          is_purchaser: true,
          security_code: a.turing.securityCode,
          payment: {
            provider: 'tc',
            price: '25',
            currency: '$',
            date: '2026-11-01 07:00:00',
            date_details: { year: '2026', month: '11', day: '01', hour: '07', minutes: '00', seconds: '00' },
          },
        });
        expect(lovelace).toMatchObject({ provider: 'rsvp', rsvp_going: true, security_code: a.lovelace.securityCode });
        expect(lovelace).not.toHaveProperty('payment');
        // Opting out hides the name from the public, not from the event's managers.
        expect(optedOut).toMatchObject({ title: 'Quiet Person', optout: true });
      });

      it("shows an author every attendee of their own events with manager fields, and only public ones of others' events", async () => {
        const response = await list('', author).expect(200);
        const own = [a.turing, a.pending, a.optedOut, a.lovelace, a.notGoing, a.refunded, a.privateStatus, a.hidden, a.draft].map(
          (attendee) => attendee.id,
        );
        expect(sorted(idsOf(response.body))).toEqual(sorted([...own, a.bravo.id]));
        for (const attendee of response.body.attendees) {
          if (attendee.id === a.bravo.id) {
            expect(Object.keys(attendee)).toEqual(PUBLIC_KEYS);
          } else {
            expect(attendee.security_code).toEqual(expect.any(String));
          }
        }
      });

      it("keeps another author's attendees away from an author (BOLA)", async () => {
        const response = await list('?per_page=100', otherAuthor).expect(200);
        expect(sorted(idsOf(response.body))).toEqual(sorted([a.turing.id, a.lovelace.id, a.bravo.id, a.cancelled.id]));
        const text = JSON.stringify(response.body.attendees.filter((attendee: any) => attendee.post_id === eventA.id));
        expect(text).not.toContain(a.turing.securityCode);
        expect(text).not.toContain('alan@example.com');
        for (const attendee of response.body.attendees) {
          if (attendee.post_id === eventB.id) expect(attendee.security_code).toEqual(expect.any(String));
          else expect(Object.keys(attendee)).toEqual(PUBLIC_KEYS);
        }
        await http().get(`${base}/${a.pending.id}`).set(as(otherAuthor)).expect(401);
        const filtered = await list(`?post_id=${eventA.id}&order_status=private`, otherAuthor).expect(200);
        expect(filtered.body.total).toBe(0);
      });
    });

    describe('single attendee', () => {
      it('shows a public attendee to anyone, with public fields', async () => {
        const response = await http().get(`${base}/${a.turing.id}`).expect(200);
        expect(Object.keys(response.body)).toEqual(PUBLIC_KEYS);
        expect(response.body.id).toBe(a.turing.id);
        const signedIn = await http().get(`${base}/${a.bravo.id}`).set(as(author)).expect(200);
        expect(Object.keys(signedIn.body)).toEqual(PUBLIC_KEYS);
      });

      it('shows managers any attendee of their events with every field', async () => {
        for (const [user, attendee] of [
          [author, a.pending],
          [author, a.hidden],
          [author, a.draft],
          [editor, a.cancelled],
          [otherAuthor, a.cancelled],
        ] as const) {
          const response = await http().get(`${base}/${attendee.id}`).set(as(user)).expect(200);
          expect(response.body.security_code).toBe(attendee.securityCode);
          expect(response.body.email).toBe(attendee.holderEmail);
        }
      });

      it('returns 401 attendee-not-accessible for attendees that are not public to non-managers', async () => {
        for (const attendee of [a.pending, a.optedOut, a.notGoing, a.refunded, a.privateStatus, a.hidden, a.draft, a.cancelled]) {
          for (const user of [null, subscriber]) {
            const response = await http().get(`${base}/${attendee.id}`).set(as(user)).expect(401);
            expect(response.body).toEqual({
              code: 'attendee-not-accessible',
              message: 'The requested attendee is not accessible.',
              data: { status: 401 },
            });
          }
        }
        await http().get(`${base}/${a.draft.id}`).set(as(otherAuthor)).expect(401);
      });

      it('returns 404 attendee-not-found for an unknown id and rest_no_route for a non-numeric one', async () => {
        const response = await http().get(`${base}/999999`).expect(404);
        expect(response.body).toEqual({
          code: 'attendee-not-found',
          message: 'The requested attendee does not exist.',
          data: { status: 404 },
        });
        await http().get(`${base}/999999`).set(as(editor)).expect(404);
        const noRoute = await http().get(`${base}/abc`).expect(404);
        expect(noRoute.body.code).toBe('rest_no_route');
        await http().get(`${base}/99999999999999999999`).expect(404);
      });

      it('rejects wrong credentials with 401 incorrect_password', async () => {
        const response = await http()
          .get(`${base}/${a.turing.id}`)
          .set('Authorization', basicAuth(editor.login, 'wrong password'))
          .expect(401);
        expect(response.body.code).toBe('incorrect_password');
      });
    });

    describe('filters', () => {
      const editorIds = async (query: string) => idsOf((await list(query, editor).expect(200)).body);

      it('filters by provider, with aliases, dropping unknown providers', async () => {
        expect(await editorIds('?provider=rsvp')).toEqual([a.lovelace.id, a.notGoing.id]);
        const paid = all.filter((id) => id !== a.lovelace.id && id !== a.notGoing.id);
        expect(await editorIds('?provider=tc')).toEqual(paid);
        expect(await editorIds('?provider=tribe-commerce')).toEqual(paid);
        expect(await editorIds('?provider[]=tpp')).toEqual(paid);
        expect(await editorIds('?provider=rsvp,bogus')).toEqual([a.lovelace.id, a.notGoing.id]);
        expect(await editorIds('?provider=bogus')).toEqual([]);
        expect(await editorIds('?provider=rsvp&provider=tc')).toEqual(all);
        expect(await editorIds('?provider=')).toEqual(all);
      });

      it('searches holder names for everyone, emails and security codes for managers only', async () => {
        expect(await editorIds('?search=turing')).toEqual([a.turing.id]);
        expect(idsOf((await list('?search=ALAN').expect(200)).body)).toEqual([a.turing.id]);
        expect(await editorIds('?search=ada@example')).toEqual([a.lovelace.id]);
        expect(await editorIds(`?search=${a.bravo.securityCode}`)).toEqual([a.bravo.id]);
        expect(idsOf((await list('?search=alan@example.com').expect(200)).body)).toEqual([]);
        expect(idsOf((await list(`?search=${a.turing.securityCode}`, subscriber).expect(200)).body)).toEqual([]);
        expect(idsOf((await list(`?search=${a.turing.securityCode}`, otherAuthor).expect(200)).body)).toEqual([]);
        expect(await editorIds('?search=nobody-by-that-name')).toEqual([]);
        expect(await editorIds('?search=%25')).toEqual([]);
        expect(await editorIds('?search=_')).toEqual([]);
        expect(await editorIds('?search=')).toEqual(all);
      });

      it('filters by event: post_id, include_post (which wins) and exclude_post', async () => {
        const ofA = [a.turing, a.pending, a.optedOut, a.lovelace, a.notGoing, a.refunded, a.privateStatus].map((attendee) => attendee.id);
        expect(await editorIds(`?post_id=${eventA.id}`)).toEqual(ofA);
        expect(await editorIds(`?include_post=${eventB.id},${eventHidden.id}`)).toEqual([a.bravo.id, a.cancelled.id, a.hidden.id]);
        expect(await editorIds(`?post_id=${eventA.id}&include_post=${eventB.id}`)).toEqual([a.bravo.id, a.cancelled.id]);
        expect(await editorIds(`?exclude_post=${eventA.id}&exclude_post=${eventB.id}`)).toEqual([a.hidden.id, a.draft.id]);
        expect(idsOf((await list(`?post_id=${eventHidden.id}`).expect(200)).body)).toEqual([]);
        expect(await editorIds(`?include_post=&post_id=${eventB.id}`)).toEqual([a.bravo.id, a.cancelled.id]);
      });

      it('filters by ticket: ticket_id, include_ticket (which wins) and exclude_ticket', async () => {
        expect(await editorIds(`?ticket_id=${rsvpA.id}`)).toEqual([a.lovelace.id, a.notGoing.id]);
        expect(await editorIds(`?include_ticket=${tcB.id},${tcDraft.id}`)).toEqual([a.bravo.id, a.cancelled.id, a.draft.id]);
        expect(await editorIds(`?ticket_id=${rsvpA.id}&include_ticket=${tcHidden.id}`)).toEqual([a.hidden.id]);
        expect(await editorIds(`?exclude_ticket=${tcA.id},${rsvpA.id}`)).toEqual([a.bravo.id, a.cancelled.id, a.hidden.id, a.draft.id]);
      });

      it.each([
        ['post_id', '999999'],
        ['include_post', '999999'],
        ['exclude_post', '999999'],
        ['ticket_id', '999999'],
        ['include_ticket', '999999'],
        ['exclude_ticket', '999999'],
      ])('returns 400 rest_invalid_param naming %s for ids that refer to nothing', async (field, value) => {
        const response = await list(`?${field}=${value}`).expect(400);
        expect(response.body.code).toBe('rest_invalid_param');
        expect(Object.keys(response.body.data.params)).toEqual([field]);
        expect(response.body.data.status).toBe(400);
      });

      it('returns 400 naming the field when one id of a list refers to nothing', async () => {
        const response = await list(`?include_post=${eventA.id},999999`).expect(400);
        expect(Object.keys(response.body.data.params)).toEqual(['include_post']);
        const tickets = await list(`?include_ticket=${tcA.id},999998`).expect(400);
        expect(Object.keys(tickets.body.data.params)).toEqual(['include_ticket']);
      });

      it('filters by creation date with after and before (UTC dates or timestamps)', async () => {
        expect(await editorIds('?after=2026-11-10')).toEqual([a.hidden.id, a.draft.id]);
        expect(await editorIds('?before=2026-11-02')).toEqual([a.turing.id, a.pending.id]);
        expect(await editorIds('?before=2026-11-02 11:59:59')).toEqual([a.turing.id]);
        expect(await editorIds('?after=2026-11-03T12:00:00Z&before=2026-11-04 12:00:00')).toEqual([a.optedOut.id, a.lovelace.id]);
        const timestamp = Date.UTC(2026, 10, 11, 0, 0, 0) / 1000;
        expect(await editorIds(`?after=${timestamp}`)).toEqual([a.draft.id]);
        expect(await editorIds('?after=2030-01-01')).toEqual([]);
      });

      it('filters by attendee ids with include and exclude', async () => {
        expect(await editorIds(`?include=${a.bravo.id},${a.turing.id}`)).toEqual([a.turing.id, a.bravo.id]);
        expect(await editorIds(`?include[]=${a.bravo.id}&include[]=${a.turing.id}&orderby=include`)).toEqual([a.bravo.id, a.turing.id]);
        expect(await editorIds(`?exclude=${a.turing.id}`)).toEqual(all.filter((id) => id !== a.turing.id));
        expect(await editorIds('?include=999999')).toEqual([]);
        expect(idsOf((await list(`?include=${a.pending.id},${a.turing.id}`).expect(200)).body)).toEqual([a.turing.id]);
      });

      it('filters on the price actually paid, with exact decimals', async () => {
        const rsvp = [a.lovelace.id, a.notGoing.id];
        const atTen50 = [a.bravo.id, a.cancelled.id];
        const atTwentyFive = all.filter((id) => !rsvp.includes(id) && !atTen50.includes(id));
        expect(await editorIds('?price_min=20')).toEqual(atTwentyFive);
        expect(await editorIds('?price_max=10.50')).toEqual(all.filter((id) => rsvp.includes(id) || atTen50.includes(id)));
        expect(await editorIds('?price_max=10.49')).toEqual(rsvp);
        expect(await editorIds('?price_min=10.51&price_max=25')).toEqual(atTwentyFive);
        expect(await editorIds('?price_min=10.5&price_max=10.5')).toEqual(atTen50);
        expect(await editorIds('?price_min=0.01&price_max=0.02')).toEqual([]);
        expect(await editorIds('?price_max=0')).toEqual(rsvp);
      });

      it('filters by event status and attendee status', async () => {
        expect(await editorIds('?post_status=draft')).toEqual([a.draft.id]);
        expect(await editorIds('?post_status=publish,draft')).toEqual(all);
        expect(await editorIds('?post_status=any')).toEqual(all);
        expect(idsOf((await list('?post_status=draft').expect(200)).body)).toEqual([]);
        expect(await editorIds('?status=private')).toEqual([a.privateStatus.id]);
        expect(await editorIds('?status=publish')).toEqual(all.filter((id) => id !== a.privateStatus.id));
        expect(idsOf((await list('?status=private', subscriber).expect(200)).body)).toEqual([]);
      });

      it('filters by order status, raw and grouped', async () => {
        expect(await editorIds('?order_status=pending')).toEqual([a.pending.id]);
        expect(await editorIds('?order_status=refunded,cancelled')).toEqual([a.refunded.id, a.cancelled.id]);
        const done = [a.turing, a.optedOut, a.lovelace, a.privateStatus, a.bravo, a.hidden, a.draft].map((attendee) => attendee.id);
        expect(await editorIds('?order_status=public')).toEqual(done);
        expect(await editorIds('?order_status=private')).toEqual(all.filter((id) => !done.includes(id)));
        expect(await editorIds('?order_status=no')).toEqual([a.notGoing.id]);
        expect(await editorIds('?order_status=any')).toEqual(all);
        expect(await editorIds('?order_status=public,pending')).toEqual([...done, a.pending.id].sort((x, y) => x - y));
        expect(idsOf((await list('?order_status=private').expect(200)).body)).toEqual([]);
        expect(idsOf((await list('?order_status=any').expect(200)).body)).toEqual(publicIds);
      });

      it('filters by check-in', async () => {
        expect(await editorIds('?checkedin=true')).toEqual([a.hidden.id]);
        expect(await editorIds('?checkedin=1')).toEqual([a.hidden.id]);
        expect(await editorIds('?checkedin=false')).toEqual(all.filter((id) => id !== a.hidden.id));
      });

      it('filters RSVP attendees by their answer and lets other attendees pass', async () => {
        const paid = all.filter((id) => id !== a.lovelace.id && id !== a.notGoing.id);
        expect(await editorIds('?rsvp_going_status=yes')).toEqual(all.filter((id) => id !== a.notGoing.id));
        expect(await editorIds('?rsvp_going_status=no')).toEqual(all.filter((id) => id !== a.lovelace.id));
        expect(await editorIds('?rsvp_going_status=yes,no')).toEqual(all);
        expect(await editorIds('?provider=rsvp&rsvp_going_status=no')).toEqual([a.notGoing.id]);
        expect(paid.length).toBe(9);
        expect(idsOf((await list('?rsvp_going_status=no').expect(200)).body)).toEqual([a.turing.id, a.bravo.id]);
      });

      it('filters by whether the ticket collects attendee information', async () => {
        const ofTcA = [a.turing, a.pending, a.optedOut, a.refunded, a.privateStatus].map((attendee) => attendee.id);
        expect(await editorIds('?attendee_information_available=true')).toEqual(ofTcA);
        expect(await editorIds('?attendee_information_available=false')).toEqual(all.filter((id) => !ofTcA.includes(id)));
      });

      it('orders by id, date, title and include, ascending or descending', async () => {
        expect(await editorIds('?order=DESC')).toEqual([...all].reverse());
        expect(await editorIds('?order=desc&orderby=date')).toEqual([...all].reverse());
        expect(await editorIds('?orderby=slug')).toEqual(all);
        const byName = Object.values(a)
          .sort((x, y) => x.holderName.localeCompare(y.holderName))
          .map((attendee) => attendee.id);
        expect(await editorIds('?orderby=title')).toEqual(byName);
        expect(await editorIds('?orderby=title&order=DESC')).toEqual([...byName].reverse());
        expect(await editorIds(`?orderby=include&include=${a.draft.id},${a.turing.id},${a.bravo.id}&order=DESC`)).toEqual([
          a.bravo.id,
          a.turing.id,
          a.draft.id,
        ]);
        expect(await editorIds('?orderby=include')).toEqual(all);
      });

      it('echoes the recognised parameters in rest_url', async () => {
        const response = await list(`?per_page=2&page=2&provider=tc&include_post=${eventA.id}&unknown=1`, editor).expect(200);
        const url = new URL(response.body.rest_url);
        expect(url.pathname).toBe('/cal/tickets/v1/attendees/');
        expect([...url.searchParams.entries()]).toEqual([
          ['page', '2'],
          ['per_page', '2'],
          ['provider', 'tc'],
          ['include_post', String(eventA.id)],
        ]);
      });
    });

    describe('paging', () => {
      it('pages with per_page and page, totals in the body and the headers', async () => {
        const first = await list('?per_page=4', editor).expect(200);
        expect(idsOf(first.body)).toEqual(all.slice(0, 4));
        expect(first.body.total).toBe(11);
        expect(first.body.total_pages).toBe(3);
        expect(first.headers['x-et-total']).toBe('11');
        expect(first.headers['x-et-total-pages']).toBe('3');
        const last = await list('?per_page=4&page=3', editor).expect(200);
        expect(idsOf(last.body)).toEqual(all.slice(8));
        expect(idsOf((await list('?per_page=100', editor).expect(200)).body)).toEqual(all);
        expect(idsOf((await list('?per_page=1&page=11', editor).expect(200)).body)).toEqual([all[10]]);
      });

      it('reads a page with a fixed number of queries: count, then the page with its tickets and events', async () => {
        const countQueries = async (query: string, user: TestUser | null) => {
          // Counted cold: the list counts are cached (CountCache), and reading their generation is not the list's work.
          testApp.app.get(CountCache).clear();
          const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
          try {
            await list(query, user).expect(200);
            // Authentication reads the caller first; what is counted is the listing itself.
            return spy.mock.calls.filter(([sql]) => !/application_passwords|FROM [`"]users[`"]|cache_generations/.test(sql)).length;
          } finally {
            spy.mockRestore();
          }
        };
        // Every attendee: the tally comes with the page.
        expect(await countQueries('?per_page=1', editor)).toBe(1);
        expect(await countQueries('?per_page=100', editor)).toBe(1);
        expect(await countQueries('?per_page=100&search=a&order_status=any&checkedin=false', author)).toBe(2);
        // Event and ticket filters first check that the ids exist.
        expect(await countQueries(`?per_page=100&include_post=${eventA.id},${eventB.id}&include_ticket=${tcA.id}`, null)).toBe(4);
        expect(await countQueries('?provider=bogus', null)).toBe(1);
      });

      it('returns 400 invalid-page-number past the last page', async () => {
        const response = await list('?per_page=4&page=4', editor).expect(400);
        expect(response.body).toEqual({
          code: 'invalid-page-number',
          message: expect.any(String),
          data: { status: 400 },
        });
        await list('?page=2').expect(400);
      });

      it('answers page 1 of an empty list with zero totals', async () => {
        const response = await list('?provider=bogus').expect(200);
        expect(response.body).toMatchObject({ total: 0, total_pages: 0, attendees: [] });
        expect(response.headers['x-et-total']).toBe('0');
        expect(response.headers['x-et-total-pages']).toBe('0');
      });

      it.each(['0', '101', '-1', 'abc', '1.5'])('returns 400 rest_invalid_param for per_page=%s', async (value) => {
        const response = await list(`?per_page=${value}`).expect(400);
        expect(response.body.code).toBe('rest_invalid_param');
        expect(Object.keys(response.body.data.params)).toEqual(['per_page']);
      });

      it.each(['0', '-3', 'abc', '99999999999'])('returns 400 rest_invalid_param for page=%s', async (value) => {
        const response = await list(`?page=${value}`).expect(400);
        expect(Object.keys(response.body.data.params)).toEqual(['page']);
      });

      it('skips offset attendees before paging; total still counts every match, as the original does', async () => {
        const response = await list('?offset=1&per_page=4', editor).expect(200);
        expect(idsOf(response.body)).toEqual(all.slice(1, 5));
        expect(response.body.total).toBe(11);
        expect(response.body.total_pages).toBe(3);
        expect([response.headers['x-et-total'], response.headers['x-et-total-pages']]).toEqual(['11', '3']);
        const last = await list('?offset=10', editor).expect(200);
        expect([last.body.total, last.body.total_pages, idsOf(last.body)]).toEqual([11, 1, all.slice(10)]);
        const second = await list('?offset=1&per_page=4&page=3', editor).expect(200);
        expect(idsOf(second.body)).toEqual(all.slice(9));
        const beyond = await list('?offset=11', editor).expect(200);
        expect(beyond.body).toMatchObject({ total: 0, total_pages: 0, attendees: [] });
      });
    });

    describe('malformed input', () => {
      it.each([
        ['offset=-1', 'offset'],
        ['offset=abc', 'offset'],
        ['offset=99999999999999999999', 'offset'],
        ['order=sideways', 'order'],
        ['orderby=price', 'orderby'],
        ['post_id=abc', 'post_id'],
        ['post_id=0', 'post_id'],
        ['post_id=-5', 'post_id'],
        ['post_id=99999999999999999999', 'post_id'],
        ['post_id[a]=1', 'post_id'],
        ['ticket_id=1.5', 'ticket_id'],
        ['include=abc', 'include'],
        ['include=1,abc', 'include'],
        ['exclude=-1', 'exclude'],
        ['include_post=x', 'include_post'],
        ['exclude_ticket=3000000000', 'exclude_ticket'],
        ['include[a]=1', 'include'],
        ['after=yesterday', 'after'],
        ['after=2026-02-30', 'after'],
        ['before=99999999999999999999', 'before'],
        ['before[]=2026-01-01', 'before'],
        ['price_min=-1', 'price_min'],
        ['price_min=abc', 'price_min'],
        ['price_max=1e3', 'price_max'],
        ['price_max=12.345', 'price_max'],
        ['price_max=99999999999999', 'price_max'],
        ['price_min[]=1', 'price_min'],
        ['post_status=bogus', 'post_status'],
        ['status=bogus', 'status'],
        ['order_status=bogus', 'order_status'],
        ['order_status[a]=b', 'order_status'],
        ['checkedin=maybe', 'checkedin'],
        ['rsvp_going_status=maybe', 'rsvp_going_status'],
        ['attendee_information_available=2', 'attendee_information_available'],
        ['search[]=a', 'search'],
        [`search=${'x'.repeat(201)}`, 'search'],
      ])('returns 400 rest_invalid_param for %s', async (query, field) => {
        const response = await list(`?${query}`).expect(400);
        expect(response.body.code).toBe('rest_invalid_param');
        expect(Object.keys(response.body.data.params)).toContain(field);
      });

      it('never answers 500 to odd query strings', async () => {
        const odd = [
          'search=%00',
          "search=' OR 1=1 --",
          'search=%F0%9F%8E%AB',
          'provider[]=',
          'provider=,,,',
          'include=,',
          'include_post=',
          'rsvp_going_status=',
          'order_status=',
          'after=0',
          'before=-1',
          'page[]=1',
          'per_page[a]=1',
          `include=${Array.from({ length: 501 }, (_v, i) => i + 1).join(',')}`,
          'orderby=include&include=1,1,1',
        ];
        for (const query of odd) {
          const response = await list(`?${query}`, editor);
          expect({ query, answered: response.status === 200 || response.status === 400 }).toEqual({ query, answered: true });
        }
      });
    });

    describe('documentation', () => {
      it('documents the attendee and QR routes in a valid OpenAPI document', async () => {
        const response = await http().get('/cal/tickets/v1/doc').expect(200);
        expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/attendees', '/attendees/{id}', '/qr']));
        expect(Object.keys(response.body.paths['/attendees/{id}'])).toEqual(expect.arrayContaining(['get', 'post', 'put', 'patch']));
        await expect(SwaggerParser.validate(structuredClone(response.body))).resolves.toBeDefined();
      });
    });
  });

  describe('check-in', () => {
    let event: Event;
    let otherEvent: Event;
    let paid: Ticket;
    let rsvp: Ticket;
    let otherTicket: Ticket;

    beforeAll(async () => {
      await clearTicketing(testApp.dataSource);
      event = await insertEvent(testApp.dataSource, { authorId: author.id, showAttendeeList: true });
      otherEvent = await insertEvent(testApp.dataSource, { authorId: otherAuthor.id, showAttendeeList: true });
      paid = await insertTicketRow(testApp.dataSource, event, { provider: 'tc' });
      rsvp = await insertTicketRow(testApp.dataSource, event, { provider: 'rsvp' });
      otherTicket = await insertTicketRow(testApp.dataSource, otherEvent, { provider: 'tc' });
    });

    const checkIn = (
      method: 'post' | 'put' | 'patch',
      id: number,
      user: TestUser | null,
      body: Record<string, unknown> | string = { check_in: true },
    ) => http()[method](`${base}/${id}`).set(as(user)).send(body);
    const stored = (id: number) => testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id });

    it('checks an attendee in for the event author: 200 with checked_in and checkin_details (source site)', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      nowMs = Date.parse('2026-12-01T09:00:05Z');
      const response = await checkIn('post', attendee.id, author).expect(200);
      expect(response.body).toMatchObject({
        id: attendee.id,
        checked_in: true,
        checkin_details: {
          date: '2026-12-01 04:00:05',
          date_details: { year: '2026', month: '12', day: '01', hour: '04', minutes: '00', seconds: '05' },
          source: 'site',
          author: String(author.id),
        },
        security_code: attendee.securityCode,
      });
      expect(response.body.modified_utc).toBe('2026-12-01 09:00:05');
      const row = await stored(attendee.id);
      expect(row).toMatchObject({ checkedIn: true, checkinSource: 'site', checkinUserId: author.id });
      expect(row.checkedInAt?.toISOString()).toBe('2026-12-01T09:00:05.000Z');
    });

    it('returns 409 attendee-already-checked-in the second time, and check_in false undoes it', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      await checkIn('put', attendee.id, editor).expect(200);
      const twice = await checkIn('patch', attendee.id, editor).expect(409);
      expect(twice.body).toEqual({ code: 'attendee-already-checked-in', message: expect.any(String), data: { status: 409 } });
      const undone = await checkIn('put', attendee.id, editor, { check_in: false }).expect(200);
      expect(undone.body).toMatchObject({ checked_in: false, checkin_details: false });
      expect(await stored(attendee.id)).toMatchObject({ checkedIn: false, checkedInAt: null, checkinSource: null, checkinUserId: null });
      await checkIn('patch', attendee.id, editor, { check_in: false }).expect(200);
      await checkIn('post', attendee.id, admin).expect(200);
    });

    it('accepts check_in from urlencoded and multipart bodies', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      await checkIn('patch', attendee.id, author, 'check_in=1').type('form').expect(200);
      const undone = await http().post(`${base}/${attendee.id}`).set(as(author)).field('check_in', 'false').expect(200);
      expect(undone.body.checked_in).toBe(false);
    });

    it.each([
      ['pending', 'tc'],
      ['cancelled', 'tc'],
      ['refunded', 'tc'],
      ['expired', 'tc'],
      ['no', 'rsvp'],
    ] as const)('returns 409 attendee-invalid-check-in when the order is %s', async (orderStatus, provider) => {
      const attendee = await insertAttendeeRow(testApp.dataSource, provider === 'rsvp' ? rsvp : paid, { orderStatus });
      const response = await checkIn('post', attendee.id, author).expect(409);
      expect(response.body.code).toBe('attendee-invalid-check-in');
      expect((await stored(attendee.id)).checkedIn).toBe(false);
    });

    it('checks in an RSVP attendee who is going', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, rsvp, { orderStatus: 'yes' });
      const response = await checkIn('post', attendee.id, author).expect(200);
      expect(response.body).toMatchObject({ checked_in: true, rsvp_going: true });
    });

    it('lets only one of two simultaneous check-ins succeed', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      const responses = await Promise.all([
        checkIn('post', attendee.id, author),
        checkIn('post', attendee.id, editor),
        checkIn('put', attendee.id, admin),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409]);
    });

    it('refuses anonymous callers with 401 and non-managers with 403', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      const anonymous = await checkIn('post', attendee.id, null).expect(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      for (const user of [subscriber, contributor, otherAuthor]) {
        const response = await checkIn('post', attendee.id, user).expect(403);
        expect(response.body.code).toBe('rest_forbidden');
      }
      await checkIn('patch', attendee.id, otherAuthor, { check_in: false }).expect(403);
      expect((await stored(attendee.id)).checkedIn).toBe(false);
      const ofOther = await insertAttendeeRow(testApp.dataSource, otherTicket);
      await checkIn('post', ofOther.id, author).expect(403);
      await checkIn('post', ofOther.id, otherAuthor).expect(200);
    });

    it('checks authentication, then the body, then existence, then permission', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, otherTicket);
      await checkIn('post', 999999, null, {}).expect(401);
      const missing = await checkIn('post', attendee.id, author, {}).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): check_in',
        data: { status: 400, params: ['check_in'] },
      });
      const invalid = await checkIn('post', attendee.id, author, { check_in: 'maybe' }).expect(400);
      expect(invalid.body.data.params).toEqual({ check_in: expect.any(String) });
      await checkIn('post', attendee.id, author, { check_in: { nested: true } }).expect(400);
      await checkIn('post', attendee.id, author, { check_in: [true] }).expect(400);
      const unknown = await checkIn('post', 999999, author).expect(404);
      expect(unknown.body.code).toBe('attendee-not-found');
      await checkIn('post', attendee.id, author).expect(403);
      await checkIn('post', 0, author).expect(404);
      await http().post(`${base}/abc`).set(as(author)).send({ check_in: true }).expect(404);
      const malformed = await http()
        .post(`${base}/${attendee.id}`)
        .set(as(author))
        .set('Content-Type', 'application/json')
        .send('{"check_in":');
      expect(malformed.status).toBe(400);
    });
  });

  describe('QR check-in', () => {
    let event: Event;
    let otherEvent: Event;
    let paid: Ticket;
    let rsvp: Ticket;
    let otherTicket: Ticket;
    const qr = (user: TestUser | null, body: unknown) =>
      http()
        .post('/cal/tickets/v1/qr')
        .set(as(user))
        .send(body as object);

    beforeAll(async () => {
      await clearTicketing(testApp.dataSource);
      event = await insertEvent(testApp.dataSource, { authorId: author.id, showAttendeeList: true });
      otherEvent = await insertEvent(testApp.dataSource, { authorId: otherAuthor.id, showAttendeeList: true });
      paid = await insertTicketRow(testApp.dataSource, event, { provider: 'tc' });
      rsvp = await insertTicketRow(testApp.dataSource, event, { provider: 'rsvp' });
      otherTicket = await insertTicketRow(testApp.dataSource, otherEvent, { provider: 'tc' });
    });

    it('checks in the holder of a security code: 200 {msg, attendee} with source app', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      nowMs = Date.parse('2026-12-02T18:30:00Z');
      const response = await qr(author, { security_code: attendee.securityCode }).expect(200);
      expect(Object.keys(response.body)).toEqual(['msg', 'attendee']);
      expect(response.body.msg).toBe('Checked In!');
      expect(response.body.attendee).toMatchObject({
        id: attendee.id,
        checked_in: true,
        checkin_details: { date: '2026-12-02 13:30:00', source: 'app', author: String(author.id) },
      });
      expect(await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id })).toMatchObject({
        checkedIn: true,
        checkinSource: 'app',
      });
      const twice = await qr(editor, { security_code: attendee.securityCode }).expect(409);
      expect(twice.body.code).toBe('attendee-already-checked-in');
    });

    it('accepts the code from a form body', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, rsvp);
      await http().post('/cal/tickets/v1/qr').set(as(editor)).type('form').send(`security_code=${attendee.securityCode}`).expect(200);
    });

    it('returns 409 attendee-invalid-check-in for orders that are not completed', async () => {
      for (const [ticket, orderStatus] of [
        [paid, 'pending'],
        [paid, 'refunded'],
        [rsvp, 'no'],
      ] as const) {
        const attendee = await insertAttendeeRow(testApp.dataSource, ticket, { orderStatus });
        const response = await qr(author, { security_code: attendee.securityCode }).expect(409);
        expect(response.body.code).toBe('attendee-invalid-check-in');
      }
    });

    it('returns 404 attendee-not-found for an unknown code, without saying more', async () => {
      const response = await qr(editor, { security_code: 'not-a-real-code' }).expect(404);
      expect(response.body).toEqual({
        code: 'attendee-not-found',
        message: 'No attendee holds this security code.',
        data: { status: 404 },
      });
    });

    it('refuses anonymous callers (401), non-staff (403) and staff of other events (403)', async () => {
      const attendee = await insertAttendeeRow(testApp.dataSource, paid);
      const anonymous = await qr(null, { security_code: attendee.securityCode }).expect(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      for (const user of [subscriber, contributor]) {
        await qr(user, { security_code: attendee.securityCode }).expect(403);
        await qr(user, { security_code: 'not-a-real-code' }).expect(403);
      }
      const bola = await qr(otherAuthor, { security_code: attendee.securityCode }).expect(403);
      expect(JSON.stringify(bola.body)).not.toContain(attendee.holderEmail);
      expect((await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id })).checkedIn).toBe(false);
      const ofOther = await insertAttendeeRow(testApp.dataSource, otherTicket);
      await qr(author, { security_code: ofOther.securityCode }).expect(403);
      await qr(otherAuthor, { security_code: ofOther.securityCode }).expect(200);
    });

    it('validates the body: missing, empty, too long or not a string', async () => {
      const missing = await qr(editor, {}).expect(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): security_code',
        data: { status: 400, params: ['security_code'] },
      });
      for (const body of [
        { security_code: '' },
        { security_code: 'x'.repeat(65) },
        { security_code: 12345 },
        { security_code: ['a'] },
        { security_code: { a: 1 } },
      ]) {
        const response = await qr(editor, body).expect(400);
        expect(response.body.code).toBe('rest_invalid_param');
      }
    });

    it('has no GET route', async () => {
      const response = await http().get('/cal/tickets/v1/qr').set(as(editor)).expect(404);
      expect(response.body.code).toBe('rest_no_route');
    });
  });
});
