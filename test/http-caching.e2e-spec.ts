import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import request from 'supertest';
import { ByteAssembler } from '../src/common/http/byte-assembler';
import { EventDocuments } from '../src/catalogue/documents/event-documents';
import { StoredEventDocument } from '../src/catalogue/documents/stored-event-document.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { OutboxWorker } from '../src/outbox-worker/outbox-worker.service';
import { recordStatements, withoutTransactionControl } from './helpers/statement-recorder';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';
import { postTicket } from './helpers/ticket-fixtures';

/**
 * HTTP caching (src/common/http/http-caching.ts): strong ETags and 304s, Cache-Control public for
 * anonymous public reads only, surrogate keys naming what an answer shows, purges of the keys a
 * write makes stale sent through the outbox to PURGE_URL, and the JSON envelope for requests
 * Node's parser refuses (URL or headers past its limit).
 */
// Answers name their absolute URLs; supertest's host and port change from one request to the next.
process.env.PUBLIC_URL = 'https://calendar.example.org';

const admin = basicAuth(ADMIN.login, ADMIN.password);
const EVENTS = '/cal/events/v1';

type Body = Record<string, any>;

interface PurgeRequest {
  method: string;
  keys: string[];
  body: { keys: string[] };
}

function daysAhead(days: number, time = '19:00:00'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${time}`;
}

/** A stand-in for the cache in front: records each purge, answers `status`. */
async function startPurgeReceiver(): Promise<{ server: Server; url: string; received: PurgeRequest[]; answer: { status: number } }> {
  const received: PurgeRequest[] = [];
  const answer = { status: 200 };
  const server = createServer((incoming: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received.push({
        method: incoming.method ?? '',
        keys: String(incoming.headers['xkey-purge'] ?? '').split(' '),
        body: JSON.parse(Buffer.concat(chunks).toString() || '{}') as { keys: string[] },
      });
      response.statusCode = answer.status;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/purge`, received, answer };
}

/** A raw request on its own connection, for requests supertest would not send as they are. */
function rawRequest(port: number, text: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString();
      const [head, body = ''] = raw.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
  });
}

