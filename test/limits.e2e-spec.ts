import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import request from 'supertest';
import { UsersService } from '../src/auth/users.service';
import { MAX_LIST_VALUES } from '../src/common/security/list-limits';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

/** The Redis the shared-store tests use (127.0.0.1:6379 on the project's machines). */
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Sets `variables` for the apps created inside `build`, then puts the environment back. */
async function withEnv<T>(variables: Record<string, string>, build: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await build();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const INDEX = '/cal/events/v1';

/** An anonymous request from `address` (the app trusts X-Forwarded-For from loopback, as behind a local proxy). */
const from = (testApp: TestApp, address: string, path = INDEX) => request(testApp.server).get(path).set('X-Forwarded-For', address);

function expectTooManyRequests(response: request.Response, code = 'rest_too_many_requests'): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ code, message: expect.any(String), data: { status: 429, retry_after: expect.any(Number) } });
  const retryAfter = response.body.data.retry_after as number;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(response.headers['retry-after']).toBe(String(retryAfter));
}

describe('Resource limits (e2e)', () => {
  describe('request limits, in memory', () => {
    let testApp: TestApp;
    let editor: TestUser;
    let author: TestUser;

    beforeAll(async () => {
      testApp = await withEnv({ RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '8' }, () => createTestApp());
      editor = await createUser(testApp, 'editor');
      author = await createUser(testApp, 'author');
    });

    afterAll(async () => {
      await testApp.close();
    });

    it('refuses an anonymous client its sixth request of the minute with 429 and Retry-After, in the error envelope', async () => {
      for (let sent = 1; sent <= 5; sent += 1) {
        const response = await from(testApp, '203.0.113.1').expect(200);
        expect(response.headers['x-ratelimit-limit']).toBe('5');
        expect(response.headers['x-ratelimit-remaining']).toBe(String(5 - sent));
      }
      const refused = await from(testApp, '203.0.113.1');
      expectTooManyRequests(refused);
      expect(refused.body.data.retry_after).toBeLessThanOrEqual(60);
    });

    it('counts one client across all routes of both namespaces, and each address apart', async () => {
      const paths = [
        '/cal/events/v1',
        '/cal/tickets/v1',
        '/cal/events/v1/events',
        '/cal/tickets/v1/tickets',
        '/cal/events/v1/events/999999',
      ];
      for (const path of paths) expect((await from(testApp, '203.0.113.2', path)).status).not.toBe(429);
      expectTooManyRequests(await from(testApp, '203.0.113.2', '/cal/events/v1/venues'));
      await from(testApp, '203.0.113.3').expect(200);
    });

    it('counts an IPv6 client by its /64 block', async () => {
      for (let host = 1; host <= 5; host += 1) await from(testApp, `2001:db8:0:1::${host}`).expect(200);
      expectTooManyRequests(await from(testApp, '2001:db8:0:1::ffff'));
      await from(testApp, '2001:db8:0:2::1').expect(200);
    });

    it('gives a signed-in user their own, larger budget wherever their requests come from', async () => {
      for (let sent = 0; sent < 8; sent += 1) {
        const response = await from(testApp, sent % 2 ? '203.0.113.1' : '198.51.100.7')
          .set('Authorization', editor.authorization)
          .expect(200);
        expect(response.headers['x-ratelimit-limit']).toBe('8');
      }
      expectTooManyRequests(await from(testApp, '198.51.100.8').set('Authorization', editor.authorization));
      // Another user on the same exhausted address is not affected.
      await from(testApp, '203.0.113.1').set('Authorization', author.authorization).expect(200);
    });

    it('never limits the operations routes outside the API', async () => {
      for (let sent = 0; sent < 10; sent += 1) await from(testApp, '203.0.113.1', '/health/live').expect(200);
    });
  });

  describe('client addresses behind proxies (TRUST_PROXY)', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await withEnv({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '0' }, () => createTestApp());
    });

    afterAll(async () => {
      await testApp.close();
    });

    it('ignores X-Forwarded-For from peers that are not trusted proxies, so that a client cannot pick its own address', async () => {
      for (const address of ['203.0.113.31', '203.0.113.32', '203.0.113.33']) await from(testApp, address).expect(200);
      expectTooManyRequests(await from(testApp, '203.0.113.34'));
    });
  });

  describe('failed Basic authentications', () => {
    let testApp: TestApp;
    let victim: TestUser;
    let bystander: TestUser;

    beforeAll(async () => {
      testApp = await withEnv({ AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_MINUTES: '15' }, () => createTestApp());
      victim = await createUser(testApp, 'author');
      bystander = await createUser(testApp, 'editor');
    });

    afterAll(async () => {
      await testApp.close();
    });

    it('lets the right password in from another address while a login is being guessed elsewhere; the guessing address waits', async () => {
      const lookups = jest.spyOn(testApp.app.get(UsersService), 'findWithApplicationPasswords');
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const response = await from(testApp, '192.0.2.1').set('Authorization', basicAuth(victim.login, `wrong password ${attempt}`));
        expect(response.status).toBe(attempt < 3 ? 401 : 429);
      }
      // Only the failures up to the limit were checked; the rest were refused unread.
      expect(lookups).toHaveBeenCalledTimes(3);
      // Address B, which has not been failing: the right password works.
      await from(testApp, '192.0.2.2').set('Authorization', victim.authorization).expect(200);
      // Address A: even the right password waits, told how long.
      const refused = await from(testApp, '192.0.2.1').set('Authorization', basicAuth(victim.login.toUpperCase(), victim.password));
      expectTooManyRequests(refused, 'too-many-login-failures');
      expect(refused.body.data.retry_after).toBeGreaterThan(0);
      expect(refused.body.data.retry_after).toBeLessThanOrEqual(30);
      expect(lookups).toHaveBeenCalledTimes(4);
      lookups.mockRestore();
    });

    it('pauses a guessing pair for longer with each failure past the limit, up to the window, rather than locking it', async () => {
      const now = jest.spyOn(Date, 'now');
      let clock = Date.now();
      now.mockImplementation(() => clock);
      try {
        const guess = () => from(testApp, '192.0.2.20').set('Authorization', basicAuth(victim.login, 'guess'));
        for (let attempt = 0; attempt < 3; attempt += 1) await guess().expect(401);
        const pauses: number[] = [];
        for (let round = 0; round < 7; round += 1) {
          const refused = await guess();
          expectTooManyRequests(refused, 'too-many-login-failures');
          pauses.push(refused.body.data.retry_after as number);
          // Once the pause is over the next guess is checked again, and fails.
          clock += pauses[round] * 1000;
          await guess().expect(401);
        }
        expect(pauses).toEqual([30, 60, 120, 240, 480, 900, 900]);
        // Past the pause the owner's right password is checked and accepted.
        clock += 900_000;
        await from(testApp, '192.0.2.20').set('Authorization', victim.authorization).expect(200);
        // Two windows after the last failure they are forgotten: three guesses are checked again.
        clock += 1_800_000;
        for (let attempt = 0; attempt < 3; attempt += 1) await guess().expect(401);
        expect((await guess()).body.data.retry_after).toBe(30);
      } finally {
        now.mockRestore();
      }
    });

    it('pauses an address after three failures, whatever login it tries next', async () => {
      for (const login of ['nobody1', 'nobody2'])
        await from(testApp, '192.0.2.50').set('Authorization', basicAuth(login, 'guess')).expect(401);
      await from(testApp, '192.0.2.50').set('Authorization', 'Basic !!!not-base64').expect(401);
      expectTooManyRequests(await from(testApp, '192.0.2.50').set('Authorization', bystander.authorization), 'too-many-login-failures');
      // The same address may still read anonymously; the limit is on authentication attempts.
      await from(testApp, '192.0.2.50').expect(200);
      await from(testApp, '192.0.2.51').set('Authorization', bystander.authorization).expect(200);
    });

    it('does not count successful authentications', async () => {
      for (let sent = 0; sent < 6; sent += 1) await from(testApp, '192.0.2.60').set('Authorization', bystander.authorization).expect(200);
    });
  });

  describe('failed Basic authentications with the default limit', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await withEnv({ AUTH_FAILURE_LIMIT: '10', AUTH_FAILURE_WINDOW_MINUTES: '15' }, () => createTestApp());
    });

    afterAll(async () => {
      await testApp.close();
    });

    it('keeps the administrator in: ten wrong passwords for admin from A, then the right one from B is 200 and from A is 429 with Retry-After', async () => {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await from(testApp, '198.51.100.1')
          .set('Authorization', basicAuth(ADMIN.login, `not the password ${attempt}`))
          .expect(401);
      }
      await from(testApp, '198.51.100.2').set('Authorization', basicAuth(ADMIN.login, ADMIN.password)).expect(200);
      expectTooManyRequests(
        await from(testApp, '198.51.100.1').set('Authorization', basicAuth(ADMIN.login, ADMIN.password)),
        'too-many-login-failures',
      );
    });
  });

  describe('counters shared through Redis (REDIS_URL)', () => {
    const prefix = `cal-test-${process.pid}-${Date.now()}:`;
    let first: TestApp;
    let second: TestApp;
    let redis: Redis;

    beforeAll(async () => {
      redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect().catch((error: Error) => {
        throw new Error(`These tests need Redis at ${TEST_REDIS_URL} (set TEST_REDIS_URL): ${error.message}`);
      });
      const env = {
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        RATE_LIMIT_PER_MINUTE: '4',
        AUTH_FAILURE_LIMIT: '2',
        COUPON_FAILURE_LIMIT: '2',
      };
      first = await withEnv(env, () => createTestApp());
      second = await withEnv(env, () => createTestApp());
    });

    afterAll(async () => {
      await first?.close();
      await second?.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    it('limits a client across instances: its requests count wherever the balancer sends them', async () => {
      for (const instance of [first, second, first, second]) await from(instance, '203.0.113.9').expect(200);
      expectTooManyRequests(await from(first, '203.0.113.9'));
      expectTooManyRequests(await from(second, '203.0.113.9'));
      await from(second, '203.0.113.10').expect(200);
    });

    it('counts failed logins across instances', async () => {
      await from(first, '192.0.2.70').set('Authorization', basicAuth('shared-login', 'guess 1')).expect(401);
      await from(second, '192.0.2.70').set('Authorization', basicAuth('shared-login', 'guess 2')).expect(401);
      expectTooManyRequests(
        await from(first, '192.0.2.70').set('Authorization', basicAuth('shared-login', 'guess 3')),
        'too-many-login-failures',
      );
      expectTooManyRequests(
        await from(second, '192.0.2.70').set('Authorization', basicAuth('another-login', 'guess 4')),
        'too-many-login-failures',
      );
      // Another address is not paused, on either instance.
      await from(second, '192.0.2.71').set('Authorization', basicAuth('shared-login', 'guess 5')).expect(401);
    });

    it('counts wrong coupon codes across instances, per address', async () => {
      await from(first, '192.0.2.90', '/cal/tickets/v1/tickets?coupon=GUESS1').expect(400);
      await from(second, '192.0.2.90', '/cal/tickets/v1/tickets?coupon=GUESS2').expect(400);
      expectTooManyRequests(await from(first, '192.0.2.90', '/cal/tickets/v1/tickets?coupon=GUESS3'), 'too-many-coupon-failures');
      expectTooManyRequests(await from(second, '192.0.2.90', '/cal/tickets/v1/tickets?coupon=GUESS4'), 'too-many-coupon-failures');
      await from(second, '192.0.2.91', '/cal/tickets/v1/tickets?coupon=GUESS5').expect(400);
    });

    it('keeps every key under REDIS_KEY_PREFIX, with an expiry', async () => {
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThanOrEqual(3);
      for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
      expect(keys.some((key) => key.includes('login-failures:pair:'))).toBe(true);
      expect(keys.some((key) => key.includes('code-failures:ip:'))).toBe(true);
      expect(keys.some((key) => key.endsWith(':pause'))).toBe(true);
      // Logins are stored hashed.
      expect(keys.some((key) => key.includes('shared-login'))).toBe(false);
    });

    it('lets requests through when Redis does not answer, rather than failing them', async () => {
      const port = await closedPort();
      // The start-up complaint goes to Nest's console logger before the app's own logger is set.
      const startupError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const cut = await withEnv({ REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '1', AUTH_FAILURE_LIMIT: '1' }, () =>
        createTestApp(),
      );
      expect(startupError).toHaveBeenCalledWith(expect.stringMatching(/^Redis \(REDIS_URL\) does not answer/));
      startupError.mockRestore();
      try {
        for (let sent = 0; sent < 3; sent += 1) await from(cut, '203.0.113.20').expect(200);
        for (let sent = 0; sent < 3; sent += 1)
          await from(cut, '203.0.113.20').set('Authorization', basicAuth('someone', 'wrong')).expect(401);
      } finally {
        await cut.close();
      }
    });
  });

  describe('request size and list lengths', () => {
    let testApp: TestApp;
    let admin: TestUser;

    beforeAll(async () => {
      testApp = await withEnv({ BODY_LIMIT_BYTES: '2048' }, () => createTestApp());
      admin = await createUser(testApp, 'administrator');
    });

    afterAll(async () => {
      await testApp.close();
    });

    const get = (path: string) => request(testApp.server).get(path).set('Authorization', admin.authorization);

    it('refuses a body over BODY_LIMIT_BYTES with 413 before anything else runs', async () => {
      const response = await request(testApp.server)
        .post('/cal/events/v1/events')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ title: 'x'.repeat(3000) }))
        .expect(413);
      expect(response.body).toMatchObject({ code: 'rest_request_too_large', data: { status: 413 } });
    });

    it('keeps per_page within 1..100: clamped on the events namespace, a 400 on the tickets namespace', async () => {
      const events = await get('/cal/events/v1/events?per_page=1000').expect(200);
      expect(events.body.rest_url).toContain('per_page=100');
      for (const path of ['/cal/tickets/v1/tickets', '/cal/tickets/v1/attendees', '/cal/tickets/v1/orders']) {
        for (const perPage of ['101', '0']) {
          const response = await get(`${path}?per_page=${perPage}`);
          expect({ path, perPage, status: response.status }).toEqual({ path, perPage, status: 400 });
        }
      }
    });

    const ids = (count: number) => Array.from({ length: count }, (_unused, index) => index + 1).join(',');
    const words = (word: string, count: number) => Array.from({ length: count }, () => word).join(',');

    it.each([
      ['/cal/events/v1/events', 'include', ids],
      ['/cal/events/v1/events', 'venue', ids],
      ['/cal/events/v1/events', 'organizer', ids],
      ['/cal/events/v1/events', 'categories', ids],
      ['/cal/events/v1/events', 'tags', ids],
      ['/cal/events/v1/events', 'status', (count: number) => words('publish', count)],
      ['/cal/events/v1/venues', 'status', (count: number) => words('publish', count)],
      ['/cal/events/v1/organizers', 'status', (count: number) => words('publish', count)],
      ['/cal/events/v1/categories', 'include', ids],
      ['/cal/events/v1/categories', 'exclude', ids],
      ['/cal/events/v1/tags', 'include', ids],
      ['/cal/events/v1/tags', 'exclude', ids],
      ['/cal/tickets/v1/tickets', 'include', ids],
      ['/cal/tickets/v1/tickets', 'exclude', ids],
      ['/cal/tickets/v1/tickets', 'include_post', ids],
      ['/cal/tickets/v1/tickets', 'exclude_post', ids],
      ['/cal/tickets/v1/tickets', 'provider', (count: number) => words('rsvp', count)],
      ['/cal/tickets/v1/tickets', 'status', (count: number) => words('publish', count)],
      ['/cal/tickets/v1/tickets', 'post_status', (count: number) => words('publish', count)],
      ['/cal/tickets/v1/tickets', 'currency', (count: number) => words('USD', count)],
      ['/cal/tickets/v1/attendees', 'include', ids],
      ['/cal/tickets/v1/attendees', 'exclude', ids],
      ['/cal/tickets/v1/attendees', 'include_post', ids],
      ['/cal/tickets/v1/attendees', 'exclude_post', ids],
      ['/cal/tickets/v1/attendees', 'include_ticket', ids],
      ['/cal/tickets/v1/attendees', 'exclude_ticket', ids],
      ['/cal/tickets/v1/attendees', 'rsvp_going_status', (count: number) => words('yes', count)],
      ['/cal/tickets/v1/cart', 'provider', (count: number) => words('rsvp', count)],
      ['/cal/tickets/v1/orders', 'status', (count: number) => words('completed', count)],
    ])(`caps %s?%s at ${MAX_LIST_VALUES} values with a 400 naming it`, async (path, field, values) => {
      const tooLong = await get(`${path}?${field}=${values(MAX_LIST_VALUES + 1)}`).expect(400);
      expect(tooLong.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { [field]: `${field} may hold at most ${MAX_LIST_VALUES} values` } },
      });
      // At the cap the list is read (ids that name nothing may still be refused, for another reason).
      const atCap = await get(`${path}?${field}=${values(MAX_LIST_VALUES)}`);
      expect(JSON.stringify(atCap.body)).not.toContain('may hold at most');
      expect(atCap.status).toBeLessThan(500);
    });

    it('counts repeated keys and bracket lists the same as comma-separated ones', async () => {
      const repeated = Array.from({ length: MAX_LIST_VALUES + 1 }, (_unused, index) => `include=${index + 1}`).join('&');
      const response = await get(`/cal/tickets/v1/tickets?${repeated}`).expect(400);
      expect(Object.keys(response.body.data.params)).toEqual(['include']);
      const brackets = Array.from({ length: MAX_LIST_VALUES + 1 }, (_unused, index) => `include[]=${index + 1}`).join('&');
      const bracketed = await get(`/cal/tickets/v1/tickets?${brackets}`).expect(400);
      expect(Object.keys(bracketed.body.data.params)).toEqual(['include']);
    });
  });
});
