import { SqlDialect } from '../src/database/sql-dialect';
import { join } from 'node:path';
import request from 'supertest';
import { EventDocumentVersions1764910000000 } from '../src/database/migrations/1764910000000-EventDocumentVersions';
import { EventDocuments } from '../src/catalogue/documents/event-documents';
import { Event } from '../src/events/event.entity';
import { MetricsService } from '../src/metrics/metrics.service';
import { recordStatements, StatementRecorder, withoutTransactionControl } from './helpers/statement-recorder';
import { insertEvents } from './helpers/fixtures';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

/**
 * The cached event documents (src/events/event-documents.ts) on two instances sharing one
 * database (MariaDB when TEST_DATABASE_URL is set, else one SQLite file): every write made on
 * the first shows at once on the second, whose cache is warm, exactly as a third instance without
 * a cache (EVENT_DOCUMENT_CACHE_MB=0) builds it; a warm page costs at most three statements.
 */
process.env.PUBLIC_URL = 'https://calendar.example.org';
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'event-documents.sqlite')}`;
}

const admin = basicAuth(ADMIN.login, ADMIN.password);
const EVENTS = '/cal/events/v1';

function daysAhead(days: number, time = '19:00:00'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${time}`;
}

type Body = Record<string, any>;

describe('Cached event documents on two instances (e2e)', () => {
  let writer: TestApp;
  let reader: TestApp;
  let uncached: TestApp;
  let storedOnly: TestApp;
  let recorder: StatementRecorder;
  let event: Body;
  let venue: Body;
  let organizer: Body;
  let category: Body;
  let tag: Body;

  async function startWithCache(megabytes?: string, store = true): Promise<TestApp> {
    if (megabytes === undefined) delete process.env.EVENT_DOCUMENT_CACHE_MB;
    else process.env.EVENT_DOCUMENT_CACHE_MB = megabytes;
    process.env.EVENT_DOCUMENT_STORE = String(store);
    try {
      return await createTestApp({ keepTables: true });
    } finally {
      delete process.env.EVENT_DOCUMENT_CACHE_MB;
      delete process.env.EVENT_DOCUMENT_STORE;
    }
  }

  beforeAll(async () => {
    // The first empties the tables (MariaDB); the others find them as it left them.
    writer = await createTestApp();
    reader = await startWithCache();
    // Builds every document from rows: what the stored and cached ones must equal byte for byte.
    uncached = await startWithCache('0', false);
    // Reads every document from the database's stored documents (event_documents), none kept in memory.
    storedOnly = await startWithCache('0');
    recorder = recordStatements(reader.dataSource);

    const post = async (path: string, body: Body) =>
      (await request(writer.server).post(`${EVENTS}/${path}`).set('Authorization', admin).send(body).expect(201)).body as Body;
    venue = await post('venues', { venue: 'Hall', city: 'Lyon' });
    organizer = await post('organizers', { organizer: 'Ada' });
    category = await post('categories', { name: 'Concerts' });
    tag = await post('tags', { name: 'Jazz' });
    event = await post('events', {
      title: 'Cached concert',
      description: 'Evening of music',
      start_date: daysAhead(3),
      end_date: daysAhead(3, '22:00:00'),
      cost: '15',
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    });
    await post('events', { title: 'Plain neighbour', start_date: daysAhead(4), end_date: daysAhead(4, '21:00:00') });
  }, 120_000);

  afterAll(async () => {
    await uncached?.close();
    await storedOnly?.close();
    await reader?.close();
    await writer?.close();
  });

  const get = async (app: TestApp, path: string, authorization?: string) => {
    const test = request(app.server).get(`${EVENTS}/${path}`);
    if (authorization) test.set('Authorization', authorization);
    const response = await test.expect(200);
    return { body: response.body as Body, text: response.text };
  };

  /** The reader's list pages and single GET as the uncached instance answers them, byte for byte. */
  async function expectReaderFresh(): Promise<{ list: Body; single: Body }> {
    const pages = ['events', `events?categories=${category.id as number}`, `events?tags=${tag.id as number}`];
    const answers: Body[] = [];
    for (const path of pages) {
      const [cached, built, stored] = [await get(reader, path), await get(uncached, path), await get(storedOnly, path)];
      expect(cached.text).toBe(built.text);
      expect(stored.text).toBe(built.text);
      answers.push(cached.body);
    }
    // Signed in, which also reads a trashed event.
    const single = `events/${event.id as number}`;
    const singles = [await get(reader, single, admin), await get(uncached, single, admin), await get(storedOnly, single, admin)];
    expect(singles[0].text).toBe(singles[1].text);
    expect(singles[2].text).toBe(singles[1].text);
    // Signed in: drafts and the same documents.
    const signedIn = [await get(reader, 'events', admin), await get(uncached, 'events', admin)];
    expect(signedIn[0].text).toBe(signedIn[1].text);
    return { list: answers[0], single: singles[0].body };
  }

  const listed = (list: Body) => (list.events as Body[]).find((entry) => entry.id === event.id)!;

  async function warm(): Promise<void> {
    await expectReaderFresh();
    await expectReaderFresh();
  }

  it('answers lists and single events byte for byte as an instance without the cache', async () => {
    const { list, single } = await expectReaderFresh();
    expect(listed(list)).toMatchObject({ title: 'Cached concert', venue: { id: venue.id }, categories: [{ id: category.id, count: 1 }] });
    expect(listed(list).json_ld).toBeUndefined();
    expect(single.json_ld).toMatchObject({ name: 'Cached concert', offers: { price: '15' } });
  });

  it('shows on the warm reader every write made on the other instance', async () => {
    const http = () => request(writer.server);
    const id = event.id as number;
    const steps: Array<[string, () => Promise<unknown>, (fresh: { list: Body; single: Body }) => void]> = [
      [
        'event update',
        () => http().post(`${EVENTS}/events/${id}`).set('Authorization', admin).send({ title: 'Renamed concert' }).expect(200),
        ({ single }) => expect(single.title).toBe('Renamed concert'),
      ],
      [
        'venue update',
        () =>
          http()
            .post(`${EVENTS}/venues/${venue.id as number}`)
            .set('Authorization', admin)
            .send({ city: 'Grenoble' })
            .expect(200),
        ({ list }) => expect(listed(list).venue.city).toBe('Grenoble'),
      ],
      [
        'organizer update',
        () =>
          http()
            .post(`${EVENTS}/organizers/${organizer.id as number}`)
            .set('Authorization', admin)
            .send({ phone: '555-0100' })
            .expect(200),
        ({ single }) => expect(single.organizer[0].phone).toBe('555-0100'),
      ],
      [
        'category rename',
        () =>
          http()
            .post(`${EVENTS}/categories/${category.id as number}`)
            .set('Authorization', admin)
            .send({ name: 'Live music' })
            .expect(200),
        ({ list }) => expect(listed(list).categories[0].name).toBe('Live music'),
      ],
      [
        'link change',
        () => http().post(`${EVENTS}/events/${id}`).set('Authorization', admin).send({ tags: [] }).expect(200),
        ({ list }) => expect(listed(list).tags).toEqual([]),
      ],
      [
        'term count change by publishing another event in the term',
        () =>
          http()
            .post(`${EVENTS}/events`)
            .set('Authorization', admin)
            .send({ title: 'Second concert', start_date: daysAhead(5), end_date: daysAhead(5, '22:00:00'), categories: [category.id] })
            .expect(201),
        ({ list }) => expect(listed(list).categories[0].count).toBe(2),
      ],
      [
        'ticket create',
        async () => {
          const nonces = (await http().get('/cal/tickets/v1/nonces').set('Authorization', admin).expect(200)).body as Body;
          const ticket = await http()
            .post('/cal/tickets/v1/tickets')
            .set('Authorization', admin)
            .send({
              post_id: id,
              provider: 'tc',
              name: 'Seat',
              price: '20',
              ticket: { mode: 'own', capacity: 1 },
              add_ticket_nonce: nonces.add_ticket_nonce,
            })
            .expect(201);
          event.ticketId = ticket.body.id;
        },
        ({ list, single }) => {
          expect(listed(list).ticketed).toEqual(['tc']);
          expect(single.json_ld.offers).toEqual([expect.objectContaining({ price: '20', availability: 'https://schema.org/InStock' })]);
        },
      ],
      [
        'ticket update',
        async () => {
          const nonces = (await http().get('/cal/tickets/v1/nonces').set('Authorization', admin).expect(200)).body as Body;
          await http()
            .patch(`/cal/tickets/v1/tickets/${event.ticketId as number}`)
            .set('Authorization', admin)
            .send({ post_id: id, price: '25', edit_ticket_nonce: nonces.edit_ticket_nonce })
            .expect(200);
        },
        ({ single }) => expect(single.json_ld.offers).toEqual([expect.objectContaining({ price: '25' })]),
      ],
      [
        'a sale taking the last seat',
        async () => {
          const cart = await http()
            .post('/cal/tickets/v1/cart')
            .send({ provider: 'tc', tickets: [{ ticket_id: event.ticketId, quantity: 1 }] })
            .expect(200);
          await http()
            .post('/cal/tickets/v1/cart/checkout')
            .set('X-Cart-Token', cart.headers['x-cart-token'])
            .send({ provider: 'tc', purchaser: { name: 'Grace Hopper', email: 'grace@example.org' } })
            .expect(201);
        },
        ({ single }) => expect(single.json_ld.offers).toEqual([expect.objectContaining({ availability: 'https://schema.org/SoldOut' })]),
      ],
      [
        'trash',
        () => http().delete(`${EVENTS}/events/${id}`).set('Authorization', admin).expect(200),
        ({ list }) => expect(listed(list)).toBeUndefined(),
      ],
      [
        'restore',
        () => http().post(`${EVENTS}/events/${id}`).set('Authorization', admin).send({ status: 'publish' }).expect(200),
        ({ list }) => expect(listed(list).status).toBe('publish'),
      ],
    ];
    for (const [name, write, check] of steps) {
      await warm();
      await write();
      try {
        check(await expectReaderFresh());
      } catch (error) {
        throw new Error(`after the ${name}: ${(error as Error).message}`, { cause: error });
      }
    }
  }, 120_000);

  it('reads a warm default page in 2 statements (1 on MariaDB), a category page in 3 (2), a warm single event in 1 (2 with tickets)', async () => {
    const count = async (path: string) => {
      await get(reader, path);
      await get(reader, path);
      recorder.clear();
      await get(reader, path);
      return withoutTransactionControl(recorder.statements);
    };
    // A ticketed event's single GET reads its offers' availability too (the tickets with their pool).
    expect((await get(reader, `events/${event.id as number}`)).body.ticketed).toEqual(['tc']);
    // The total and the page with its versions and term counts: on MariaDB in one compound statement.
    const compound = SqlDialect.of(reader.dataSource).mayRunCompound;
    expect(await count('events')).toHaveLength(compound ? 1 : 2);
    // The category named is checked first.
    expect(await count(`events?categories=${category.id as number}`)).toHaveLength(compound ? 2 : 3);
    // The caller's access, the document's version and the counts of its terms, in one statement; then the tickets.
    expect(await count(`events/${event.id as number}`)).toHaveLength(1 + 1);
    const plain = (await get(reader, 'events')).body.events.find((entry: Body) => entry.title === 'Plain neighbour') as Body;
    expect(await count(`events/${plain.id as number}`)).toHaveLength(1);
    // Missing from this instance's memory but stored current: its body comes with the head, in the same statement.
    reader.app.get<EventDocuments, { documents: { clear(): void } }>(EventDocuments).documents.clear();
    recorder.clear();
    const cold = await request(reader.server)
      .get(`${EVENTS}/events/${plain.id as number}`)
      .expect(200);
    expect(withoutTransactionControl(recorder.statements)).toHaveLength(1);
    expect((cold.body as Body).title).toBe('Plain neighbour');
    // A conditional GET does not read the body with the head: a matching tag needs none.
    reader.app.get<EventDocuments, { documents: { clear(): void } }>(EventDocuments).documents.clear();
    recorder.clear();
    await request(reader.server)
      .get(`${EVENTS}/events/${plain.id as number}`)
      .set('If-None-Match', cold.headers.etag)
      .expect(304);
    expect(recorder.statements.join('\n')).not.toMatch(/body/);
  });

  it('counts hits, misses and evictions in the metrics', async () => {
    const body = await reader.app.get(MetricsService).registry.getSingleMetricAsString('cal_event_document_cache_total');
    expect(body).toMatch(/cal_event_document_cache_total\{result="hit"\} [1-9]/);
    expect(body).toMatch(/cal_event_document_cache_total\{result="miss"\} [1-9]/);
    // What the cache holds, per rendering: its entries and the bytes EVENT_DOCUMENT_CACHE_MB bounds.
    await request(reader.server).get(`${EVENTS}/events`).expect(200);
    const registry = reader.app.get(MetricsService).registry;
    const gauge = async (name: string, rendering: string) =>
      Number(new RegExp(`${name}\\{rendering="${rendering}"\\} (\\d+)`).exec(await registry.getSingleMetricAsString(name))![1]);
    const bytes = (await gauge('cal_event_document_cache_bytes', 'list')) + (await gauge('cal_event_document_cache_bytes', 'single'));
    expect(await gauge('cal_event_document_cache_entries', 'list')).toBeGreaterThan(0);
    expect(bytes).toBe(reader.app.get(EventDocuments).cachedBytes);
  });

  it('keeps a 1 MB cache within its cap, evicting the documents read longest ago, and its answers right', async () => {
    const start = Date.now() + 30 * 86_400_000;
    const rows = Array.from({ length: 400 }, (_, index) => {
      const startUtc = new Date(start + index * 3_600_000);
      return {
        title: `Capped event ${index}`,
        slug: `capped-event-${index}`,
        publishedAt: new Date('2026-11-01T10:00:00Z'),
        startUtc,
        endUtc: startUtc,
        description: 'A description long enough to weigh something. '.repeat(10),
      };
    });
    await insertEvents(writer.dataSource, rows);
    const tiny = await startWithCache('1');
    try {
      const documents = tiny.app.get(EventDocuments);
      const evictions = async () =>
        Number(
          /result="eviction"\} (\d+)/.exec(
            await tiny.app.get(MetricsService).registry.getSingleMetricAsString('cal_event_document_cache_total'),
          )![1],
        );
      for (let page = 1; page <= 9; page += 1) {
        const path = `events?per_page=50&page=${page}`;
        const [cached, built] = [await get(tiny, path), await get(uncached, path)];
        expect(cached.text).toBe(built.text);
        expect(documents.cachedBytes).toBeLessThanOrEqual(1024 * 1024);
      }
      expect(await evictions()).toBeGreaterThan(0);
      // Read again: the first pages were evicted and are built again, still right.
      const [again, built] = [await get(tiny, 'events?per_page=50'), await get(uncached, 'events?per_page=50')];
      expect(again.text).toBe(built.text);
    } finally {
      await tiny.close();
    }
  }, 120_000);

  it('reverts its migration whole (column and triggers) and applies it again', async () => {
    const runner = writer.dataSource.createQueryRunner();
    const migration = new EventDocumentVersions1764910000000();
    const triggers = async () =>
      (
        (await runner.query(
          writer.dataSource.options.type === 'mysql'
            ? "SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE '%\\_document'"
            : "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_document' ESCAPE '\\'",
        )) as Array<{ name: string }>
      ).map((row) => row.name);
    try {
      expect((await triggers()).length).toBeGreaterThan(20);
      await migration.down(runner);
      expect(await runner.hasColumn('events', 'document_version')).toBe(false);
      expect(await triggers()).toEqual([]);
      // No trigger left refers to the column: the events and their links still take writes.
      await runner.query('UPDATE events SET featured = 1 WHERE id = ?', [event.id]);
      await runner.query('DELETE FROM event_tag_links WHERE event_id = ?', [event.id]);
    } finally {
      if (!(await runner.hasColumn('events', 'document_version'))) await migration.up(runner);
      await runner.release();
    }
    const version = async () => (await writer.dataSource.getRepository(Event).findOneByOrFail({ id: event.id as number })).documentVersion;
    const before = await version();
    await request(writer.server)
      .post(`${EVENTS}/venues/${venue.id as number}`)
      .set('Authorization', admin)
      .send({ city: 'Nice' })
      .expect(200);
    expect(await version()).toBeGreaterThan(before);
  }, 60_000);
});
