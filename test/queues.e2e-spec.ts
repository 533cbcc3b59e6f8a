import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { CLOCK } from '../src/common/clock';
import { lockConflictsOf } from '../src/common/database/transactions';
import { Order } from '../src/orders/order.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { Queue, QueueAdmission, QueueEntry } from '../src/queues/queue.entity';
import { challengeProblem, solveChallenge } from '../src/queues/queue-challenge';
import { QueueTicker } from '../src/queues/queue-ticker.service';
import { Ticket } from '../src/tickets/ticket.entity';
import { BuyerIdentity, CART_PATH, checkout, identify, PURCHASER } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { recordStatements } from './helpers/statement-recorder';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertTicket, reloadTicket, TestClock } from './helpers/ticketing-fixtures';

jest.setTimeout(300_000);

const QUEUES = '/cal/tickets/v1/queues';
const ADMIN_AUTH = basicAuth(ADMIN.login, ADMIN.password);
const mysql = /^mysql|^mariadb/.test(process.env.TEST_DATABASE_URL ?? '');

/** A client of the queue: its request id and secret, as the queue page makes them. */
interface Client {
  requestId: string;
  secret: string;
  secretHash: string;
}

function newClient(): Client {
  const secret = randomBytes(32).toString('base64url');
  return { requestId: randomBytes(12).toString('hex'), secret, secretHash: createHash('sha256').update(secret).digest('hex') };
}

