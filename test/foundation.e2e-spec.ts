import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { NONCE_TICK_SECONDS } from '../src/auth/nonce.service';
import { UsersService } from '../src/auth/users.service';
import { CLOCK, Clock } from '../src/common/clock';
import { ProbeController } from './helpers/probe.controller';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

describe('Foundation (e2e)', () => {
  let testApp: TestApp;
  let nowMs = Date.now();
  const clock: Clock = { now: () => new Date(nowMs) };
  let editor: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [ProbeController], overrides: [{ provide: CLOCK, useValue: clock }] });
    editor = await createUser(testApp, 'editor');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);

  describe('namespace index', () => {
    it.each(['events', 'tickets'])('lists the %s namespace with its routes and links', async (name) => {
      const response = await http().get(`/cal/${name}/v1`).expect(200);
      expect(response.body.namespace).toBe(`cal/${name}/v1`);
      expect(response.body._links).toEqual({ up: [{ href: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/) }] });
      const root = response.body.routes[`/cal/${name}/v1`];
      expect(root).toEqual({
        namespace: `cal/${name}/v1`,
        methods: ['GET'],
        endpoints: [
          {
            methods: ['GET'],
            args: {
              namespace: expect.objectContaining({ required: false, type: 'string' }),
              context: expect.objectContaining({ required: false, type: 'string', default: 'view' }),
            },
          },
        ],
        _links: { self: [{ href: expect.stringMatching(new RegExp(`/cal/${name}/v1$`)) }] },
      });
      expect(response.body.routes[`/cal/${name}/v1/doc`].methods).toEqual(['GET']);
    });

    it('keeps routes of one namespace out of the other', async () => {
      const events = await http().get('/cal/events/v1').expect(200);
      expect(Object.keys(events.body.routes).every((route) => route.startsWith('/cal/events/v1'))).toBe(true);
      const tickets = await http().get('/cal/tickets/v1').expect(200);
      expect(Object.keys(tickets.body.routes)).toEqual(expect.arrayContaining(['/cal/tickets/v1/nonces', '/cal/tickets/v1/probe/echo']));
    });

    it('describes body fields as arguments, with required flags', async () => {
      const response = await http().get('/cal/tickets/v1').expect(200);
      const echo = response.body.routes['/cal/tickets/v1/probe/echo'];
      expect(echo.methods).toEqual(['POST']);
      expect(echo._links.self[0].href).toMatch(/\/cal\/tickets\/v1\/probe\/echo$/);
    });
  });

  describe('doc', () => {
    it.each(['events', 'tickets'])('serves a valid OpenAPI 3 document for the %s namespace', async (name) => {
      const response = await http().get(`/cal/${name}/v1/doc`).expect(200);
      expect(response.body.openapi).toMatch(/^3\./);
      expect(response.body.servers).toEqual([{ url: expect.stringMatching(new RegExp(`/cal/${name}/v1/$`)) }]);
      expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/', '/doc']));
      expect(response.body.components.securitySchemes.basic).toEqual(expect.objectContaining({ type: 'http', scheme: 'basic' }));
      await expect(SwaggerParser.validate(structuredClone(response.body))).resolves.toBeDefined();
    });

    it('keeps each namespace to its own paths', async () => {
      const events = await http().get('/cal/events/v1/doc').expect(200);
      expect(Object.keys(events.body.paths)).not.toContain('/nonces');
      const tickets = await http().get('/cal/tickets/v1/doc').expect(200);
      expect(Object.keys(tickets.body.paths)).toContain('/nonces');
    });

    it('serves the interactive documentation page', async () => {
      const response = await http().get('/docs').expect(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.text).toContain('swagger-ui');
    });
  });

  describe('errors', () => {
    it('returns 404 rest_no_route for an unknown route', async () => {
      const response = await http().get('/cal/events/v1/nowhere').expect(404);
      expect(response.body).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    });

    it('returns 404 rest_no_route for a known path with another method', async () => {
      const response = await http().delete('/cal/events/v1').expect(404);
      expect(response.body.code).toBe('rest_no_route');
    });

    it('returns 400 rest_invalid_json for a malformed JSON body', async () => {
      const response = await http().post('/cal/tickets/v1/probe/echo').set('Content-Type', 'application/json').send('{"name":').expect(400);
      expect(response.body).toEqual({ code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400 } });
    });

    it('returns 413 in the envelope for a body over 1 MB', async () => {
      const response = await http()
        .post('/cal/tickets/v1/probe/echo')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }))
        .expect(413);
      expect(response.body).toMatchObject({ code: 'rest_request_too_large', data: { status: 413 } });
    });

    it('returns 400 rest_missing_callback_param naming missing fields', async () => {
      const response = await http().post('/cal/tickets/v1/probe/echo').send({}).expect(400);
      expect(response.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): name',
        data: { status: 400, params: ['name'] },
      });
    });

    it('returns 400 rest_invalid_param naming invalid fields', async () => {
      const response = await http().post('/cal/tickets/v1/probe/echo').send({ name: 5, ids: 'a,2' }).expect(400);
      expect(response.body.code).toBe('rest_invalid_param');
      expect(response.body.message).toBe('Invalid parameter(s): name, ids');
      expect(Object.keys(response.body.data.params)).toEqual(['name', 'ids']);
    });

    it('answers an unexpected failure with a generic 500 that reveals nothing', async () => {
      const response = await http().get('/cal/tickets/v1/probe/boom').expect(500);
      expect(response.body).toEqual({
        code: 'internal_server_error',
        message: 'An unexpected error occurred. It has been logged.',
        data: { status: 500 },
      });
      expect(JSON.stringify(response.body)).not.toContain('hunter2');
    });
  });

  describe('request bodies', () => {
    it('reads urlencoded forms with nested keys and repeated keys', async () => {
      const response = await http()
        .post('/cal/tickets/v1/probe/echo')
        .type('form')
        .send('name=Ticket&ticket[mode]=own&ticket[capacity]=10&ids=1&ids=2&unknown=dropped')
        .expect(200);
      expect(response.body).toEqual({ name: 'Ticket', ticket: { mode: 'own', capacity: '10' }, ids: [1, 2] });
    });

    it('reads multipart forms the same way', async () => {
      const response = await http()
        .post('/cal/tickets/v1/probe/echo')
        .field('name', 'Ticket')
        .field('ticket[mode]', 'capped')
        .field('ids', '3,4')
        .expect(200);
      expect(response.body).toEqual({ name: 'Ticket', ticket: { mode: 'capped' }, ids: [3, 4] });
    });

    it('refuses file uploads in multipart forms', async () => {
      const response = await http()
        .post('/cal/tickets/v1/probe/echo')
        .field('name', 'Ticket')
        .attach('image', Buffer.from('GIF89a'), 'x.gif')
        .expect(400);
      expect(response.body.code).toBe('rest_invalid_param');
    });

    it('reads JSON arrays and CSV strings alike, dropping unknown fields', async () => {
      const json = await http()
        .post('/cal/tickets/v1/probe/echo')
        .send({ name: 'a', ids: [5, 6], role: 'administrator' })
        .expect(200);
      expect(json.body).toEqual({ name: 'a', ids: [5, 6] });
      const csv = await http().post('/cal/tickets/v1/probe/echo').send({ name: 'a', ids: '5,6' }).expect(200);
      expect(csv.body.ids).toEqual([5, 6]);
    });
  });

  describe('authentication', () => {
    it('accepts an application password, with or without its spaces', async () => {
      await http().get('/cal/tickets/v1/nonces').set('Authorization', editor.authorization).expect(200);
      await http()
        .get('/cal/tickets/v1/nonces')
        .set('Authorization', basicAuth(editor.login, editor.password.replace(/ /g, '')))
        .expect(200);
    });

    it('accepts the bootstrap administrator with its configured password', async () => {
      await http().get('/cal/tickets/v1/nonces').set('Authorization', basicAuth(ADMIN.login, ADMIN.password)).expect(200);
      const admin = await testApp.app.get(UsersService).findByLogin(ADMIN.login);
      expect(admin?.role).toBe('administrator');
      expect(admin?.passwordHash).not.toContain(ADMIN.password);
    });

    it.each([
      ['a wrong password', () => basicAuth(editor.login, 'wrong password')],
      ['an unknown user', () => basicAuth('nobody', 'whatever')],
      ['malformed credentials', () => 'Basic !!!notbase64'],
      ['an empty password', () => basicAuth(editor.login, '')],
    ])('answers %s with 401 incorrect_password, on public routes too', async (_case, header) => {
      for (const path of ['/cal/tickets/v1/nonces', '/cal/events/v1']) {
        const response = await http().get(path).set('Authorization', header()).expect(401);
        expect(response.body).toEqual({
          code: 'incorrect_password',
          message: 'The provided password is an invalid application password.',
          data: { status: 401 },
        });
      }
    });

    it('treats a caller without credentials as anonymous', async () => {
      await http().get('/cal/events/v1').expect(200);
      const response = await http().get('/cal/tickets/v1/nonces').expect(401);
      expect(response.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    });

    it('stops accepting a revoked application password', async () => {
      const user = await createUser(testApp, 'author');
      await http().get('/cal/tickets/v1/nonces').set('Authorization', user.authorization).expect(200);
      await testApp.app.get(UsersService).revokeApplicationPasswords({ login: user.login });
      await http().get('/cal/tickets/v1/nonces').set('Authorization', user.authorization).expect(401);
    });
  });

  describe('nonces', () => {
    it('issues the three ticket nonces to an authenticated caller', async () => {
      const response = await http().get('/cal/tickets/v1/nonces').set('Authorization', subscriber.authorization).expect(200);
      expect(Object.keys(response.body).sort()).toEqual(['add_ticket_nonce', 'edit_ticket_nonce', 'remove_ticket_nonce']);
      expect(new Set(Object.values(response.body)).size).toBe(3);
    });

    async function nonceFor(user: TestUser, action = 'edit_ticket_nonce'): Promise<string> {
      const response = await http().get('/cal/tickets/v1/nonces').set('Authorization', user.authorization).expect(200);
      return response.body[action];
    }

    it('lets a route with @RequiresNonce through with a valid nonce', async () => {
      const nonce = await nonceFor(editor);
      await http()
        .post('/cal/tickets/v1/probe/nonce')
        .set('Authorization', editor.authorization)
        .send({ edit_ticket_nonce: nonce })
        .expect(200, { ok: true });
    });

    it('accepts the nonce from a form body too', async () => {
      const nonce = await nonceFor(editor);
      await http()
        .post('/cal/tickets/v1/probe/nonce')
        .set('Authorization', editor.authorization)
        .type('form')
        .send({ edit_ticket_nonce: nonce })
        .expect(200);
    });

    it('answers a missing nonce with 400 rest_missing_callback_param', async () => {
      const response = await http().post('/cal/tickets/v1/probe/nonce').set('Authorization', editor.authorization).send({}).expect(400);
      expect(response.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): edit_ticket_nonce',
        data: { status: 400, params: ['edit_ticket_nonce'] },
      });
    });

    it.each([
      ['another action', async () => nonceFor(editor, 'remove_ticket_nonce')],
      ['another user', async () => nonceFor(subscriber)],
      ['a forged value', async () => 'deadbeefdeadbeefdead'],
    ])('answers a nonce of %s with 403 Invalid nonce', async (_case, makeNonce) => {
      const response = await http()
        .post('/cal/tickets/v1/probe/nonce')
        .set('Authorization', editor.authorization)
        .send({ edit_ticket_nonce: await makeNonce() })
        .expect(403);
      expect(response.body).toEqual({ code: 'forbidden', message: 'Invalid nonce', data: { status: 403 } });
    });

    it('keeps a nonce valid through the next tick and refuses it after', async () => {
      const nonce = await nonceFor(editor);
      const send = () =>
        http().post('/cal/tickets/v1/probe/nonce').set('Authorization', editor.authorization).send({ edit_ticket_nonce: nonce });
      const start = nowMs;
      try {
        nowMs = start + NONCE_TICK_SECONDS * 1000;
        await send().expect(200);
        nowMs = start + 2 * NONCE_TICK_SECONDS * 1000;
        await send().expect(403);
      } finally {
        nowMs = start;
      }
    });

    it('checks authentication before the nonce', async () => {
      await http().post('/cal/tickets/v1/probe/nonce').send({ edit_ticket_nonce: 'x' }).expect(401);
    });
  });

  describe('operations', () => {
    it('reports health with a database ping, outside the API root', async () => {
      const response = await http().get('/health').expect(200);
      expect(response.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
      await http().get('/health/live').expect(200, { status: 'ok' });
      await http().get('/health/ready').expect(200);
    });

    it('echoes a request id, keeping a sane one from the caller', async () => {
      const generated = await http().get('/health/live').expect(200);
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const kept = await http().get('/health/live').set('X-Request-Id', 'abc-123').expect(200);
      expect(kept.headers['x-request-id']).toBe('abc-123');
      const replaced = await http().get('/health/live').set('X-Request-Id', 'bad id with spaces').expect(200);
      expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
    });
  });
});