describe('HTTP caching (e2e)', () => {
  let testApp: TestApp;
  let receiver: Awaited<ReturnType<typeof startPurgeReceiver>>;
  let event: Body;
  let venue: Body;
  let organizer: Body;
  let category: Body;
  let tag: Body;

  const post = async (path: string, body: Body, status = 201) =>
    (await request(testApp.server).post(`${EVENTS}/${path}`).set('Authorization', admin).send(body).expect(status)).body as Body;

  const pendingPurges = async () =>
    (
      await testApp.dataSource.getRepository(OutboxMessage).find({ where: { channel: 'purge', status: 'pending' }, order: { id: 'ASC' } })
    ).map((message) => (JSON.parse(message.payload) as { keys: string[] }).keys);

  beforeAll(async () => {
    receiver = await startPurgeReceiver();
    process.env.PURGE_URL = receiver.url;
    try {
      testApp = await createTestApp();
    } finally {
      delete process.env.PURGE_URL;
    }
    venue = await post('venues', { venue: 'Hall', city: 'Lyon' });
    organizer = await post('organizers', { organizer: 'Ada' });
    category = await post('categories', { name: 'Concerts' });
    tag = await post('tags', { name: 'Jazz' });
    event = await post('events', {
      title: 'Cached concert',
      start_date: daysAhead(3),
      end_date: daysAhead(3, '22:00:00'),
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  describe('ETag and conditional GETs', () => {
    it('answers an anonymous event with a strong ETag, and 304 without a body when If-None-Match matches', async () => {
      const first = await request(testApp.server).get(`${EVENTS}/events/${event.id}`).expect(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      const second = await request(testApp.server).get(`${EVENTS}/events/${event.id}`).set('If-None-Match', etag).expect(304);
      expect(second.text).toBe('');
      expect(second.headers.etag).toBe(etag);
      await request(testApp.server).get(`${EVENTS}/events/${event.id}`).set('If-None-Match', '"something-else"').expect(200);
    });

    it('answers 304 for lists, venues, organizers, categories and tags too', async () => {
      for (const path of ['events', `venues/${venue.id}`, 'organizers', `categories/${category.id}`, 'tags', 'categories']) {
        const first = await request(testApp.server).get(`${EVENTS}/${path}`).expect(200);
        await request(testApp.server).get(`${EVENTS}/${path}`).set('If-None-Match', first.headers.etag).expect(304);
      }
    });

    it('answers the conditional GET of an event or a list from versions, without assembling its body', async () => {
      const assembled = jest.spyOn(ByteAssembler.prototype, 'toBuffer');
      try {
        for (const path of [`events/${event.id}`, 'events', `events?categories=${category.id}`]) {
          const first = await request(testApp.server).get(`${EVENTS}/${path}`).expect(200);
          expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
          assembled.mockClear();
          const again = await request(testApp.server).get(`${EVENTS}/${path}`).expect(200);
          expect(again.headers.etag).toBe(first.headers.etag);
          expect(assembled).toHaveBeenCalled();
          assembled.mockClear();
          await request(testApp.server).get(`${EVENTS}/${path}`).set('If-None-Match', first.headers.etag).expect(304);
          expect({ path, assembled: assembled.mock.calls.length }).toEqual({ path, assembled: 0 });
        }
      } finally {
        assembled.mockRestore();
      }
    });

    it('answers the conditional GET of an event missing from memory in one statement, from what its stored row says', async () => {
      const single = `${EVENTS}/events/${event.id}`;
      // What this instance keeps in memory, forgotten: as another instance, or this one after a restart, would answer.
      const forget = () => testApp.app.get<EventDocuments, { documents: { clear(): void } }>(EventDocuments).documents.clear();
      const etag = (await request(testApp.server).get(single).expect(200)).headers.etag;
      const recorder = recordStatements(testApp.dataSource);
      forget();
      recorder.clear();
      await request(testApp.server).get(single).set('If-None-Match', etag).expect(304);
      // The head: who may read it, its version, its terms' counts and its stored row's facts; not the document.
      expect(withoutTransactionControl(recorder.statements)).toHaveLength(1);
      expect(recorder.statements.join('\n')).not.toMatch(/SELECT event_id AS id, document_version AS version, identity, body/);
      // The full GET of the same event, as another instance would answer it, has the same tag.
      forget();
      expect((await request(testApp.server).get(single).expect(200)).headers.etag).toBe(etag);
      // A row stored before the stored rows said whether they have offers: the document is read to know, the tag is the same.
      await testApp.dataSource.getRepository(StoredEventDocument).update({ eventId: event.id as number }, { ticketed: null });
      forget();
      recorder.clear();
      await request(testApp.server).get(single).set('If-None-Match', etag).expect(304);
      expect(withoutTransactionControl(recorder.statements)).toHaveLength(2);
    });

    it('changes the ETag of an event when its tickets’ offers change', async () => {
      const single = `${EVENTS}/events/${event.id}`;
      const nonces = (await request(testApp.server).get('/cal/tickets/v1/nonces').set('Authorization', admin).expect(200)).body as Body;
      const etags = [(await request(testApp.server).get(single).expect(200)).headers.etag];
      const ticket = await postTicket(testApp.server, admin, event.id, { price: '20', capacity: 5 });
      etags.push((await request(testApp.server).get(single).expect(200)).headers.etag);
      await request(testApp.server)
        .patch(`/cal/tickets/v1/tickets/${ticket.id}`)
        .set('Authorization', admin)
        .send({ post_id: event.id, price: '25', edit_ticket_nonce: nonces.edit_ticket_nonce })
        .expect(200);
      const after = await request(testApp.server).get(single).expect(200);
      expect(after.body.json_ld.offers).toEqual([expect.objectContaining({ price: '25' })]);
      etags.push(after.headers.etag);
      expect(new Set(etags).size).toBe(3);
    });

    it('changes the ETag after each kind of write to what the answer shows', async () => {
      const single = `${EVENTS}/events/${event.id}`;
      const list = `${EVENTS}/events?categories=${category.id}`;
      const etagOf = async (path: string) => (await request(testApp.server).get(path).expect(200)).headers.etag;
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['event update', () => post(`events/${event.id}`, { title: 'Renamed concert' }, 200)],
        ['venue update', () => post(`venues/${venue.id}`, { city: 'Grenoble' }, 200)],
        ['organizer update', () => post(`organizers/${organizer.id}`, { organizer: 'Ada L.' }, 200)],
        ['category update', () => post(`categories/${category.id}`, { name: 'Live music' }, 200)],
        ['tag update', () => post(`tags/${tag.id}`, { name: 'Bebop' }, 200)],
        [
          'another event in the same category (its count)',
          () =>
            post('events', { title: 'Second', start_date: daysAhead(5), end_date: daysAhead(5, '21:00:00'), categories: [category.id] }),
        ],
      ];
      for (const [name, write] of writes) {
        const before = [await etagOf(single), await etagOf(list)];
        await write();
        const after = [await etagOf(single), await etagOf(list)];
        expect({ name, changed: [after[0] !== before[0], after[1] !== before[1]] }).toEqual({ name, changed: [true, true] });
        await request(testApp.server).get(single).set('If-None-Match', before[0]).expect(200);
        await request(testApp.server).get(list).set('If-None-Match', before[1]).expect(200);
      }
    });
  });

  describe('Cache-Control and surrogate keys', () => {
    it('marks anonymous public reads public, with the keys of everything they show', async () => {
      const response = await request(testApp.server).get(`${EVENTS}/events/${event.id}`).expect(200);
      expect(response.headers['cache-control']).toBe('public, no-cache');
      expect(response.headers.vary).toMatch(/Authorization/);
      const keys = response.headers['surrogate-key'].split(' ');
      expect(keys).toEqual(
        expect.arrayContaining([
          'events',
          `event-${event.id}`,
          `venue-${venue.id}`,
          `organizer-${organizer.id}`,
          `category-${category.id}`,
          `tag-${tag.id}`,
        ]),
      );
      expect(response.headers['cache-tag']).toBe(keys.join(','));
    });

    it('names each list by its kind and by what it shows', async () => {
      const cases: Array<[string, string[]]> = [
        ['events', ['events', 'events-list', `event-${event.id}`, `venue-${venue.id}`]],
        ['venues', ['events', 'venues-list', `venue-${venue.id}`]],
        ['organizers', ['events', 'organizers-list', `organizer-${organizer.id}`]],
        ['categories', ['events', 'categories-list', `category-${category.id}`]],
        ['tags', ['events', 'tags-list', `tag-${tag.id}`]],
      ];
      for (const [path, expected] of cases) {
        const response = await request(testApp.server).get(`${EVENTS}/${path}`).expect(200);
        expect(response.headers['surrogate-key'].split(' ')).toEqual(expect.arrayContaining(expected));
      }
      const tickets = await request(testApp.server).get('/cal/tickets/v1/tickets').expect(200);
      expect(tickets.headers['surrogate-key'].split(' ')).toEqual(expect.arrayContaining(['tickets', 'tickets-list']));
    });

    it('never marks a signed-in caller’s answer public, nor gives it surrogate keys', async () => {
      for (const path of [`events/${event.id}`, 'events', `venues/${venue.id}`, 'categories']) {
        const response = await request(testApp.server).get(`${EVENTS}/${path}`).set('Authorization', admin).expect(200);
        expect(response.headers['cache-control']).toBe('private, no-cache');
        expect(response.headers['surrogate-key']).toBeUndefined();
        expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      }
    });

    it('keeps wrong credentials out of the cache too (401, private)', async () => {
      const response = await request(testApp.server).get(`${EVENTS}/events`).set('Authorization', basicAuth('admin', 'wrong')).expect(401);
      expect(response.headers['cache-control'] ?? '').not.toMatch(/public/);
      expect(response.headers['surrogate-key']).toBeUndefined();
    });

    it('marks routes that are not public documents private even when anonymous, and error answers never public', async () => {
      const cart = await request(testApp.server).get('/cal/tickets/v1/cart');
      expect(cart.headers['cache-control'] ?? 'private').not.toMatch(/public/);
      const missing = await request(testApp.server).get(`${EVENTS}/events/999999`).expect(404);
      expect(missing.headers['cache-control']).not.toMatch(/public/);
      expect(missing.headers['surrogate-key']).toBeUndefined();
    });
  });

  describe('purges', () => {
    beforeEach(async () => {
      await testApp.app.get(OutboxWorker).drain();
      receiver.received.length = 0;
    });

    it('writes the keys a venue update makes stale into the outbox, and sends them to PURGE_URL', async () => {
      await post(`venues/${venue.id}`, { city: 'Paris' }, 200);
      const pending = await pendingPurges();
      expect(pending.flat()).toEqual(expect.arrayContaining([`venue-${venue.id}`, 'venues-list', 'events-list']));
      await testApp.app.get(OutboxWorker).drain();
      expect(receiver.received).toHaveLength(pending.length);
      expect(receiver.received[0].method).toBe('PURGE');
      expect(receiver.received.flatMap((purge) => purge.keys)).toEqual(expect.arrayContaining([`venue-${venue.id}`, 'venues-list']));
      expect(receiver.received[0].body.keys).toEqual(receiver.received[0].keys);
      expect(await pendingPurges()).toEqual([]);
    });

    it('purges an updated event, the lists and the terms whose counts it shows', async () => {
      await post(`events/${event.id}`, { title: 'Retitled' }, 200);
      await testApp.app.get(OutboxWorker).drain();
      expect(receiver.received.flatMap((purge) => purge.keys)).toEqual(
        expect.arrayContaining([`event-${event.id}`, 'events-list', `category-${category.id}`, `tag-${tag.id}`]),
      );
    });

    it('purges a trashed event', async () => {
      const doomed = await post('events', { title: 'Doomed', start_date: daysAhead(6), end_date: daysAhead(6, '21:00:00') });
      await testApp.app.get(OutboxWorker).drain();
      receiver.received.length = 0;
      await request(testApp.server).delete(`${EVENTS}/events/${doomed.id}`).set('Authorization', admin).expect(200);
      await testApp.app.get(OutboxWorker).drain();
      expect(receiver.received.flatMap((purge) => purge.keys)).toEqual(expect.arrayContaining([`event-${doomed.id}`, 'events-list']));
    });

    it('writes no purge for a write that fails, and retries a purge the cache refuses', async () => {
      await post('venues', { venue: '' }, 400);
      expect(await pendingPurges()).toEqual([]);
      receiver.answer.status = 503;
      try {
        await post(`tags/${tag.id}`, { name: 'Swing' }, 200);
        await testApp.app.get(OutboxWorker).runOnce();
        expect(receiver.received.length).toBeGreaterThan(0);
        const [message] = await testApp.dataSource
          .getRepository(OutboxMessage)
          .find({ where: { channel: 'purge' }, order: { id: 'DESC' }, take: 1 });
        expect(message).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503 });
      } finally {
        receiver.answer.status = 200;
      }
    });
  });

  describe('requests Node refuses before the app sees them', () => {
    let port: number;
    beforeAll(async () => {
      await new Promise<void>((resolve) => testApp.server.listen(0, '127.0.0.1', resolve));
      port = (testApp.server.address() as AddressInfo).port;
    });

    it('answers a URL past the limit with 414 and the JSON envelope', async () => {
      const answer = await rawRequest(port, `GET ${EVENTS}/events?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect(answer.status).toBe(414);
      expect(answer.headers).toMatch(/Content-Type: application\/json/);
      expect(JSON.parse(answer.body)).toEqual({ code: 'rest_uri_too_long', message: expect.any(String), data: { status: 414 } });
    });

    it('answers headers past the limit with 431 and the JSON envelope', async () => {
      const answer = await rawRequest(port, `GET ${EVENTS}/events HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'b'.repeat(20_000)}\r\n\r\n`);
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body)).toEqual({ code: 'rest_header_fields_too_large', message: expect.any(String), data: { status: 431 } });
    });

    it('answers malformed HTTP with 400 and the JSON envelope', async () => {
      const answer = await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n');
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'rest_bad_request', data: { status: 400 } });
    });
  });
});