describe('Waiting rooms (e2e)', () => {
  const clock = new TestClock();
  let testApp: TestApp;
  let author: TestUser;
  let otherAuthor: TestUser;
  let subscriber: TestUser;
  const saved = process.env.QUEUE_JOINS_PER_ADDRESS;

  beforeAll(async () => {
    // Every request of the suite comes from one address.
    process.env.QUEUE_JOINS_PER_ADDRESS = '100000';
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    author = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.QUEUE_JOINS_PER_ADDRESS;
    else process.env.QUEUE_JOINS_PER_ADDRESS = saved;
    await testApp?.close();
  });

  afterEach(() => clock.reset());

  const http = () => request(testApp.server);
  const tick = () => testApp.app.get(QueueTicker).runNow();
  const later = (ms: number) => new Date(clock.now().getTime() + ms);

  async function onSale(capacity = 50): Promise<{ eventId: number; ticket: Ticket }> {
    const event = await insertEvent(testApp.dataSource, { authorId: author.id });
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '10.00', capacityMode: 'own', capacity });
    return { eventId: event.id, ticket: await reloadTicket(testApp.dataSource, ticket.id) };
  }

  /** A queue whose pre-queue opens now and whose on-sale opens in a minute. */
  async function createQueue(eventId: number, settings: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const response = await http()
      .post(QUEUES)
      .set('Authorization', author.authorization)
      .send({
        post_id: eventId,
        prequeue_opens_at: clock.now().toISOString(),
        opens_at: later(60_000).toISOString(),
        max_active: 100,
        max_admit_per_minute: 600,
        admission_minutes: 10,
        ...settings,
      });
    expect(response.status).toBe(201);
    return response.body as Record<string, any>;
  }

  function join(queueId: number, client: Client): request.Test {
    return http().post(`${QUEUES}/${queueId}/entries`).send({ request_id: client.requestId, secret_hash: client.secretHash });
  }

  function status(queueId: number, client: Client): request.Test {
    return http().get(`${QUEUES}/${queueId}/entries/${client.requestId}`);
  }

  function claim(queueId: number, client: Client, secret = client.secret): request.Test {
    return http().post(`${QUEUES}/${queueId}/entries/${client.requestId}/admission`).send({ secret });
  }

  function cartWrite(ticketId: number, quantity: number, token?: string, identity: BuyerIdentity = {}): request.Test {
    const test = identify(http().post(CART_PATH), identity);
    if (token) test.set('X-Queue-Token', token);
    return test.send({ provider: 'tc', tickets: [{ ticket_id: ticketId, quantity }] });
  }

  /** Joins `count` clients in the pre-queue, opens the on-sale and admits as the counter allows. */
  async function openedWith(queue: Record<string, any>, count: number): Promise<Client[]> {
    const clients = Array.from({ length: count }, newClient);
    for (const client of clients) await join(queue.id, client).expect(202);
    clock.set(new Date(queue.opens_at as string));
    await tick();
    return clients;
  }

  async function entryOf(queueId: number, client: Client): Promise<QueueEntry> {
    return testApp.dataSource.getRepository(QueueEntry).findOneByOrFail({ queueId, requestId: client.requestId });
  }

  /** The client at `position`, once the queue opened. */
  async function atPosition(queueId: number, clients: Client[], position: number): Promise<Client> {
    for (const client of clients) if ((await entryOf(queueId, client)).position === position) return client;
    throw new Error(`nobody at ${position}`);
  }

  describe('settings', () => {
    it('creates a queue for a manager of the event (201) and reads it back', async () => {
      const { eventId, ticket } = await onSale();
      const created = await createQueue(eventId, { ticket_ids: [ticket.id], max_admit_per_minute: 'auto', queue_all: false });
      expect(created).toMatchObject({
        post_id: eventId,
        ticket_ids: [ticket.id],
        max_active: 100,
        max_admit_per_minute: 'auto',
        admission_minutes: 10,
        queue_all: false,
        paused: false,
        status: 'prequeue',
        serving_counter: 0,
        queue_size: 0,
      });
      expect(created.page_url).toMatch(new RegExp(`/queue/${created.id}/$`));
      const read = await http().get(`${QUEUES}/${created.id}`).expect(200);
      // supertest serves each request on a port of its own: the page's origin differs.
      expect({ ...read.body, page_url: null }).toEqual({ ...created, page_url: null });
    });

    it('refuses anonymous callers (401), other authors (403) and names bad fields (400)', async () => {
      const { eventId } = await onSale();
      const body = { post_id: eventId, opens_at: '2030-01-01T10:00:00Z', max_active: 10 };
      await http().post(QUEUES).send(body).expect(401);
      const other = await http().post(QUEUES).set('Authorization', otherAuthor.authorization).send(body);
      expect(other.status).toBe(403);
      const bad = await http()
        .post(QUEUES)
        .set('Authorization', author.authorization)
        .send({ ...body, opens_at: 'soon', max_active: 0 });
      expect(bad.status).toBe(400);
      expect(bad.body.data.params).toHaveProperty('max_active');
      const badDate = await http()
        .post(QUEUES)
        .set('Authorization', author.authorization)
        .send({ ...body, opens_at: 'soon' });
      expect(badDate.status).toBe(400);
      expect(badDate.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { opens_at: expect.any(String) } } });
      const badRate = await http()
        .post(QUEUES)
        .set('Authorization', author.authorization)
        .send({ ...body, max_admit_per_minute: 'fast' });
      expect(badRate.body.data.params).toHaveProperty('max_admit_per_minute');
      const order = await http()
        .post(QUEUES)
        .set('Authorization', author.authorization)
        .send({ ...body, closes_at: '2029-01-01T10:00:00Z' });
      expect(order.body.data.params).toHaveProperty('closes_at');
      const foreign = await onSale();
      const tickets = await http()
        .post(QUEUES)
        .set('Authorization', author.authorization)
        .send({ ...body, ticket_ids: [foreign.ticket.id] });
      expect(tickets.status).toBe(400);
      expect(tickets.body.code).toBe('queue-tickets-invalid');
      await http().get(`${QUEUES}/999999`).expect(404);
    });

    it('pauses, resumes and closes by PATCH (managers only)', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId);
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', otherAuthor.authorization).send({ paused: true }).expect(403);
      const paused = await http()
        .patch(`${QUEUES}/${queue.id}`)
        .set('Authorization', author.authorization)
        .send({ paused: true, max_active: 7 });
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ paused: true, max_active: 7 });
      const closed = await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ closed: true });
      expect(closed.body.status).toBe('closed');
      const late = await join(queue.id, newClient());
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('queue-closed');
    });
  });

  describe('joining and the opening', () => {
    it('refuses joins before the pre-queue opens, and bad request ids and hashes by name', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { prequeue_opens_at: later(30_000).toISOString() });
      const early = await join(queue.id, newClient());
      expect(early.status).toBe(409);
      expect(early.body.code).toBe('queue-not-open');
      const bad = await http().post(`${QUEUES}/${queue.id}/entries`).send({ request_id: 'x', secret_hash: 'nothex' });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.data.params as object).sort()).toEqual(['request_id', 'secret_hash']);
      const route = await http().get(`${QUEUES}/${queue.id}/entries/${'!'.repeat(10)}`);
      expect(route.status).toBe(400);
    });

    it('keeps the pre-queue unranked, then draws a permutation at opens_at; later joins are FIFO behind it', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 1, max_admit_per_minute: 60 });
      const clients = Array.from({ length: 12 }, newClient);
      for (const client of clients) {
        const joined = await join(queue.id, client);
        expect(joined.status).toBe(202);
        expect(joined.body).toMatchObject({ request_id: client.requestId, status: 'prequeue', position: null, ahead: null });
      }
      // A retry with the same secret is the same entry; another secret cannot take the request id.
      await join(queue.id, clients[0]).expect(202);
      const stolen = await join(queue.id, { ...newClient(), requestId: clients[0].requestId });
      expect(stolen.status).toBe(409);
      expect(stolen.body.code).toBe('queue-entry-exists');

      clock.set(new Date(queue.opens_at as string));
      await tick();
      const positions = await Promise.all(clients.map(async (client) => (await entryOf(queue.id, client)).position));
      expect([...positions].sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(positions).not.toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

      const late = newClient();
      const joined = await join(queue.id, late);
      expect(joined.body).toMatchObject({ status: 'waiting', position: 13, ahead: 12 });
      expect(joined.body.eta_seconds).toEqual({ p50: expect.any(Number), p90: expect.any(Number) });
      expect(joined.body.eta_seconds.p90).toBeGreaterThanOrEqual(joined.body.eta_seconds.p50);
    });

    it('asks a proof-of-work with the join when challenge_bits is set (403 naming challenge_nonce), and stores nothing without it', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { challenge_bits: 10 });
      expect(queue.challenge_bits).toBe(10);
      const client = newClient();
      const missing = await join(queue.id, client);
      expect(missing.status).toBe(403);
      expect(missing.body).toMatchObject({
        code: 'queue-challenge-failed',
        data: { status: 403, challenge_bits: 10, params: { challenge_nonce: 'required' } },
      });
      const body = { request_id: client.requestId, secret_hash: client.secretHash };
      const wrongNonce = solveChallenge(queue.id, 'another-request-id', 10);
      let wrong = wrongNonce;
      // A nonce solved for another request id (or a plain guess) fails, bar a 1 in 1024 accident.
      if (challengeProblem(queue.id, client.requestId, wrong, 10) === null) wrong = `${wrongNonce}x`;
      if (challengeProblem(queue.id, client.requestId, wrong, 10) === null) wrong = `${wrongNonce}y`;
      const refused = await http()
        .post(`${QUEUES}/${queue.id}/entries`)
        .send({ ...body, challenge_nonce: wrong });
      expect(refused.status).toBe(403);
      expect(refused.body.data.params.challenge_nonce).toMatch(/10 zero bits/);
      const malformed = await http()
        .post(`${QUEUES}/${queue.id}/entries`)
        .send({ ...body, challenge_nonce: 'not a nonce!' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.data.params).toHaveProperty('challenge_nonce');
      expect(await testApp.dataSource.getRepository(QueueEntry).countBy({ queueId: queue.id })).toBe(0);

      const nonce = solveChallenge(queue.id, client.requestId, 10);
      const joined = await http()
        .post(`${QUEUES}/${queue.id}/entries`)
        .send({ ...body, challenge_nonce: nonce });
      expect(joined.status).toBe(202);
      // A retry of the same entry needs no new proof.
      await join(queue.id, client).expect(202);
      // Turned off by PATCH.
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ challenge_bits: 0 }).expect(200);
      await join(queue.id, newClient()).expect(202);
      const tooHard = await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ challenge_bits: 40 });
      expect(tooHard.status).toBe(400);
      expect(tooHard.body.data.params).toHaveProperty('challenge_bits');
    });

    it('limits entries per account', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId);
      const asSubscriber = (client: Client) =>
        http()
          .post(`${QUEUES}/${queue.id}/entries`)
          .set('Authorization', subscriber.authorization)
          .send({ request_id: client.requestId, secret_hash: client.secretHash });
      await asSubscriber(newClient()).expect(202);
      await asSubscriber(newClient()).expect(202);
      const third = await asSubscriber(newClient());
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ code: 'queue-join-limit', data: { status: 429, by: 'account' } });
    });

    it('keeps the limit when one account joins many times at once (counted under the queue row lock)', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => {
          const client = newClient();
          return http()
            .post(`${QUEUES}/${queue.id}/entries`)
            .set('Authorization', subscriber.authorization)
            .send({ request_id: client.requestId, secret_hash: client.secretHash });
        }),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([202, 202, 429, 429, 429, 429, 429, 429]);
      expect(await testApp.dataSource.getRepository(QueueEntry).countBy({ queueId: queue.id as number })).toBe(2);
    });
  });

  describe('the counter and admissions', () => {
    it('advances by min(rate × Δt, max_active − active) and admits those positions', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 3, max_admit_per_minute: 120 });
      const clients = await openedWith(queue, 6);
      clock.set(later(1000));
      await tick();
      // 120 a minute for one second: 2.
      expect((await http().get(`${QUEUES}/${queue.id}`)).body.serving_counter).toBe(2);
      clock.set(later(2000));
      await tick();
      // Room for one more only: max_active 3.
      const shared = await http().get(`${QUEUES}/${queue.id}/status`).expect(200);
      expect(shared.body).toMatchObject({ serving_counter: 3, queue_size: 3, admitted_per_minute: 3, status: 'open' });
      expect(shared.headers['cache-control']).toBe('public, max-age=1');
      expect(shared.headers['surrogate-key']).toBe(`queue-${queue.id}`);
      const first = await atPosition(queue.id, clients, 1);
      expect((await status(queue.id, first)).body).toMatchObject({ status: 'admitted', position: 1, ahead: 0 });
      const fifth = await atPosition(queue.id, clients, 5);
      expect((await status(queue.id, fifth)).body).toMatchObject({ status: 'waiting', position: 5, ahead: 1 });
    });

    it('writes queue.opened, queue.admitted and queue.closed to the outbox', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 2, max_admit_per_minute: 600 });
      await openedWith(queue, 3);
      clock.set(later(1000));
      await tick();
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ closed: true }).expect(200);
      const messages = await testApp.dataSource.getRepository(OutboxMessage).find({ where: { channel: 'event' }, order: { id: 'ASC' } });
      const mine = messages
        .map((message) => ({ type: message.type, data: JSON.parse(message.payload) as Record<string, unknown> }))
        .filter((message) => message.type.startsWith('queue.') && message.data.queue_id === queue.id);
      expect(mine).toEqual([
        { type: 'queue.opened', data: expect.objectContaining({ event_id: eventId, prequeue_size: 3 }) },
        { type: 'queue.admitted', data: expect.objectContaining({ admitted: 2, from_position: 1, to_position: 2, serving_counter: 2 }) },
        { type: 'queue.closed', data: expect.objectContaining({ reason: 'closed' }) },
      ]);
    });

    it('reports waiting, active, admissions and abandonment to managers', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 2, max_admit_per_minute: 600, admission_minutes: 1 });
      await openedWith(queue, 5);
      clock.set(later(1000));
      await tick();
      const metrics = await http().get(`${QUEUES}/${queue.id}/metrics`).set('Authorization', author.authorization).expect(200);
      expect(metrics.body).toMatchObject({ waiting: 3, active: 2, admitted_per_minute: 2, completed: 0, abandoned: 0, joined: 5 });
      clock.set(later(2 * 60_000));
      await tick();
      const after = await http().get(`${QUEUES}/${queue.id}/metrics`).set('Authorization', author.authorization).expect(200);
      expect(after.body).toMatchObject({ abandoned: 2, abandonment_rate: 1, active: 2, waiting: 1 });
      await http().get(`${QUEUES}/${queue.id}/metrics`).set('Authorization', otherAuthor.authorization).expect(403);
    });

    it('runs auto from half of max_active a minute (the law: queue-auto-rate.spec.ts), and halves it on a 503', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 100, max_admit_per_minute: 'auto' });
      expect(queue.admission_rate).toBe(50);
      await openedWith(queue, 30);
      clock.set(later(5000));
      await tick();
      // 50 a minute for the 5 s credited: 4 admitted.
      const read = async () => (await http().get(`${QUEUES}/${queue.id}`).expect(200)).body as Record<string, any>;
      expect(await read()).toMatchObject({ max_admit_per_minute: 'auto', admission_rate: 50, serving_counter: 4 });
      lockConflictsOf(testApp.dataSource).gaveUp += 1;
      clock.set(later(1000));
      await tick();
      expect((await read()).admission_rate).toBe(25);
    });

    it('admits nobody while paused', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 5, max_admit_per_minute: 600 });
      await openedWith(queue, 3);
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ paused: true }).expect(200);
      clock.set(later(2000));
      await tick();
      expect((await http().get(`${QUEUES}/${queue.id}/status`)).body).toMatchObject({ status: 'paused', serving_counter: 0 });
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ paused: false }).expect(200);
      clock.set(later(1000));
      await tick();
      expect((await http().get(`${QUEUES}/${queue.id}/status`)).body.serving_counter).toBe(3);
    });

    it('gives the token only with the secret, once (the same token again), and only to admitted entries', async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 1, max_admit_per_minute: 60 });
      const clients = await openedWith(queue, 2);
      clock.set(later(1000));
      await tick();
      const admitted = await atPosition(queue.id, clients, 1);
      const waiting = await atPosition(queue.id, clients, 2);

      const leaked = await claim(queue.id, admitted, 'not-the-secret');
      expect(leaked.status).toBe(403);
      expect(leaked.body).toMatchObject({ code: 'queue-secret-mismatch', data: { status: 403, params: { secret: expect.any(String) } } });
      const early = await claim(queue.id, waiting);
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 'queue-not-admitted', data: { entry_status: 'waiting' } });

      const first = await claim(queue.id, admitted).expect(200);
      expect(first.body).toMatchObject({ token: expect.any(String), expires_at: expect.any(String), units_left: 100 });
      const again = await claim(queue.id, admitted).expect(200);
      expect(again.body.token).toBe(first.body.token);
      const [, payload] = (first.body.token as string).split('.');
      expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({
        aud: `queue:${queue.id}`,
        sub: admitted.requestId,
        jti: expect.any(String),
        exp: expect.any(Number),
      });
    });
  });

  describe('status polls', () => {
    it("answer the shared status from the instance's copy, an entry's place in one indexed statement, and a waiting one's again in none", async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 1, max_admit_per_minute: 60 });
      const [client, other] = await openedWith(queue, 2);
      await status(queue.id, client).expect(200);
      await http().get(`${QUEUES}/${queue.id}/status`).expect(200);
      const recorder = recordStatements(testApp.dataSource);
      const shared = await http().get(`${QUEUES}/${queue.id}/status`).expect(200);
      expect(shared.body.status).toBe('open');
      expect(recorder.statements).toEqual([]);
      const first = await status(queue.id, other).expect(200);
      expect(recorder.statements).toHaveLength(1);
      expect(recorder.statements[0]).toMatch(/^SELECT .* FROM queue_entries .*WHERE .*queue_id.* AND .*request_id/);
      // Waiting for its turn, an entry's place changes only when the counter passes it: read from memory.
      const again = await status(queue.id, other).expect(200);
      expect(again.body).toEqual(first.body);
      expect((await status(queue.id, client).expect(200)).body.status).toBe('waiting');
      expect(recorder.statements).toHaveLength(1);
      // Once the counter reaches it, it is read again: admitted.
      clock.set(later(1000));
      await tick();
      const statuses = [(await status(queue.id, client).expect(200)).body.status, (await status(queue.id, other).expect(200)).body.status];
      expect(statuses.sort()).toEqual(['admitted', 'waiting']);
      // Unknown queues and entries are still 404.
      await http().get(`${QUEUES}/999999/status`).expect(404);
      expect((await http().get(`${QUEUES}/${queue.id}/entries/${'f'.repeat(24)}`)).body.code).toBe('queue-entry-not-found');
    });

    it("see another instance's change within a second, and this instance's own at once", async () => {
      const { eventId } = await onSale();
      const queue = await createQueue(eventId, { max_active: 1, max_admit_per_minute: 60 });
      await openedWith(queue, 2);
      expect((await http().get(`${QUEUES}/${queue.id}/status`).expect(200)).body.serving_counter).toBe(0);
      // Another instance advances the counter: this one answers its copy for up to a second.
      await testApp.dataSource.getRepository(Queue).update({ id: queue.id }, { servingCounter: 1 });
      expect((await http().get(`${QUEUES}/${queue.id}/status`).expect(200)).body.serving_counter).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await http().get(`${QUEUES}/${queue.id}/status`).expect(200)).body.serving_counter).toBe(1);
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ paused: true }).expect(200);
      expect((await http().get(`${QUEUES}/${queue.id}/status`).expect(200)).body.status).toBe('paused');
    });

    it('measures the ETA against the actual admission (cal_queue_eta_error_ratio in /metrics)', async () => {
      const count = async () => {
        const text = (await http().get('/metrics').expect(200)).text;
        return Number(/^cal_queue_eta_error_ratio_count (\d+)/m.exec(text)?.[1] ?? 'NaN');
      };
      const before = await count();
      const { eventId } = await onSale();
      // 60 a minute: position n is predicted n seconds after the opening.
      const queue = await createQueue(eventId, { max_active: 10, max_admit_per_minute: 60 });
      await openedWith(queue, 4);
      const predicted = await testApp.dataSource.getRepository(QueueEntry).findBy({ queueId: queue.id });
      for (const entry of predicted) {
        expect(entry.etaAt!.getTime() - new Date(queue.opens_at as string).getTime()).toBe((entry.position as number) * 1000);
      }
      clock.set(later(2000));
      await tick();
      // Queues of earlier tests still open may admit in the same round.
      expect(await count()).toBeGreaterThanOrEqual(before + 2);
    });
  });

  describe('the gate on cart writes and checkout', () => {
    /** An on-sale whose queue admitted one client, with that client's token. */
    async function admittedBuyer(settings: Record<string, unknown> = {}, capacity = 50) {
      const sale = await onSale(capacity);
      const queue = await createQueue(sale.eventId, { max_active: 1, max_admit_per_minute: 60, ...settings });
      const clients = await openedWith(queue, 2);
      clock.set(later(1000));
      await tick();
      const client = await atPosition(queue.id, clients, 1);
      const token = (await claim(queue.id, client).expect(200)).body.token as string;
      return { ...sale, queue, clients, client, token };
    }

    it('refuses cart writes of queued tickets without a token (403 naming X-Queue-Token), admits them with one', async () => {
      const { ticket, token } = await admittedBuyer();
      const refused = await cartWrite(ticket.id, 1);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 'queue-admission-required',
        data: { status: 403, params: { 'X-Queue-Token': 'required' } },
      });
      const garbage = await cartWrite(ticket.id, 1, 'not.a.token');
      expect(garbage.status).toBe(403);
      expect(garbage.body.code).toBe('queue-admission-invalid');
      const accepted = await cartWrite(ticket.id, 1, token);
      expect(accepted.status).toBe(200);
      // As a cookie, for browsers.
      const cookie = await http()
        .post(CART_PATH)
        .set('Cookie', `cal_queue=${token}`)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }] });
      expect(cookie.status).toBe(200);
    });

    it('lets managers of the event through without a token, and leaves tickets of no queue alone', async () => {
      const { ticket, eventId } = await admittedBuyer();
      await cartWrite(ticket.id, 1, undefined, { authorization: author.authorization }).expect(200);
      await cartWrite(ticket.id, 1, undefined, { authorization: ADMIN_AUTH }).expect(200);
      const free = await insertTicket(testApp.dataSource, { eventId: (await insertEvent(testApp.dataSource, {})).id, capacity: 5 });
      await cartWrite(free.id, 1).expect(200);
      expect(eventId).toBeGreaterThan(0);
    });

    it("lets a manager's API token through with queue:bypass only; a buyer's token holding it waits", async () => {
      const { ticket } = await admittedBuyer();
      const tokenOf = async (authorization: string, scopes: string[]) =>
        (await http().post('/cal/auth/v1/tokens').set('Authorization', authorization).send({ name: 'Box office', scopes }).expect(201)).body
          .token as string;
      const bypassing = await tokenOf(author.authorization, ['orders:write', 'queue:bypass']);
      const waiting = await tokenOf(author.authorization, ['orders:write']);
      const buyer = await createUser(testApp, 'subscriber');
      const buyers = await tokenOf(buyer.authorization, ['orders:write', 'queue:bypass']);
      for (const refused of [waiting, buyers]) {
        const response = await cartWrite(ticket.id, 1, undefined, { authorization: `Bearer ${refused}` });
        expect([response.status, response.body.code]).toEqual([403, 'queue-admission-required']);
      }
      await cartWrite(ticket.id, 1, undefined, { authorization: `Bearer ${bypassing}` }).expect(200);
    });

    it('refuses a token of another queue', async () => {
      const first = await admittedBuyer();
      const second = await admittedBuyer();
      const crossed = await cartWrite(first.ticket.id, 1, second.token);
      expect(crossed.status).toBe(403);
      expect(crossed.body).toMatchObject({
        code: 'queue-admission-invalid',
        data: { queue_id: first.queue.id, params: { 'X-Queue-Token': 'issued for another queue' } },
      });
    });

    it('refuses an expired admission, at the cart and at checkout', async () => {
      const { ticket, token } = await admittedBuyer({ admission_minutes: 5 });
      const buyer = await cartWrite(ticket.id, 1, token).expect(200);
      const identity = { token: buyer.headers['x-cart-token'] };
      clock.set(later(6 * 60_000));
      const cart = await cartWrite(ticket.id, 2, token, identity);
      expect(cart.status).toBe(403);
      expect(cart.body.data.params['X-Queue-Token']).toBe('expired');
      const paid = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).set('X-Queue-Token', token);
      expect(paid.status).toBe(403);
      expect(paid.body.code).toBe('queue-admission-invalid');
    });

    it('refuses a revoked admission (the deny-list) and ends the turn', async () => {
      const { ticket, token, queue, client } = await admittedBuyer();
      await http()
        .delete(`${QUEUES}/${queue.id}/entries/${client.requestId}/admission`)
        .set('Authorization', otherAuthor.authorization)
        .expect(403);
      const revoked = await http()
        .delete(`${QUEUES}/${queue.id}/entries/${client.requestId}/admission`)
        .set('Authorization', author.authorization);
      expect(revoked.status).toBe(200);
      expect(revoked.body.status).toBe('revoked');
      const refused = await cartWrite(ticket.id, 1, token);
      expect(refused.status).toBe(403);
      expect(refused.body.data.params['X-Queue-Token']).toBe('revoked');
      const admission = await testApp.dataSource.getRepository(QueueAdmission).findOneByOrFail({ queueId: queue.id });
      expect(admission.revokedAt).not.toBeNull();
    });

    it('holds an admission to its unit limit across cart writes and checkouts, then ends the turn', async () => {
      const { ticket, token, queue, client } = await admittedBuyer({ units_per_admission: 2 });
      const over = await cartWrite(ticket.id, 3, token);
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: 'queue-admission-units', data: { status: 409, units_left: 2 } });
      const buyer = await cartWrite(ticket.id, 2, token).expect(200);
      const identity = { token: buyer.headers['x-cart-token'] };
      const placed = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).set('X-Queue-Token', token);
      expect(placed.status).toBe(201);
      expect((await entryOf(queue.id, client)).status).toBe('completed');
      // What the auto rate measures: admissions that checked out lately.
      const admission = await testApp.dataSource.getRepository(QueueAdmission).findOneByOrFail({ queueId: queue.id });
      expect(admission.lastCheckoutAt).toEqual(clock.now());
      const more = await cartWrite(ticket.id, 1, token, identity);
      expect(more.status).toBe(409);
      expect(more.body.data.units_left).toBe(0);
      // The claim answers nothing more once the turn is over.
      expect((await claim(queue.id, client)).status).toBe(409);
      // Shrinking a cart needs no admission.
      await cartWrite(ticket.id, 0, undefined, identity).expect(200);
    });

    it('ends the turn with the first order, even one of fewer units than the limit', async () => {
      const { ticket, token, queue, client } = await admittedBuyer({ units_per_admission: 2 });
      const placed = await buy(ticket.id, 1, token);
      expect(placed.status).toBe(201);
      expect((await entryOf(queue.id, client)).status).toBe('completed');
      const more = await cartWrite(ticket.id, 1, token);
      expect(more.status).toBe(409);
      expect(more.body).toMatchObject({ code: 'queue-admission-units', data: { units_left: 0 } });
    });

    it('stops gating when the queue closes', async () => {
      const { ticket, queue } = await admittedBuyer();
      await http().patch(`${QUEUES}/${queue.id}`).set('Authorization', author.authorization).send({ closed: true }).expect(200);
      await cartWrite(ticket.id, 1).expect(200);
    });

    /** Puts `quantity` units of `ticketId` in a cart with the token and checks them out. */
    async function buy(ticketId: number, quantity: number, token: string): Promise<request.Response> {
      const cart = await cartWrite(ticketId, quantity, token).expect(200);
      return checkout(testApp, { token: cart.headers['x-cart-token'] }, { provider: 'tc', purchaser: PURCHASER }).set(
        'X-Queue-Token',
        token,
      );
    }

    function queueMessages(queueId: number) {
      return testApp.dataSource
        .getRepository(OutboxMessage)
        .find({ where: { channel: 'event' }, order: { id: 'ASC' } })
        .then((messages) =>
          messages
            .map((message) => ({ type: message.type, data: JSON.parse(message.payload) as Record<string, unknown> }))
            .filter((message) => message.type.startsWith('queue.') && message.data.queue_id === queueId),
        );
    }

    it('closes the queue as sold_out when a checkout sells its last unit: entries see sold_out, joins are refused, queue.closed says why', async () => {
      const { ticket, token, queue, clients, eventId } = await admittedBuyer({ units_per_admission: 2 }, 2);
      const waiting = await atPosition(queue.id, clients, 2);
      expect((await status(queue.id, waiting)).body.status).toBe('waiting');
      expect((await buy(ticket.id, 2, token)).status).toBe(201);

      const shared = await http().get(`${QUEUES}/${queue.id}/status`).expect(200);
      expect(shared.body.status).toBe('sold_out');
      expect((await status(queue.id, waiting)).body).toMatchObject({ status: 'sold_out', ahead: null, eta_seconds: null });
      const late = await join(queue.id, newClient());
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ code: 'queue-closed', data: { status: 409, reason: 'sold_out' } });
      expect(await queueMessages(queue.id)).toContainEqual({
        type: 'queue.closed',
        data: expect.objectContaining({ event_id: eventId, reason: 'sold_out' }),
      });
      // Once closed, the queue no longer gates its tickets (any unit coming back is sold as without a queue).
      const read = await http().get(`${QUEUES}/${queue.id}`).expect(200);
      expect(read.body.status).toBe('sold_out');
    });

    it('stays open while another guarded ticket has units left, and ignores tickets it does not guard', async () => {
      const sale = await onSale(1);
      const second = await insertTicket(testApp.dataSource, { eventId: sale.eventId, price: '10.00', capacityMode: 'own', capacity: 1 });
      const outside = await insertTicket(testApp.dataSource, { eventId: sale.eventId, price: '10.00', capacityMode: 'own', capacity: 1 });
      const queue = await createQueue(sale.eventId, {
        ticket_ids: [sale.ticket.id, second.id],
        max_active: 1,
        max_admit_per_minute: 60,
        units_per_admission: 1,
      });
      const clients = await openedWith(queue, 2);
      clock.set(later(1000));
      await tick();
      const first = await atPosition(queue.id, clients, 1);
      const firstToken = (await claim(queue.id, first).expect(200)).body.token as string;
      expect((await buy(sale.ticket.id, 1, firstToken)).status).toBe(201);
      // The unguarded ticket sells out without a token and closes nothing.
      const anyone = await cartWrite(outside.id, 1).expect(200);
      expect((await checkout(testApp, { token: anyone.headers['x-cart-token'] }, { provider: 'tc', purchaser: PURCHASER })).status).toBe(
        201,
      );
      expect((await http().get(`${QUEUES}/${queue.id}/status`).expect(200)).body.status).toBe('open');

      // The first turn is over (its one unit bought): the next in line gets the last guarded unit.
      clock.set(later(1000));
      await tick();
      const next = await atPosition(queue.id, clients, 2);
      const nextToken = (await claim(queue.id, next).expect(200)).body.token as string;
      expect((await buy(second.id, 1, nextToken)).status).toBe(201);
      expect((await http().get(`${QUEUES}/${queue.id}/status`).expect(200)).body.status).toBe('sold_out');
      expect((await queueMessages(queue.id)).filter((message) => message.type === 'queue.closed')).toHaveLength(1);
    });

    (mysql ? it : it.skip)('never oversells nor overuses an admission under concurrent checkouts (MariaDB)', async () => {
      const capacity = 5;
      const sale = await onSale(capacity);
      const queue = await createQueue(sale.eventId, { max_active: 12, max_admit_per_minute: 6000, units_per_admission: 1 });
      const clients = await openedWith(queue, 12);
      clock.set(later(1000));
      await tick();
      const buyers: Array<{ identity: BuyerIdentity; token: string }> = [];
      for (const client of clients) {
        const token = (await claim(queue.id, client).expect(200)).body.token as string;
        const cart = await cartWrite(sale.ticket.id, 1, token).expect(200);
        buyers.push({ identity: { token: cart.headers['x-cart-token'] }, token });
      }
      // A second cart of the first buyer, on the same admission of one unit.
      const second = await cartWrite(sale.ticket.id, 1, buyers[0].token).expect(200);
      const attempts = [...buyers, { identity: { token: second.headers['x-cart-token'] }, token: buyers[0].token }];
      const results = await Promise.all(
        attempts.map(({ identity, token }) =>
          checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).set('X-Queue-Token', token),
        ),
      );
      const placed = results.filter((result) => result.status === 201).length;
      expect(placed).toBe(capacity);
      for (const result of results.filter((r) => r.status !== 201)) expect([409, 503]).toContain(result.status);
      const sold = await testApp.dataSource.getRepository(Order).count({ where: { provider: 'tc' } });
      expect(sold).toBeGreaterThanOrEqual(capacity);
      const admissions = await testApp.dataSource.getRepository(QueueAdmission).findBy({ queueId: queue.id });
      for (const admission of admissions) expect(admission.unitsUsed).toBeLessThanOrEqual(admission.unitLimit);
      expect(
        (await reloadTicket(testApp.dataSource, sale.ticket.id)).pending + (await reloadTicket(testApp.dataSource, sale.ticket.id)).sold,
      ).toBeLessThanOrEqual(capacity);
    });
  });
});
