import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { Attendee } from '../src/attendees/attendee.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { WebhookEndpoint } from '../src/webhooks/webhook-endpoint.entity';
import { OutboxWorker } from '../src/outbox-worker/outbox-worker.service';
import { checkout, fillCart } from './helpers/buyers';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket } from './helpers/ticketing-fixtures';

// Several app instances, a real SMTP server or receiver and many deliveries per test: slow on a loaded machine.
jest.setTimeout(120_000);

// The strict instance below must see the first one's rows: on SQLite that needs a file, not :memory:.
if (!process.env.TEST_DATABASE_URL) process.env.DATABASE_URL = `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-webhooks-')), 'cal.sqlite')}`;

const WEBHOOKS = '/cal/tickets/v1/webhooks';
const ADMIN_AUTH = basicAuth(ADMIN.login, ADMIN.password);

interface Received {
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A webhook receiver that verifies every signature with the Standard Webhooks library and answers as told. */
class Receiver {
  readonly received: Received[] = [];
  /** Statuses to answer, in turn; 200 once they run out. */
  answers: number[] = [];
  secret = '';
  hang = false;
  private server: Server | null = null;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
        let verified: boolean;
        try {
          new Webhook(this.secret).verify(body, headers);
          verified = true;
        } catch {
          verified = false;
        }
        this.received.push({ headers, body, verified, payload: JSON.parse(body) as Received['payload'] });
        if (this.hang) return;
        const status = this.answers.shift() ?? 200;
        if (status >= 300 && status < 400) res.setHeader('Location', `http://127.0.0.1:${this.port}/redirected`);
        res.writeHead(status).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  ofType(type: string): Received[] {
    return this.received.filter((entry) => entry.payload.type === type);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}

describe('Webhooks', () => {
  let testApp: TestApp;
  const receiver = new Receiver();

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    process.env.OUTBOX_RETRY_BASE_MS = '1';
    process.env.WEBHOOK_TIMEOUT_MS = '500';
    try {
      testApp = await createTestApp();
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
      delete process.env.OUTBOX_RETRY_BASE_MS;
      delete process.env.WEBHOOK_TIMEOUT_MS;
    }
    await receiver.start();
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver.stop();
  });

  const drain = () => testApp.app.get(OutboxWorker).drain();

  async function endpoint(body: Record<string, unknown>, target = receiver): Promise<{ id: number; secret: string }> {
    const response = await request(testApp.server).post(WEBHOOKS).set('Authorization', ADMIN_AUTH).send(body).expect(201);
    target.secret = response.body.secret as string;
    return response.body as { id: number; secret: string };
  }

  async function removeAll(): Promise<void> {
    const list = await request(testApp.server).get(WEBHOOKS).set('Authorization', ADMIN_AUTH).expect(200);
    for (const hook of list.body.webhooks as Array<{ id: number }>)
      await request(testApp.server).delete(`${WEBHOOKS}/${hook.id}`).set('Authorization', ADMIN_AUTH).expect(200);
  }

