import request from 'supertest';
import { HttpCaching } from '../src/common/http/http-caching';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';
import { postTicket } from './helpers/ticket-fixtures';

/**
 * The anonymous single-event GET answered before Nest's router (src/events/anonymous-event-read.middleware.ts)
 * must answer exactly what the routed handler answers: same status, bytes and headers, for every
 * kind of event and error, conditional GETs, HEAD and the request limit. A query string sends the
 * same request through the routed handler (the handler reads none), so each case is asked both ways.
 */
process.env.PUBLIC_URL = 'https://calendar.example.org';

const admin = basicAuth(ADMIN.login, ADMIN.password);
const EVENTS = '/cal/events/v1/events';

/** Headers that differ from one answer to the next whatever answered it. */
const PER_ANSWER_HEADERS = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

type Body = Record<string, any>;

function daysAhead(days: number, time = '19:00:00'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${time}`;
}

function comparable(response: request.Response): { status: number; text: string; headers: Record<string, unknown> } {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !PER_ANSWER_HEADERS.has(name)));
  return { status: response.status, text: response.text ?? '', headers };
}

describe('Anonymous single-event read before the router (e2e)', () => {
  let testApp: TestApp;
  let routed: jest.SpyInstance;
  const events: Record<string, Body> = {};

  const post = async (path: string, body: Body) =>
    (await request(testApp.server).post(`/cal/events/v1/${path}`).set('Authorization', admin).send(body).expect(201)).body as Body;

  /** The same request through the middleware and through the routed handler; asserts which answered. */
  async function bothWays(path: string, prepare: (test: request.Test) => request.Test = (test) => test, method: 'get' | 'head' = 'get') {
    routed.mockClear();
    const fast = await prepare(request(testApp.server)[method](path));
    expect(routed).not.toHaveBeenCalled();
    const slow = await prepare(request(testApp.server)[method](`${path}?via=router`));
    expect(routed).toHaveBeenCalledTimes(1);
    return { fast, slow };
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    routed = jest.spyOn(HttpCaching.prototype, 'beforeHandler');
    const venue = await post('venues', { venue: 'Hall', city: 'Lyon' });
    const organizer = await post('organizers', { organizer: 'Ada' });
    const category = await post('categories', { name: 'Concerts' });
    const tag = await post('tags', { name: 'Jazz' });
    const fields = { start_date: daysAhead(3), end_date: daysAhead(3, '22:00:00') };
    events.published = await post('events', {
      title: 'Linked concert',
      ...fields,
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    });
    events.ticketed = await post('events', { title: 'Ticketed concert', ...fields });
    await postTicket(testApp.server, admin, events.ticketed.id, { price: '12.50', capacity: 40 });
    events.draft = await post('events', { title: 'Draft', status: 'draft', ...fields });
    events.trashed = await post('events', { title: 'Trashed', ...fields });
    await request(testApp.server).delete(`${EVENTS}/${events.trashed.id}`).set('Authorization', admin).expect(200);
  });

  afterAll(async () => {
    routed?.mockRestore();
    await testApp?.close();
  });

  it.each(['published', 'ticketed'])('answers a %s event with the routed handler’s bytes and headers, public and keyed', async (kind) => {
    const { fast, slow } = await bothWays(`${EVENTS}/${events[kind].id}`);
    expect(fast.status).toBe(200);
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(fast.body.id).toBe(events[kind].id);
    expect(fast.headers['cache-control']).toBe('public, no-cache');
    expect(fast.headers['surrogate-key']).toContain(`event-${events[kind].id}`);
    expect(fast.headers['etag']).toMatch(/^"/);
    expect(fast.headers['x-ratelimit-limit']).toBeDefined();
  });

  it.each([
    ['a draft', () => events.draft.id, 403, 'event-not-accessible'],
    ['a trashed event', () => events.trashed.id, 403, 'event-no-longer-available'],
    ['a missing event', () => 987654, 404, 'rest-event-not-found'],
    ['an id past the column', () => '99999999999999', 404, 'rest-event-not-found'],
  ])('answers %s in the same private error envelope', async (_name, id, status, code) => {
    const { fast, slow } = await bothWays(`${EVENTS}/${id()}`);
    expect(fast.status).toBe(status);
    expect(fast.body).toEqual({ code, message: expect.any(String), data: { status } });
    expect(fast.headers['cache-control']).toBe('private, no-cache');
    expect(comparable(fast)).toEqual(comparable(slow));
  });

  it('answers a matching If-None-Match with the same 304, and a stale one with the body', async () => {
    const path = `${EVENTS}/${events.ticketed.id}`;
    const { etag } = (await request(testApp.server).get(path).expect(200)).headers;
    const matching = await bothWays(path, (test) => test.set('If-None-Match', etag));
    expect(matching.fast.status).toBe(304);
    expect(matching.fast.text).toBe('');
    expect(comparable(matching.fast)).toEqual(comparable(matching.slow));
    const stale = await bothWays(path, (test) => test.set('If-None-Match', '"stale"'));
    expect(stale.fast.status).toBe(200);
    expect(comparable(stale.fast)).toEqual(comparable(stale.slow));
  });

  it('answers HEAD with the GET’s headers and no body', async () => {
    const { fast, slow } = await bothWays(`${EVENTS}/${events.published.id}`, undefined, 'head');
    expect(fast.status).toBe(200);
    expect(fast.text ?? '').toBe('');
    expect(comparable(fast)).toEqual(comparable(slow));
  });

  it('leaves a caller with credentials, and any other route under events/, to the router', async () => {
    routed.mockClear();
    const signedIn = await request(testApp.server).get(`${EVENTS}/${events.draft.id}`).set('Authorization', admin).expect(200);
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    expect(signedIn.headers['surrogate-key']).toBeUndefined();
    const refused = await request(testApp.server)
      .get(`${EVENTS}/${events.draft.id}`)
      .set('Authorization', basicAuth('admin', 'wrong'))
      .expect(401);
    expect(refused.body.data.status).toBe(401);
    await request(testApp.server).get(`${EVENTS}/ics`).expect(200);
    await request(testApp.server).get(`${EVENTS}/by-slug/${events.published.slug}`).expect(200);
    await request(testApp.server).get(`${EVENTS}/-1`).expect(404);
    expect(routed).toHaveBeenCalledTimes(4);
  });
});

describe('Anonymous single-event read and the request limit (e2e)', () => {
  let testApp: TestApp;
  let eventId: number;
  const saved = process.env.RATE_LIMIT_PER_MINUTE;

  beforeAll(async () => {
    process.env.RATE_LIMIT_PER_MINUTE = '3';
    try {
      testApp = await createTestApp();
    } finally {
      process.env.RATE_LIMIT_PER_MINUTE = saved;
    }
    const created = await request(testApp.server)
      .post(EVENTS)
      .set('Authorization', admin)
      .send({ title: 'Limited', start_date: daysAhead(2), end_date: daysAhead(2, '21:00:00') })
      .expect(201);
    eventId = created.body.id;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('counts each read against the caller’s budget, across both paths, and refuses the fourth with 429', async () => {
    const from = (path: string) => request(testApp.server).get(path).set('X-Forwarded-For', '203.0.113.40');
    const first = await from(`${EVENTS}/${eventId}`).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('3');
    expect(first.headers['x-ratelimit-remaining']).toBe('2');
    expect((await from(`${EVENTS}/${eventId}?via=router`).expect(200)).headers['x-ratelimit-remaining']).toBe('1');
    // A refused read (404) counts as much as an answered one.
    expect((await from(`${EVENTS}/987654`).expect(404)).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await from(`${EVENTS}/${eventId}`).expect(429);
    expect(refused.body).toEqual({
      code: 'rest_too_many_requests',
      message: expect.any(String),
      data: { status: 429, retry_after: expect.any(Number) },
    });
    expect(refused.headers['retry-after']).toBe(String(refused.body.data.retry_after));
    expect(refused.headers['cache-control']).toBeUndefined();
    // Another address has its own budget.
    await request(testApp.server).get(`${EVENTS}/${eventId}`).set('X-Forwarded-For', '203.0.113.41').expect(200);
  });
});
