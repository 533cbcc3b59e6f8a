import { Writable } from 'node:stream';
import request from 'supertest';
import { LOG_DESTINATION } from '../src/common/security/log-redaction';
import { checkout, fillCart, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, setTicketCounts } from './helpers/ticketing-fixtures';

// Requests are logged at info, so that the request ids in the logs can be compared with the responses'.
process.env.LOG_LEVEL = 'info';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (format 0.0.4). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels: Record<string, string> = {};
      for (const label of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]] = label[2];
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

describe('Metrics (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  const logLines: string[] = [];
  const logCapture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });

  const http = () => request(testApp.server);

  async function scrape(): Promise<Sample[]> {
    const response = await http().get('/metrics').expect(200);
    return parseExposition(response.text);
  }

  /** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
  function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
    const matching = samples.filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
    if (matching.length > 1) throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return matching[0]?.value ?? 0;
  }

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: LOG_DESTINATION, useValue: logCapture }] });
    editor = await createUser(testApp, 'editor');
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('the scrape', () => {
    it('serves the Prometheus text format at /metrics, outside the API root, with the process metrics', async () => {
      const response = await http().get('/metrics').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; .*version=0\.0\.4/);
      const names = new Set(parseExposition(response.text).map((sample) => sample.name));
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_seconds',
        'cal_db_lock_conflicts_total',
      ]) {
        expect(names).toContain(name);
      }
      expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
      expect((await http().get('/cal/metrics').expect(404)).body.code).toBe('rest_no_route');
    });

    it('is documented in the OpenAPI document as an operations route', async () => {
      const doc = (await http().get('/docs-json').expect(200)).body;
      expect(doc.paths['/metrics'].get.tags).toEqual(['operations']);
      expect(doc.paths['/metrics'].get.responses['200'].content).toHaveProperty('text/plain');
    });
  });

  describe('requests', () => {
    it('counts requests and their latency by route pattern and status, never by raw URL', async () => {
      const route = '/cal/events/v1/events/:id';
      const before = await scrape();
      await http().get('/cal/events/v1/events/987654').expect(404);
      await http().get('/cal/events/v1/events/987655').expect(404);
      await http().get('/cal/events/v1/events').expect(200);
      const after = await scrape();
      const labels = { method: 'GET', route, status_code: '404' };
      expect(valueOf(after, 'http_requests_total', labels) - valueOf(before, 'http_requests_total', labels)).toBe(2);
      expect(
        valueOf(after, 'http_request_duration_seconds_count', labels) - valueOf(before, 'http_request_duration_seconds_count', labels),
      ).toBe(2);
      expect(valueOf(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
        valueOf(after, 'http_request_duration_seconds_count', labels),
      );
      expect(valueOf(after, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
      expect(
        valueOf(after, 'http_requests_total', { method: 'GET', route: '/cal/events/v1/events', status_code: '200' }),
      ).toBeGreaterThanOrEqual(1);
      expect(after.some((sample) => sample.labels.route?.includes('987654'))).toBe(false);
    });

    it('labels what no route handled as unmatched, whatever the URL', async () => {
      const before = await scrape();
      await http().get('/cal/events/v1/nowhere-1').expect(404);
      await http().get('/no/such/path').expect(404);
      const after = await scrape();
      const labels = { method: 'GET', route: 'unmatched', status_code: '404' };
      expect(valueOf(after, 'http_requests_total', labels) - valueOf(before, 'http_requests_total', labels)).toBe(2);
      expect(after.some((sample) => /nowhere|such|\*/.test(sample.labels.route ?? ''))).toBe(false);
    });

    it('counts requests refused by authentication under their route', async () => {
      await http().get('/cal/events/v1/events').set('Authorization', basicAuth('nobody', 'wrong')).expect(401);
      const samples = await scrape();
      expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/cal/events/v1/events', status_code: '401' })).toBe(1);
    });

    it('counts bodies the parsers refuse', async () => {
      const before = await scrape();
      await http().post('/cal/tickets/v1/cart').set('Content-Type', 'application/json').send('{"provider":').expect(400);
      const after = await scrape();
      const refused = (samples: Sample[]) =>
        samples
          .filter(
            (sample) => sample.name === 'http_requests_total' && sample.labels.method === 'POST' && sample.labels.status_code === '400',
          )
          .reduce((sum, sample) => sum + sample.value, 0);
      expect(refused(after) - refused(before)).toBe(1);
    });
  });

  describe('sales and checkouts', () => {
    it('counts tickets sold at a free checkout and when a paid order is completed, not while it is pending', async () => {
      const event = await insertEvent(testApp.dataSource, { authorId: editor.id });
      const rsvp = await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacity: 50 });
      const paid = await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'tc', price: '30.00', capacity: 50 });
      const before = await scrape();

      const rsvpBuyer = await fillCart(testApp, {}, 'rsvp', [{ ticket_id: rsvp.id, quantity: 3 }]);
      await checkout(testApp, rsvpBuyer, { provider: 'rsvp', purchaser: PURCHASER }).expect(201);
      const notGoing = await fillCart(testApp, {}, 'rsvp', [{ ticket_id: rsvp.id, quantity: 2 }]);
      await checkout(testApp, notGoing, { provider: 'rsvp', purchaser: PURCHASER, going: false }).expect(201);
      const paidBuyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: paid.id, quantity: 2 }]);
      const pending = await checkout(testApp, paidBuyer, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      expect(pending.body.status).toBe('pending');

      const afterCheckouts = await scrape();
      expect(
        valueOf(afterCheckouts, 'cal_tickets_sold_total', { provider: 'rsvp' }) -
          valueOf(before, 'cal_tickets_sold_total', { provider: 'rsvp' }),
      ).toBe(3);
      expect(valueOf(afterCheckouts, 'cal_tickets_sold_total', { provider: 'tc' })).toBe(
        valueOf(before, 'cal_tickets_sold_total', { provider: 'tc' }),
      );

      await http().post(`${ORDERS_PATH}/${pending.body.id}/complete`).set('Authorization', editor.authorization).send({}).expect(200);
      // Completing twice is refused and sells nothing more.
      await http().post(`${ORDERS_PATH}/${pending.body.id}/complete`).set('Authorization', editor.authorization).send({}).expect(409);
      const afterCompletion = await scrape();
      expect(
        valueOf(afterCompletion, 'cal_tickets_sold_total', { provider: 'tc' }) -
          valueOf(before, 'cal_tickets_sold_total', { provider: 'tc' }),
      ).toBe(2);
    });

    it('does not count a replayed checkout again', async () => {
      const event = await insertEvent(testApp.dataSource);
      const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacity: 10 });
      const buyer = await fillCart(testApp, {}, 'rsvp', [{ ticket_id: ticket.id, quantity: 1 }]);
      const before = await scrape();
      await checkout(testApp, buyer, { provider: 'rsvp', purchaser: PURCHASER }, 'metrics-replay').expect(201);
      const replay = await checkout(testApp, buyer, { provider: 'rsvp', purchaser: PURCHASER }, 'metrics-replay').expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const after = await scrape();
      expect(
        valueOf(after, 'cal_tickets_sold_total', { provider: 'rsvp' }) - valueOf(before, 'cal_tickets_sold_total', { provider: 'rsvp' }),
      ).toBe(1);
    });

    it('counts failed checkouts by the error code of the answer', async () => {
      const event = await insertEvent(testApp.dataSource);
      const scarce = await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'tc', price: '10.00', capacity: 1 });
      const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: scarce.id, quantity: 1 }]);
      // Someone else buys the last unit between the cart write and the checkout.
      await setTicketCounts(testApp.dataSource, scarce.id, { sold: 1 });
      const before = await scrape();

      const emptyCart = await checkout(testApp, {}, { provider: 'tc', purchaser: PURCHASER }).expect(400);
      expect(emptyCart.body.code).toBe('cart-empty');
      const missing = await checkout(testApp, {}, { provider: 'tc' }).expect(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
      const soldOut = await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }).expect(409);
      expect(soldOut.body.code).toBe('ticket-capacity-not-available');

      const after = await scrape();
      const increase = (reason: string) =>
        valueOf(after, 'cal_checkouts_failed_total', { reason }) - valueOf(before, 'cal_checkouts_failed_total', { reason });
      expect(increase('cart-empty')).toBe(1);
      expect(increase('rest_missing_callback_param')).toBe(1);
      expect(increase('ticket-capacity-not-available')).toBe(1);
    });
  });

  describe('request ids', () => {
    /** The completion lines logged for requests carrying this id. */
    const completions = (id: string) =>
      logLines
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; req?: { id?: string; url?: string }; res?: { statusCode?: number } })
        .filter((entry) => entry.msg === 'request completed' && entry.req?.id === id);

    it('logs each request with the id its response carries, the caller’s or a new one', async () => {
      const kept = await http().get('/cal/events/v1/events/987656').set('X-Request-Id', 'trace-e1-42').expect(404);
      expect(kept.headers['x-request-id']).toBe('trace-e1-42');
      expect(completions('trace-e1-42')).toEqual([
        expect.objectContaining({
          req: expect.objectContaining({ url: '/cal/events/v1/events/987656' }),
          res: expect.objectContaining({ statusCode: 404 }),
        }),
      ]);
      const generated = await http().get('/cal/events/v1/events').expect(200);
      expect(completions(generated.headers['x-request-id'])).toHaveLength(1);
    });
  });

  describe('database pool', () => {
    const isMysql = () => testApp.dataSource.options.type === 'mysql';

    it('reports the MySQL pool in use, idle, queued and its size (none on SQLite, which has no pool)', async () => {
      const samples = await scrape();
      const poolSamples = samples.filter((sample) => sample.name.startsWith('db_pool_'));
      if (!isMysql()) {
        expect(poolSamples).toEqual([]);
        return;
      }
      const size = valueOf(samples, 'db_pool_max_connections', { pool: 'primary' });
      expect(size).toBe(Number(process.env.DATABASE_POOL_SIZE || 10));
      const inUse = valueOf(samples, 'db_pool_connections', { pool: 'primary', state: 'in_use' });
      const idle = valueOf(samples, 'db_pool_connections', { pool: 'primary', state: 'idle' });
      expect(idle).toBeGreaterThanOrEqual(1);
      expect(inUse + idle).toBeLessThanOrEqual(size);
      expect(valueOf(samples, 'db_pool_queued_requests', { pool: 'primary' })).toBe(0);
    });
  });
});
