import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { ApiToken } from '../src/auth/api-token.entity';
import { User } from '../src/auth/user.entity';
import { Event } from '../src/events/event.entity';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { World } from './security/world';

const AUTH_NS = '/cal/auth/v1';
const EVENTS_NS = '/cal/events/v1';
const TICKETS_NS = '/cal/tickets/v1';
const TEC_NS = '/tec/v1';
const admin = basicAuth(ADMIN.login, ADMIN.password);

type Created = { id: number; token: string; prefix: string } & Record<string, unknown>;

/**
 * API tokens (issue 43, docs/tokens.md): the cal/auth/v1 routes, Bearer authentication (401
 * invalid_token), scopes (403 insufficient_scope), the owner's current role, event limits, personal
 * data masking, and tokens never managing tokens. The matrix of every route is
 * test/security/token-matrix.e2e-spec.ts.
 */
describe('API tokens (e2e)', () => {
  let testApp: TestApp;
  let world: World;
  let editor: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    world = await World.create(testApp);
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
  });

  afterAll(() => testApp.close());

  const bearer = (token: string) => `Bearer ${token}`;
  const api = () => request(testApp.server);

  async function createToken(authorization: string, body: Record<string, unknown>): Promise<Created> {
    const response = await api().post(`${AUTH_NS}/tokens`).set('Authorization', authorization).send(body);
    if (response.status !== 201) throw new Error(`token creation failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Created;
  }

  function expectInvalidToken(response: request.Response): void {
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'invalid_token', message: expect.any(String), data: { status: 401 } });
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  }

  function expectInsufficientScope(response: request.Response, scope: string): void {
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'insufficient_scope', data: { status: 403, scope } });
    expect(response.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
  }

  describe('creating, reading, listing', () => {
    it('shows the secret once, in the 201, and stores only its hash', async () => {
      const created = await createToken(admin, { name: 'Dashboard', preset: 'read_only_reporting' });
      expect(created).toMatchObject({
        name: 'Dashboard',
        scopes: ['events:read', 'tickets:read', 'reports:read'],
        preset: 'read_only_reporting',
        all_events: true,
        limit_events: [],
        pii: 'redacted',
        expires_at: null,
        allowed_ips: [],
        last_used_at: null,
        revoked_at: null,
        owner: 1,
      });
      expect(created.token).toMatch(/^cal_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
      expect(created.token.slice(4, 12)).toBe(created.prefix);
      const read = await api().get(`${AUTH_NS}/tokens/${created.id}`).set('Authorization', admin).expect(200);
      expect(read.body).not.toHaveProperty('token');
      const list = await api().get(`${AUTH_NS}/tokens`).set('Authorization', admin).expect(200);
      expect(JSON.stringify([read.body, list.body])).not.toContain(created.token.slice(13));
      const row = await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: created.id });
      expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(created.token.slice(13));
    });

    it('is listed in the API root and has its own index and OpenAPI document with the Bearer scheme', async () => {
      const root = await api().get('/').expect(200);
      expect(root.body.namespaces).toContain('cal/auth/v1');
      expect(Object.keys(root.body.routes)).toEqual(expect.arrayContaining(['/cal/auth/v1/tokens', '/cal/auth/v1/tokens/(?P<id>\\d+)']));
      const doc = await api().get(`${AUTH_NS}/doc`).expect(200);
      expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/tokens', '/tokens/{id}', '/tokens/{id}/revoke']));
      expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      const events = await api().get(`${EVENTS_NS}/doc`).expect(200);
      expect(events.body.paths['/events'].post.security).toEqual(expect.arrayContaining([{ bearer: ['events:write'] }]));
      expect(events.body.paths['/events'].post.responses['403'].description).toContain('insufficient_scope');
    });

    it('refuses bad fields naming them', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: 'x', scopes: ['events:read', 'events:delete'] }, 'scopes'],
        [{ name: 'x' }, 'scopes'],
        [{ name: 'x', preset: 'god_mode' }, 'preset'],
        [{ name: 'x', scopes: ['events:read'], expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
        [{ name: 'x', scopes: ['events:read'], expires_at: 'tomorrow' }, 'expires_at'],
        [{ name: 'x', scopes: ['events:read'], limit_events: [999_999] }, 'limit_events'],
        [{ name: 'x', scopes: ['events:read'], limit_events: ['one'] }, 'limit_events'],
        [{ name: 'x', scopes: ['events:read'], all_events: false }, 'limit_events'],
        [{ name: 'x', scopes: ['events:read'], pii: 'some' }, 'pii'],
        [{ name: 'x', scopes: ['events:read'], allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips'],
        [{ name: 'x', scopes: ['events:read'], allowed_ips: ['localhost'] }, 'allowed_ips'],
        [{ name: 'x', scopes: ['events:read'], owner: 999_999 }, 'owner'],
        [{ name: '', scopes: ['events:read'] }, 'name'],
      ];
      for (const [body, field] of cases) {
        const response = await api().post(`${AUTH_NS}/tokens`).set('Authorization', admin).send(body);
        expect({ body, status: response.status, code: response.body.code }).toEqual({ body, status: 400, code: 'rest_invalid_param' });
        expect({ body, params: Object.keys(response.body.data.params) }).toEqual({ body, params: [field] });
      }
      await api()
        .post(`${AUTH_NS}/tokens`)
        .send({ name: 'x', scopes: ['events:read'] })
        .expect(401);
    });

    it('lets a user manage their own tokens only, and administrators everyone’s', async () => {
      const own = await createToken(editor.authorization, { name: 'Mine', scopes: ['events:read'] });
      expect(own.owner).toBe(editor.id);
      const others = await createToken(admin, { name: 'For the author', scopes: ['events:read'], owner: author.id });
      expect(others.owner).toBe(author.id);
      const refused = await api()
        .post(`${AUTH_NS}/tokens`)
        .set('Authorization', editor.authorization)
        .send({ name: 'x', scopes: ['events:read'], owner: author.id })
        .expect(403);
      expect(refused.body.code).toBe('rest_forbidden');
      expect((await api().get(`${AUTH_NS}/tokens/${others.id}`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
        'token-not-found',
      );
      await api().post(`${AUTH_NS}/tokens/${others.id}/revoke`).set('Authorization', editor.authorization).expect(404);
      const mine = await api().get(`${AUTH_NS}/tokens`).set('Authorization', editor.authorization).expect(200);
      expect(mine.body.tokens.map((token: { owner: number }) => token.owner)).toEqual([editor.id]);
      const all = await api().get(`${AUTH_NS}/tokens`).query({ owner: author.id }).set('Authorization', admin).expect(200);
      expect(all.body.tokens.map((token: { id: number }) => token.id)).toEqual([others.id]);
      await api().delete(`${AUTH_NS}/tokens/${own.id}`).set('Authorization', editor.authorization).expect(200);
      expectInvalidToken(await api().get(`${EVENTS_NS}/events`).set('Authorization', bearer(own.token)));
    });

    it('never lets a token create, read or revoke tokens, whatever its scopes', async () => {
      const all = await createToken(admin, { name: 'Everything', scopes: ['events:read', 'events:write', 'webhooks:write'], pii: 'full' });
      for (const call of [
        api()
          .post(`${AUTH_NS}/tokens`)
          .send({ name: 'child', scopes: ['events:read'] }),
        api().get(`${AUTH_NS}/tokens`),
        api().get(`${AUTH_NS}/tokens/${all.id}`),
        api().post(`${AUTH_NS}/tokens/${all.id}/revoke`),
        api().delete(`${AUTH_NS}/tokens/${all.id}`),
      ]) {
        const response = await call.set('Authorization', bearer(all.token));
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 403, code: 'rest_forbidden' });
      }
      expect(await testApp.dataSource.getRepository(ApiToken).countBy({ name: 'child' })).toBe(0);
      expect((await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: all.id })).revokedAt).toBeNull();
    });
  });

  describe('authenticating', () => {
    it('answers 401 invalid_token for unknown, malformed, revoked, expired, owner-deleted and not-allowed-address tokens', async () => {
      const path = `${EVENTS_NS}/events`;
      expectInvalidToken(await api().get(path).set('Authorization', 'Bearer cal_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'));
      expectInvalidToken(await api().get(path).set('Authorization', 'Bearer not-a-token'));
      expectInvalidToken(await api().get(path).set('Authorization', 'Bearer'));

      const revoked = await createToken(admin, { name: 'Revoked', scopes: ['events:read'] });
      await api().get(path).set('Authorization', bearer(revoked.token)).expect(200);
      const revoke = await api().post(`${AUTH_NS}/tokens/${revoked.id}/revoke`).set('Authorization', admin).expect(200);
      expect(revoke.body.revoked_at).toEqual(expect.any(String));
      expectInvalidToken(await api().get(path).set('Authorization', bearer(revoked.token)));

      const expiring = await createToken(admin, {
        name: 'Expiring',
        scopes: ['events:read'],
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      await api().get(path).set('Authorization', bearer(expiring.token)).expect(200);
      await testApp.dataSource.getRepository(ApiToken).update({ id: expiring.id }, { expiresAt: new Date(Date.now() - 1000) });
      expectInvalidToken(await api().get(path).set('Authorization', bearer(expiring.token)));

      const leaver = await createUser(testApp, 'editor');
      const orphan = await createToken(leaver.authorization, { name: 'Orphan', scopes: ['events:read'] });
      await api().get(path).set('Authorization', bearer(orphan.token)).expect(200);
      await testApp.dataSource.getRepository(User).delete({ id: leaver.id });
      expectInvalidToken(await api().get(path).set('Authorization', bearer(orphan.token)));

      const elsewhere = await createToken(admin, { name: 'Office only', scopes: ['events:read'], allowed_ips: ['203.0.113.0/24'] });
      expectInvalidToken(await api().get(path).set('Authorization', bearer(elsewhere.token)));
      const here = await createToken(admin, { name: 'Loopback', scopes: ['events:read'], allowed_ips: ['127.0.0.1', '::1'] });
      await api().get(path).set('Authorization', bearer(here.token)).expect(200);
    });

    it('writes last_used_at on first use and not again within the minute', async () => {
      const token = await createToken(admin, { name: 'Used', scopes: ['events:read'] });
      await api().get(`${EVENTS_NS}/events`).set('Authorization', bearer(token.token)).expect(200);
      const first = (await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: token.id })).lastUsedAt;
      expect(first).toBeInstanceOf(Date);
      await api().get(`${EVENTS_NS}/events`).set('Authorization', bearer(token.token)).expect(200);
      const second = (await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: token.id })).lastUsedAt;
      expect(second?.getTime()).toBe(first?.getTime());
    });
  });

  describe('scopes and the owner’s role', () => {
    it('needs the route’s scope: 403 insufficient_scope naming it, public reads included', async () => {
      const reader = await createToken(admin, { name: 'Reader', scopes: ['events:read'] });
      const ticketsOnly = await createToken(admin, { name: 'Tickets', scopes: ['tickets:read'] });
      await api().get(`${EVENTS_NS}/events`).set('Authorization', bearer(reader.token)).expect(200);
      expectInsufficientScope(
        await api()
          .post(`${EVENTS_NS}/events`)
          .set('Authorization', bearer(reader.token))
          .send({ title: 'No', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' }),
        'events:write',
      );
      expectInsufficientScope(await api().get(`${EVENTS_NS}/events`).set('Authorization', bearer(ticketsOnly.token)), 'events:read');
      expectInsufficientScope(await api().get(`${TICKETS_NS}/orders`).set('Authorization', bearer(reader.token)), 'orders:read');
      expectInsufficientScope(
        await api()
          .get(`${TEC_NS}/events`)
          .set('Authorization', bearer(ticketsOnly.token))
          .set(
            'X-TEC-EEA',
            'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.',
          ),
        'events:read',
      );
      expect(await testApp.dataSource.getRepository(Event).countBy({ title: 'No' })).toBe(0);
    });

    it('reads drafts with events:read only when the owner can, follows the owner’s role at once, and cannot write', async () => {
      const draft = await world.event('author', { status: 'draft' });
      const owner = await createUser(testApp, 'editor');
      const reader = await createToken(owner.authorization, { name: 'Drafts', scopes: ['events:read'] });
      await api().get(`${EVENTS_NS}/events/${draft.id}`).set('Authorization', bearer(reader.token)).expect(200);
      expectInsufficientScope(
        await api().post(`${EVENTS_NS}/events/${draft.id}`).set('Authorization', bearer(reader.token)).send({ title: 'Renamed' }),
        'events:write',
      );
      const authorsToken = await createToken(author.authorization, { name: 'Not mine', scopes: ['events:read'] });
      expect(
        (await api().get(`${EVENTS_NS}/events/${draft.id}`).set('Authorization', bearer(authorsToken.token))).status,
      ).toBeGreaterThanOrEqual(401);
      // Demoted: the next request has the new role.
      await testApp.dataSource.getRepository(User).update({ id: owner.id }, { role: 'subscriber' });
      const demoted = await api().get(`${EVENTS_NS}/events/${draft.id}`).set('Authorization', bearer(reader.token));
      expect(demoted.status).toBe(403);
    });

    it('needs no nonce for a token with tickets:write', async () => {
      const event = await world.event('administrator');
      const writer = await createToken(admin, { name: 'Tickets', scopes: ['tickets:write'] });
      const created = await api()
        .post(`${TICKETS_NS}/tickets`)
        .set('Authorization', bearer(writer.token))
        .send({ post_id: event.id, provider: 'tc', name: 'Token ticket', price: '10', ticket: { mode: 'own', capacity: 5 } })
        .expect(201);
      expect(created.body.title).toBe('Token ticket');
    });
  });

  describe('event limits', () => {
    it('holds on reads, lists and writes of the limited events, and leaves public content public', async () => {
      const reached = await world.event('author');
      const other = await world.event('author');
      const reachedTicket = await world.ticket(reached);
      const otherTicket = await world.ticket(other);
      const reachedAttendee = await world.attendee(reachedTicket);
      const otherAttendee = await world.attendee(otherTicket);
      const limited = await createToken(admin, {
        name: 'One event',
        scopes: ['events:read', 'events:write', 'tickets:read', 'tickets:write', 'attendees:read', 'orders:read', 'reports:read'],
        limit_events: [reached.id],
        pii: 'full',
      });
      const as = (test: request.Test) => test.set('Authorization', bearer(limited.token));
      // Public content: as to anyone.
      await as(api().get(`${EVENTS_NS}/events/${other.id}`)).expect(200);
      await as(api().get(`${TICKETS_NS}/tickets/${otherTicket.id}`)).expect(200);
      // Attendees: those of its event only, in the list and one by one.
      const attendees = await as(api().get(`${TICKETS_NS}/attendees`).query({ per_page: 100 })).expect(200);
      const ids = attendees.body.attendees.map((attendee: { id: number }) => attendee.id);
      expect(ids).toContain(reachedAttendee.id);
      expect(ids).not.toContain(otherAttendee.id);
      await as(api().get(`${TICKETS_NS}/attendees/${reachedAttendee.id}`)).expect(200);
      expect((await as(api().get(`${TICKETS_NS}/attendees/${otherAttendee.id}`))).status).toBe(401);
      // Orders: those with an attendee of its event.
      const orders = await as(api().get(`${TICKETS_NS}/orders`).query({ per_page: 100 })).expect(200);
      const orderIds = orders.body.orders.map((order: { id: number }) => order.id);
      expect(orderIds).toContain(reachedAttendee.orderId);
      expect(orderIds).not.toContain(otherAttendee.orderId);
      await as(api().get(`${TICKETS_NS}/orders/${otherAttendee.orderId}`)).expect(404);
      // Writes: its event yes, the other no; no new events.
      await as(api().post(`${EVENTS_NS}/events/${reached.id}`).send({ excerpt: 'Limited' })).expect(200);
      expect((await as(api().post(`${EVENTS_NS}/events/${other.id}`).send({ excerpt: 'Limited' }))).status).toBe(403);
      await as(api().post(`${TICKETS_NS}/tickets/${reachedTicket.id}`).send({ post_id: reached.id, name: 'Limited' })).expect(200);
      expect((await as(api().post(`${TICKETS_NS}/tickets/${otherTicket.id}`).send({ post_id: other.id, name: 'Limited' }))).status).toBe(
        403,
      );
      const created = await as(
        api()
          .post(`${EVENTS_NS}/events`)
          .send({ title: 'Outside the limit', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' }),
      );
      expect(created.status).toBe(403);
      // Reports: its event yes, the other no.
      await as(api().get(`${TICKETS_NS}/reports/sales`).query({ post_id: reached.id })).expect(200);
      expect((await as(api().get(`${TICKETS_NS}/reports/sales`).query({ post_id: other.id }))).status).toBe(403);
    });
  });

  describe('personal data', () => {
    it('masks emails, names and answers for a redacted token, in answers and exports, and not for a full one', async () => {
      const event = await world.event('administrator');
      const ticket = await world.ticket(event);
      const attendee = await world.attendee(ticket, { name: 'Jane Doe', email: 'jane.doe@example.org' });
      const scopes = ['attendees:read', 'orders:read', 'exports:read'];
      const redacted = await createToken(admin, { name: 'Masked', scopes });
      const full = await createToken(admin, { name: 'Full', scopes, pii: 'full' });

      const masked = await api().get(`${TICKETS_NS}/attendees/${attendee.id}`).set('Authorization', bearer(redacted.token)).expect(200);
      expect(masked.body).toMatchObject({ title: 'J*** D***', email: 'j***@e***.org' });
      const maskedOrder = await api()
        .get(`${TICKETS_NS}/orders/${attendee.orderId}`)
        .set('Authorization', bearer(redacted.token))
        .expect(200);
      expect(maskedOrder.body.purchaser).toEqual({ name: 'J*** D***', email: 'j***@e***.org' });
      expect(JSON.stringify(maskedOrder.body)).not.toMatch(/jane|doe/i);
      const list = await api()
        .get(`${TICKETS_NS}/attendees`)
        .query({ post_id: event.id })
        .set('Authorization', bearer(redacted.token))
        .expect(200);
      expect(JSON.stringify(list.body)).not.toMatch(/jane|doe/i);
      const csv = await api()
        .get(`${TICKETS_NS}/attendees/export`)
        .query({ post_id: event.id })
        .set('Authorization', bearer(redacted.token))
        .expect(200);
      const rows = parse<Record<string, string>>(csv.text, { bom: true, columns: true, skip_empty_lines: true });
      expect(rows[0]).toMatchObject({ 'Holder name': 'J*** D***', 'Holder email': 'j***@e***.org', 'Purchaser email': 'j***@e***.org' });
      expect(csv.text).not.toMatch(/jane|doe/i);

      const plain = await api().get(`${TICKETS_NS}/attendees/${attendee.id}`).set('Authorization', bearer(full.token)).expect(200);
      expect(plain.body).toMatchObject({ title: 'Jane Doe', email: 'jane.doe@example.org' });
    });

    it('masks the organizer of an iCalendar feed for a redacted token, and keeps its feed apart from its owner’s', async () => {
      const organizer = await api()
        .post(`${EVENTS_NS}/organizers`)
        .set('Authorization', admin)
        .send({ organizer: 'Lantern Society', email: 'hello@lantern.example.org', status: 'publish' })
        .expect(201);
      const event = await api()
        .post(`${EVENTS_NS}/events`)
        .set('Authorization', admin)
        .send({
          title: 'Harbour night',
          start_date: '2027-03-10 19:30:00',
          end_date: '2027-03-10 22:00:00',
          organizer: [organizer.body.id],
          status: 'publish',
        })
        .expect(201);
      const owner = await api().get(`${EVENTS_NS}/events/ics`).set('Authorization', admin).expect(200);
      expect(owner.text).toContain('hello@lantern.example.org');
      const redacted = await createToken(admin, { name: 'Calendar', scopes: ['events:read'] });
      for (const path of ['events/ics', `events/${event.body.id}/ics`]) {
        const feed = await api().get(`${EVENTS_NS}/${path}`).set('Authorization', bearer(redacted.token)).expect(200);
        expect(feed.text).toContain('ORGANIZER');
        expect(feed.text).not.toMatch(/lantern/i);
      }
    });
  });
});
