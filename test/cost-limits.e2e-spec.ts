import request from 'supertest';
import { MAX_CART_LINES } from '../src/cart/dto/update-cart.dto';
import { EventReads } from '../src/catalogue/event-reads.service';
import { RICH_TEXT_MAX_BYTES, RICH_TEXT_MAX_TAGS } from '../src/common/security/text-sanitizing';
import { COSTLY_ROUTE_WEIGHT } from '../src/common/throttling/rate-limit.guard';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const EVENTS_API = '/cal/events/v1';
const CART = '/cal/tickets/v1/cart';

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

/** CPU time (user + system, ms) this process spends on `work`, the app under test included. */
async function cpuMillis<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, cpuMs: (used.user + used.system) / 1000 };
}

function expectInvalidParam(response: request.Response, field: string): void {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { [field]: expect.any(String) } } });
}

describe('Oversize input is refused before expensive work (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  const http = () => request(testApp.server);

  beforeAll(async () => {
    // Room for the 1 MB bodies of the issue, so that what refuses them is the check under test.
    testApp = await withEnv({ BODY_LIMIT_BYTES: String(2 * 1024 * 1024) }, () => createTestApp());
    editor = await createUser(testApp, 'editor');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const EVENT = { title: 'Sized', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00' };

  it(`refuses a cart of 36 000 lines (1 MB) with 400 naming tickets, counting its lines before reading any (at most ${MAX_CART_LINES})`, async () => {
    // Every line is invalid: had any been read, the answer would name it (`tickets[0][ticket_id]`).
    const body = JSON.stringify({ provider: 'tc', tickets: Array.from({ length: 36_000 }, () => ({ ticket_id: 'one', quantity: 'x' })) });
    expect(body.length).toBeGreaterThan(1_000_000);
    // Warm up the route, so that the CPU printed is of the refusal alone (printed, never asserted: a
    // loaded machine stretches it).
    await http()
      .post(CART)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ provider: 'tc', tickets: Array.from({ length: 101 }, () => ({ ticket_id: 1, quantity: 1 })) }));
    const { result, cpuMs } = await cpuMillis(() => http().post(CART).set('Content-Type', 'application/json').send(body));
    console.info(`cart of 36 000 lines refused in ${cpuMs.toFixed(1)} ms of CPU`);
    expectInvalidParam(result, 'tickets');
    expect(result.body.data.params).toEqual({ tickets: `tickets may hold at most ${MAX_CART_LINES} items` });
  });

  it('refuses more registration answer lines than cart lines the same way', async () => {
    const response = await http()
      .post(CART)
      .send({ provider: 'tc', meta: Array.from({ length: MAX_CART_LINES + 1 }, () => ({ ticket_id: 1, items: [] })) });
    expectInvalidParam(response, 'meta');
  });

  it('still reads a cart of 100 lines line by line, naming the wrong one', async () => {
    const tickets = Array.from({ length: MAX_CART_LINES }, (_unused, index) => ({ ticket_id: index + 1, quantity: index === 7 ? -1 : 1 }));
    const response = await http().post(CART).send({ provider: 'tc', tickets });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('quantity must not be negative');
  });

  it.each(['categories', 'tags', 'venue', 'organizer'])(
    'refuses an event body whose %s list holds more than 100 values before reading them',
    async (field) => {
      const response = await http()
        .post(`${EVENTS_API}/events`)
        .set('Authorization', editor.authorization)
        .send({ ...EVENT, [field]: Array.from({ length: 20_000 }, (_unused, index) => ({ id: index + 1, name: `n${index}` })) });
      expectInvalidParam(response, field);
      expect(response.body.data.params[field]).toBe(`${field} may hold at most 100 values`);
    },
  );

  it(`refuses a description of more than ${RICH_TEXT_MAX_TAGS} tags with 400 naming it, before sanitising it`, async () => {
    const description = '<b>x</b>'.repeat(RICH_TEXT_MAX_TAGS / 2 + 1);
    const response = await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({ ...EVENT, description });
    expectInvalidParam(response, 'description');
    expect(response.body.data.params.description).toBe(`description may hold at most ${RICH_TEXT_MAX_TAGS} HTML tags`);
    // Just within the limit: accepted.
    await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({ ...EVENT, description: '<b>x</b>'.repeat(RICH_TEXT_MAX_TAGS / 2) })
      .expect(201);
  });

  it('refuses a 1 MB description full of tags by its size, before parsing it, naming it', async () => {
    const description = '<b><i>x</i></b>'.repeat(65_536);
    const { result, cpuMs } = await cpuMillis(() =>
      http()
        .post(`${EVENTS_API}/events`)
        .set('Authorization', editor.authorization)
        .send({ ...EVENT, description }),
    );
    console.info(`1 MB description refused in ${cpuMs.toFixed(1)} ms of CPU`);
    expectInvalidParam(result, 'description');
    // The size is checked before the tags are parsed: the answer is about bytes, not tags.
    expect(result.body.data.params.description).toBe(`description must be at most ${RICH_TEXT_MAX_BYTES} bytes long`);
  });

  it('applies the same limits to the rich text of venues and organizers, inside an event body or not, and to term descriptions', async () => {
    const description = '<i>y</i>'.repeat(RICH_TEXT_MAX_TAGS / 2 + 1);
    const venue = await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({ ...EVENT, venue: { venue: 'Tagged hall', description } });
    expectInvalidParam(venue, 'venue[description]');
    const organizer = await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({ ...EVENT, organizer: [{ organizer: 'Tagged people', excerpt: description }] });
    expectInvalidParam(organizer, 'organizer[excerpt]');
    const direct = await http()
      .post(`${EVENTS_API}/venues`)
      .set('Authorization', editor.authorization)
      .send({ venue: 'Tagged hall', description });
    expectInvalidParam(direct, 'description');
    const term = await http()
      .post(`${EVENTS_API}/categories`)
      .set('Authorization', editor.authorization)
      .send({ name: 'Tagged term', description });
    expectInvalidParam(term, 'description');
  });

  describe('the iCalendar feed, limited by cost', () => {
    let limited: TestApp;
    const from = (address: string, path: string) => request(limited.server).get(path).set('X-Forwarded-For', address);

    let writer: TestUser;

    beforeAll(async () => {
      limited = await withEnv({ RATE_LIMIT_PER_MINUTE: '600' }, () => createTestApp());
      writer = await createUser(limited, 'editor');
    });

    afterAll(async () => {
      await limited.close();
    });

    it(`gives one client ${600 / COSTLY_ROUTE_WEIGHT} feeds a minute (a hundredth of its 600 requests), leaving its other requests and other clients alone`, async () => {
      const feeds = 600 / COSTLY_ROUTE_WEIGHT;
      for (let sent = 0; sent < feeds; sent += 1) await from('203.0.113.40', `${EVENTS_API}/events/ics`).expect(200);
      const refused = await from('203.0.113.40', `${EVENTS_API}/events/ics`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rest_too_many_requests', data: { status: 429, retry_after: expect.any(Number) } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The same client's ordinary requests still have their budget; another client its feeds.
      await from('203.0.113.40', `${EVENTS_API}/events`).expect(200);
      await from('203.0.113.41', `${EVENTS_API}/events/ics`).expect(200);
    });

    it('builds a feed once for callers asking for it at the same time, and serves it again until the events change', async () => {
      const events = limited.app.get(EventReads);
      const original = events.findForFeed.bind(events);
      const builds = jest.spyOn(events, 'findForFeed').mockImplementation(async (...args) => {
        // Slow enough that every request below arrives while the first build runs.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return original(...args);
      });
      // One host for every request: the feed's URL, and so what is shared, depends on it.
      const feedFrom = (address: string, path: string) => from(address, path).set('Host', 'feeds.example.org');
      try {
        const path = `${EVENTS_API}/events/ics?start_date=2027-01-01`;
        const responses = await Promise.all(
          ['203.0.113.50', '203.0.113.51', '203.0.113.52', '203.0.113.53'].map((address) => feedFrom(address, path)),
        );
        expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
        expect(new Set(responses.map((response) => response.text)).size).toBe(1);
        expect(builds).toHaveBeenCalledTimes(1);
        // A later request is served as built, until an event is written; another query is built on its own.
        expect((await feedFrom('203.0.113.50', path).expect(200)).text).toBe(responses[0].text);
        expect(builds).toHaveBeenCalledTimes(1);
        await request(limited.server)
          .post(`${EVENTS_API}/events`)
          .set('Authorization', writer.authorization)
          .send({ title: 'Fresh in the feed', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', status: 'publish' })
          .expect(201);
        expect((await feedFrom('203.0.113.50', path).expect(200)).text).toContain('SUMMARY:Fresh in the feed');
        expect(builds).toHaveBeenCalledTimes(2);
        await feedFrom('203.0.113.51', `${EVENTS_API}/events/ics?start_date=2027-02-01`).expect(200);
        expect(builds).toHaveBeenCalledTimes(3);
      } finally {
        builds.mockRestore();
      }
    });
  });
});
