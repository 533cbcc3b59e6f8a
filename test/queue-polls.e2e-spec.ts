import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { CLOCK } from '../src/common/clock';
import { HttpCaching } from '../src/common/http/http-caching';
import { insertEvent } from './helpers/fixtures';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';
import { insertTicket, TestClock } from './helpers/ticketing-fixtures';

/**
 * The waiting room's status polls answered before Nest's router (src/queues/queue-poll.middleware.ts)
 * must answer exactly what the routed handlers answer: same status, bytes and headers, for an entry
 * and the shared status, their 404s, conditional GETs and HEAD. A query string sends the same
 * request through the routed handler (it reads none), so each case is asked both ways.
 */
const admin = basicAuth(ADMIN.login, ADMIN.password);
const QUEUES = '/cal/tickets/v1/queues';

/** Headers that differ from one answer to the next whatever answered it. */
const PER_ANSWER_HEADERS = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

function comparable(response: request.Response): { status: number; text: string; headers: Record<string, unknown> } {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !PER_ANSWER_HEADERS.has(name)));
  return { status: response.status, text: response.text ?? '', headers };
}

describe('Waiting-room status polls before the router (e2e)', () => {
  const clock = new TestClock();
  let testApp: TestApp;
  let routed: jest.SpyInstance;
  let queueId: number;
  const requestId = randomBytes(12).toString('hex');

  /** The same request through the middleware and through the routed handler; asserts which answered. */
  async function bothWays(path: string, prepare: (test: request.Test) => request.Test = (test) => test, method: 'get' | 'head' = 'get') {
    routed.mockClear();
    const fast = await prepare(request(testApp.server)[method](path));
    expect(routed).not.toHaveBeenCalled();
    const slow = await prepare(request(testApp.server)[method](`${path}?via=router`));
    expect(routed).toHaveBeenCalledTimes(1);
    expect(comparable(fast)).toEqual(comparable(slow));
    return fast;
  }

  beforeAll(async () => {
    clock.set(new Date('2030-03-01T10:00:00Z'));
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    routed = jest.spyOn(HttpCaching.prototype, 'beforeHandler');
    const event = await insertEvent(testApp.dataSource);
    await insertTicket(testApp.dataSource, { eventId: event.id, price: '10.00', capacity: 50 });
    const queue = await request(testApp.server)
      .post(QUEUES)
      .set('Authorization', admin)
      .send({
        post_id: event.id,
        prequeue_opens_at: clock.now().toISOString(),
        opens_at: new Date(clock.now().getTime() + 60_000).toISOString(),
        max_active: 10,
        max_admit_per_minute: 60,
        admission_minutes: 10,
      })
      .expect(201);
    queueId = queue.body.id as number;
    const secretHash = createHash('sha256').update(randomBytes(32)).digest('hex');
    await request(testApp.server).post(`${QUEUES}/${queueId}/entries`).send({ request_id: requestId, secret_hash: secretHash }).expect(202);
  });

  afterAll(async () => {
    routed?.mockRestore();
    await testApp?.close();
  });

  it("answers an entry's place with the routed handler's bytes and headers, public for a second under the queue's surrogate key", async () => {
    const answer = await bothWays(`${QUEUES}/${queueId}/entries/${requestId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ request_id: requestId, status: 'prequeue' });
    expect(answer.headers['cache-control']).toBe('public, max-age=1');
    expect(answer.headers['surrogate-key']).toBe(`queue-${queueId}`);
  });

  it('answers the shared status the same, public for a second under the queue’s surrogate key', async () => {
    const answer = await bothWays(`${QUEUES}/${queueId}/status`);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=1');
    expect(answer.headers['surrogate-key']).toBe(`queue-${queueId}`);
  });

  it('answers the same 404s: an unknown queue on both routes, an unknown entry', async () => {
    expect((await bothWays(`${QUEUES}/999999/status`)).body.code).toBe('queue-not-found');
    expect((await bothWays(`${QUEUES}/999999/entries/${requestId}`)).body.code).toBe('queue-not-found');
    const unknown = await bothWays(`${QUEUES}/${queueId}/entries/${'f'.repeat(24)}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'queue-entry-not-found']);
  });

  it('answers HEAD and a conditional GET (304 on the ETag) the same', async () => {
    await bothWays(`${QUEUES}/${queueId}/status`, (test) => test, 'head');
    const first = await request(testApp.server).get(`${QUEUES}/${queueId}/entries/${requestId}`).expect(200);
    const etag = first.headers.etag;
    expect(etag).toBeDefined();
    const answer = await bothWays(`${QUEUES}/${queueId}/entries/${requestId}`, (test) => test.set('If-None-Match', etag));
    expect(answer.status).toBe(304);
  });

  it('leaves callers with credentials and request ids the route refuses to the router', async () => {
    routed.mockClear();
    await request(testApp.server).get(`${QUEUES}/${queueId}/status`).set('Authorization', admin).expect(200);
    const refused = await request(testApp.server).get(`${QUEUES}/${queueId}/entries/x`).expect(400);
    expect(refused.body.code).toBe('rest_invalid_param');
    expect(routed).toHaveBeenCalledTimes(2);
  });
});