  async function freeCheckout(capacity = 10, quantity = 1) {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity });
    const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity }]);
    const order = await checkout(testApp, buyer, { provider: 'tc', purchaser: { name: 'Hook Buyer', email: 'hooks@example.org' } }).expect(
      201,
    );
    return { event, ticket, order: order.body as { id: number } };
  }

  beforeEach(async () => {
    await drain();
    await removeAll();
    receiver.received.length = 0;
    receiver.answers = [];
    receiver.hang = false;
  });

  describe('administration', () => {
    it('is for administrators only', async () => {
      expect((await request(testApp.server).get(WEBHOOKS).expect(401)).body).toEqual({
        code: 'rest_forbidden',
        message: expect.any(String),
        data: { status: 401 },
      });
      for (const role of ['editor', 'author', 'subscriber'] as const) {
        const user = await createUser(testApp, role);
        const refused = await request(testApp.server)
          .post(WEBHOOKS)
          .set('Authorization', user.authorization)
          .send({ url: receiver.url })
          .expect(403);
        expect(refused.body).toEqual({ code: 'rest_forbidden', message: expect.any(String), data: { status: 403 } });
        await request(testApp.server).get(WEBHOOKS).set('Authorization', user.authorization).expect(403);
      }
    });

    it('creates with just a url (every event type), shows the secret once, reads, changes and deletes', async () => {
      const created = await request(testApp.server).post(WEBHOOKS).set('Authorization', ADMIN_AUTH).send({ url: receiver.url }).expect(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        url: receiver.url,
        description: '',
        event_types: null,
        enabled: true,
        disabled_reason: null,
        created: expect.any(String),
        modified: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
      expect(Buffer.from((created.body.secret as string).slice(6), 'base64')).toHaveLength(24);
      const path = `${WEBHOOKS}/${created.body.id}`;
      const read = await request(testApp.server).get(path).set('Authorization', ADMIN_AUTH).expect(200);
      expect(read.body.secret).toBeUndefined();
      // Stored sealed: the database holds no trace of the secret (deliveries, below, sign with it).
      const stored = await testApp.dataSource.manager.findOneByOrFail(WebhookEndpoint, { id: created.body.id as number });
      expect(stored.secret).not.toContain((created.body.secret as string).slice(6));
      expect(stored.secret).toMatch(/^v1\./);
      const list = await request(testApp.server).get(WEBHOOKS).set('Authorization', ADMIN_AUTH).expect(200);
      expect(list.body.webhooks).toEqual([read.body]);

      const patched = await request(testApp.server)
        .patch(path)
        .set('Authorization', ADMIN_AUTH)
        .send({ event_types: ['order.placed'], description: 'CRM', enabled: false })
        .expect(200);
      expect(patched.body).toMatchObject({ event_types: ['order.placed'], description: 'CRM', enabled: false });
      const put = await request(testApp.server)
        .put(path)
        .set('Authorization', ADMIN_AUTH)
        .send({ enabled: true, event_types: null })
        .expect(200);
      expect(put.body).toMatchObject({ event_types: null, enabled: true });

      const removed = await request(testApp.server).delete(path).set('Authorization', ADMIN_AUTH).expect(200);
      expect(removed.body.id).toBe(created.body.id);
      const gone = await request(testApp.server).get(path).set('Authorization', ADMIN_AUTH).expect(404);
      expect(gone.body).toEqual({ code: 'webhook-not-found', message: expect.any(String), data: { status: 404 } });
      await request(testApp.server).get(`${WEBHOOKS}/${created.body.id}/deliveries`).set('Authorization', ADMIN_AUTH).expect(404);
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const post = (body: unknown) =>
        request(testApp.server)
          .post(WEBHOOKS)
          .set('Authorization', ADMIN_AUTH)
          .send(body as object);
      for (const url of ['ftp://example.org/x', 'not a url', 'http://user:pass@127.0.0.1/', 'http://no-such-host.invalid/']) {
        const response = await post({ url }).expect(400);
        expect(response.body.code).toBe('rest_invalid_param');
        expect(Object.keys(response.body.data.params)).toEqual(['url']);
      }
      const missing = await post({}).expect(400);
      expect(JSON.stringify(missing.body)).toContain('url');
      const types = await post({ url: receiver.url, event_types: ['order.exploded'] }).expect(400);
      expect(JSON.stringify(types.body.data)).toContain('event_types');
      const notArray = await post({ url: receiver.url, event_types: 'order.placed' }).expect(400);
      expect(JSON.stringify(notArray.body.data)).toContain('event_types');
      const enabled = await post({ url: receiver.url, enabled: 'yes' }).expect(400);
      expect(JSON.stringify(enabled.body.data)).toContain('enabled');
      const badId = await request(testApp.server).get(`${WEBHOOKS}/abc`).set('Authorization', ADMIN_AUTH);
      expect(badId.status).toBeGreaterThanOrEqual(400);
      expect(badId.status).toBeLessThan(500);
      const badPage = await request(testApp.server).get(`${WEBHOOKS}/1/deliveries?per_page=1000`).set('Authorization', ADMIN_AUTH);
      expect([400, 404]).toContain(badPage.status);
    });
  });

  describe('delivery', () => {
    it('sends order, attendee and sold-out events signed per Standard Webhooks, in order, with stable ids', async () => {
      const { secret } = await endpoint({ url: receiver.url });
      const { order, ticket } = await freeCheckout(2, 2);
      await drain();
      expect(receiver.received.map((entry) => entry.payload.type)).toEqual([
        'order.placed',
        'attendee.created',
        'attendee.created',
        'ticket.sold_out',
      ]);
      expect(receiver.received.every((entry) => entry.verified)).toBe(true);
      const [placed] = receiver.ofType('order.placed');
      expect(placed.payload.data).toMatchObject({ order_id: order.id, status: 'completed', purchaser_email: 'hooks@example.org' });
      expect(placed.headers['webhook-id']).toMatch(/^msg_\d+$/);
      expect(placed.headers['webhook-signature']).toMatch(/^v1,/);
      expect(Math.abs(Number(placed.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(new Set(receiver.received.map((entry) => entry.headers['webhook-id'])).size).toBe(4);
      expect(receiver.ofType('ticket.sold_out')[0].payload.data).toMatchObject({ ticket_id: ticket.id });
      // A receiver with another secret would refuse it.
      expect(() => new Webhook(`whsec_${Buffer.from('another secret!').toString('base64')}`).verify(placed.body, placed.headers)).toThrow();
      expect(secret).toBe(receiver.secret);
    });

    it('sends only the subscribed types, and check-in, check-out and event changes', async () => {
      await endpoint({
        url: receiver.url,
        event_types: ['attendee.checked_in', 'attendee.checked_out', 'event.published', 'event.updated', 'event.trashed'],
      });
      const { order } = await freeCheckout();
      const [attendee] = await testApp.dataSource.getRepository(Attendee).find({ where: { orderId: order.id } });
      await request(testApp.server)
        .put(`/cal/tickets/v1/attendees/${attendee.id}`)
        .set('Authorization', ADMIN_AUTH)
        .send({ check_in: true })
        .expect(200);
      await request(testApp.server)
        .put(`/cal/tickets/v1/attendees/${attendee.id}`)
        .set('Authorization', ADMIN_AUTH)
        .send({ check_in: false })
        .expect(200);
      const created = await request(testApp.server)
        .post('/cal/events/v1/events')
        .set('Authorization', ADMIN_AUTH)
        .send({ title: 'Hooked', status: 'draft', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 12:00:00' })
        .expect(201);
      const eventPath = `/cal/events/v1/events/${created.body.id}`;
      await request(testApp.server).post(eventPath).set('Authorization', ADMIN_AUTH).send({ title: 'Hooked still a draft' }).expect(200);
      await request(testApp.server).post(eventPath).set('Authorization', ADMIN_AUTH).send({ status: 'publish' }).expect(200);
      await request(testApp.server).post(eventPath).set('Authorization', ADMIN_AUTH).send({ title: 'Hooked and renamed' }).expect(200);
      await request(testApp.server).delete(eventPath).set('Authorization', ADMIN_AUTH).expect(200);
      await drain();
      expect(receiver.received.map((entry) => entry.payload.type)).toEqual([
        'attendee.checked_in',
        'attendee.checked_out',
        'event.published',
        'event.updated',
        'event.trashed',
      ]);
      expect(receiver.received[0].payload.data).toMatchObject({ attendee_id: attendee.id, checkin_source: 'site' });
      expect(receiver.ofType('event.updated')[0].payload.data).toMatchObject({ event_id: created.body.id, title: 'Hooked and renamed' });
      expect(receiver.received.every((entry) => entry.verified)).toBe(true);
    });

    it('retries a receiver that is down until it is back, and logs every attempt', async () => {
      const hook = await endpoint({ url: receiver.url, event_types: ['order.placed'] });
      receiver.answers = [503, 500];
      const { order } = await freeCheckout();
      const worker = testApp.app.get(OutboxWorker);
      await worker.runOnce();
      await worker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 10));
      await worker.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 10));
      await drain();
      const attempts = receiver.ofType('order.placed');
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
      expect(attempts.every((entry) => entry.verified)).toBe(true);
      expect(attempts[2].payload.data.order_id).toBe(order.id);

      const log = await request(testApp.server).get(`${WEBHOOKS}/${hook.id}/deliveries`).set('Authorization', ADMIN_AUTH).expect(200);
      expect(log.headers['x-et-total']).toBe('1');
      expect(log.body.deliveries).toEqual([
        {
          id: expect.any(Number),
          message_id: attempts[0].headers['webhook-id'],
          event_type: 'order.placed',
          status: 'delivered',
          attempts: 3,
          response_status: 200,
          last_error: null,
          next_attempt: null,
          created: expect.any(String),
          delivered: expect.any(String),
          payload: attempts[0].payload,
        },
      ]);
    });

    it('redelivers a logged delivery with the same webhook-id', async () => {
      const hook = await endpoint({ url: receiver.url, event_types: ['order.placed'] });
      await freeCheckout();
      await drain();
      const log = await request(testApp.server).get(`${WEBHOOKS}/${hook.id}/deliveries`).set('Authorization', ADMIN_AUTH).expect(200);
      const [delivery] = log.body.deliveries as Array<{ id: number; message_id: string }>;
      const again = await request(testApp.server)
        .post(`${WEBHOOKS}/${hook.id}/deliveries/${delivery.id}/redeliver`)
        .set('Authorization', ADMIN_AUTH)
        .expect(202);
      expect(again.body).toMatchObject({ message_id: delivery.message_id, status: 'pending', attempts: 0 });
      await drain();
      expect(receiver.ofType('order.placed').map((entry) => entry.headers['webhook-id'])).toEqual([
        delivery.message_id,
        delivery.message_id,
      ]);
      const missing = await request(testApp.server)
        .post(`${WEBHOOKS}/${hook.id}/deliveries/99999999/redeliver`)
        .set('Authorization', ADMIN_AUTH)
        .expect(404);
      expect(missing.body.code).toBe('webhook-delivery-not-found');
      const editor = await createUser(testApp, 'editor');
      await request(testApp.server)
        .post(`${WEBHOOKS}/${hook.id}/deliveries/${delivery.id}/redeliver`)
        .set('Authorization', editor.authorization)
        .expect(403);
    });

    it('disables an endpoint that answers 410, follows no redirect, and gives up on a receiver that does not answer in time', async () => {
      const gone = await endpoint({ url: receiver.url, event_types: ['order.placed'] });
      receiver.answers = [410];
      await freeCheckout();
      await drain();
      const disabled = await request(testApp.server).get(`${WEBHOOKS}/${gone.id}`).set('Authorization', ADMIN_AUTH).expect(200);
      expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('410') });
      const [failed] = (await request(testApp.server).get(`${WEBHOOKS}/${gone.id}/deliveries`).set('Authorization', ADMIN_AUTH).expect(200))
        .body.deliveries;
      expect(failed).toMatchObject({ status: 'failed', response_status: 410, attempts: 1 });
      await freeCheckout();
      await drain();
      expect(receiver.ofType('order.placed')).toHaveLength(1);
      const refused = await request(testApp.server)
        .post(`${WEBHOOKS}/${gone.id}/deliveries/${failed.id}/redeliver`)
        .set('Authorization', ADMIN_AUTH)
        .expect(409);
      expect(refused.body.code).toBe('webhook-disabled');

      await removeAll();
      receiver.received.length = 0;
      const redirected = await endpoint({ url: receiver.url, event_types: ['order.placed'] });
      receiver.answers = [302];
      await freeCheckout();
      await testApp.app.get(OutboxWorker).runOnce();
      await testApp.app.get(OutboxWorker).runOnce();
      expect(receiver.received.map((entry) => entry.payload.type)).toEqual(['order.placed']);
      const [retrying] = (
        await request(testApp.server).get(`${WEBHOOKS}/${redirected.id}/deliveries`).set('Authorization', ADMIN_AUTH).expect(200)
      ).body.deliveries;
      expect(retrying).toMatchObject({
        status: 'pending',
        response_status: 302,
        last_error: expect.stringContaining('redirects are not followed'),
      });
      await drain();

      await removeAll();
      const slow = await endpoint({ url: receiver.url, event_types: ['order.placed'] });
      receiver.hang = true;
      await freeCheckout();
      await testApp.app.get(OutboxWorker).runOnce();
      await testApp.app.get(OutboxWorker).runOnce();
      const [timedOut] = (
        await request(testApp.server).get(`${WEBHOOKS}/${slow.id}/deliveries`).set('Authorization', ADMIN_AUTH).expect(200)
      ).body.deliveries;
      expect(timedOut).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('no answer within 500 ms') });
      receiver.hang = false;
    });
  });

  it('refuses loopback and private addresses unless WEBHOOK_ALLOW_PRIVATE is set, also at delivery', async () => {
    const hook = await endpoint({ url: receiver.url, event_types: ['order.placed'] });
    const strict = await createTestApp({ keepTables: true });
    try {
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://localhost:9/x',
        'http://10.1.2.3/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest',
      ]) {
        const refused = await request(strict.server).post(WEBHOOKS).set('Authorization', ADMIN_AUTH).send({ url }).expect(400);
        expect(refused.body.code).toBe('rest_invalid_param');
        expect(refused.body.data.params.url).toMatch(/private or loopback/);
      }
      await freeCheckout();
      await strict.app.get(OutboxWorker).runOnce();
      await strict.app.get(OutboxWorker).runOnce();
      expect(receiver.received).toHaveLength(0);
      const [blocked] = await testApp.dataSource
        .getRepository(OutboxMessage)
        .find({ where: { endpointId: hook.id }, order: { id: 'DESC' } });
      expect(blocked.lastError).toMatch(/private or loopback/);
    } finally {
      await strict.close();
    }
  });
});
