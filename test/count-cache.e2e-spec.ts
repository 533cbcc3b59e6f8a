import request from 'supertest';
import { SelectQueryBuilder } from 'typeorm';
import { COUNT_CACHE_ENTRY_BYTES, CountCache, countKey } from '../src/catalogue/caching/count-cache';
import type { ConfigType } from '@nestjs/config';
import { Clock, CLOCK } from '../src/common/clock';
import { appConfig } from '../src/config/app.config';
import { Event } from '../src/events/event.entity';
import { postEvent } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { TransactionHost } from '../src/common/database/transaction-host';

/** A clock the test moves; real time otherwise. */
class MovableClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const EVENTS = '/cal/events/v1/events';

/**
 * A list whose total goes through the count cache: a search (one filter's totals come from the read
 * model's day counters, exact without a cache; see test/event-listings.e2e-spec.ts).
 */
const CACHED_LIST = '?start_date=2030-01-01&end_date=2030-12-31&search=cached';

describe('Cached list counts (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  const clock = new MovableClock();

  beforeAll(async () => {
    process.env.COUNT_CACHE_SECONDS = '300';
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    editor = await createUser(testApp, 'editor');
  });

  afterAll(async () => {
    delete process.env.COUNT_CACHE_SECONDS;
    await testApp.close();
  });

  const http = () => request(testApp.server);

  async function createEvent(body: Record<string, unknown>): Promise<Record<string, any>> {
    return postEvent(testApp, editor, { start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00', status: 'publish', ...body });
  }

  /** The list's total and the SQL it ran (generation reads left out). */
  async function listTotal(query = ''): Promise<{ total: number; statements: string[]; body: Record<string, any> }> {
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    try {
      const response = await http().get(`${EVENTS}${query}`).expect(200);
      return {
        total: Number(response.headers['x-tec-total']),
        statements: spy.mock.calls.map(([sql]) => String(sql)).filter((sql) => !/cache_generations/.test(sql)),
        body: response.body,
      };
    } finally {
      spy.mockRestore();
    }
  }

  const counts = (statements: string[]) => statements.filter((sql) => /COUNT\(/i.test(sql));

  beforeEach(async () => {
    await testApp.dataSource.getRepository(Event).createQueryBuilder().delete().execute();
    testApp.app.get(CountCache).clear();
    clock.offsetMs = 0;
  });

  it('counts a list once, then answers the same total from the cache until something changes', async () => {
    await createEvent({ title: 'Cached First', categories: ['Cached category'] });
    const first = await listTotal(CACHED_LIST);
    expect(first.total).toBe(1);
    // The list total; a term's count is stored with the term.
    expect(counts(first.statements)).toHaveLength(1);
    const second = await listTotal(CACHED_LIST);
    expect(second.total).toBe(1);
    expect(counts(second.statements)).toHaveLength(0);
    expect(second.body.events[0].categories[0].count).toBe(1);
  });

  it('counts again after a write through the API: created, retitled into a category, trashed', async () => {
    const first = await createEvent({ title: 'Cached One', categories: ['Concerts'] });
    expect((await listTotal(CACHED_LIST)).total).toBe(1);

    const second = await createEvent({ title: 'Cached Two' });
    expect((await listTotal(CACHED_LIST)).total).toBe(2);

    await http()
      .post(`${EVENTS}/${second.id}`)
      .set('Authorization', editor.authorization)
      .send({ categories: ['Concerts'] })
      .expect(200);
    const listed = await listTotal(CACHED_LIST);
    expect(listed.body.events.map((event: { categories: Array<{ count: number }> }) => event.categories[0].count)).toEqual([2, 2]);

    await http().delete(`${EVENTS}/${first.id}`).set('Authorization', editor.authorization).expect(200);
    const afterTrash = await listTotal(CACHED_LIST);
    expect(afterTrash.total).toBe(1);
    expect(afterTrash.body.events[0].categories[0].count).toBe(1);
  });

  it('follows the generation in the database, which another instance renews after its own writes', async () => {
    await createEvent({ title: 'Cached Seen' });
    expect((await listTotal(CACHED_LIST)).total).toBe(1);
    // Another instance's write: rows this instance never saw, then the generation it renews on commit.
    const template = await testApp.dataSource.getRepository(Event).findOneByOrFail({ title: 'Cached Seen' });
    await testApp.dataSource.query(
      `INSERT INTO events (status, title, slug, published_at, timezone, all_day, start_utc, end_utc, start_local, end_local, hide_from_listings)
       SELECT status, 'Cached elsewhere', 'elsewhere', published_at, timezone, all_day, start_utc, end_utc, start_local, end_local, hide_from_listings FROM events WHERE id = ?`,
      [template.id],
    );
    expect((await listTotal(CACHED_LIST)).total).toBe(1);
    await testApp.dataSource.query(`UPDATE cache_generations SET generation = generation + 1 WHERE name = 'events'`);
    expect((await listTotal(CACHED_LIST)).total).toBe(2);
  });

  it('keeps a count no longer than COUNT_CACHE_SECONDS, for writes made outside the service', async () => {
    await createEvent({ title: 'Cached Seen' });
    expect((await listTotal(CACHED_LIST)).total).toBe(1);
    await testApp.dataSource.query(
      `INSERT INTO events (status, title, slug, published_at, timezone, all_day, start_utc, end_utc, start_local, end_local, hide_from_listings)
       SELECT status, 'Cached imported', 'imported', published_at, timezone, all_day, start_utc, end_utc, start_local, end_local, hide_from_listings FROM events`,
    );
    clock.offsetMs = 299_000;
    expect((await listTotal(CACHED_LIST)).total).toBe(1);
    clock.offsetMs = 301_000;
    expect((await listTotal(CACHED_LIST)).total).toBe(2);
  });

  it('counts once for requests that miss together', async () => {
    await createEvent({ title: 'Cached Crowded' });
    testApp.app.get(CountCache).clear();
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    let statements: string[];
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => http().get(`${EVENTS}${CACHED_LIST}`)));
      expect(answers.map((answer) => answer.headers['x-tec-total'])).toEqual(['1', '1', '1', '1', '1']);
      statements = spy.mock.calls.map(([sql]) => String(sql));
    } finally {
      spy.mockRestore();
    }
    expect(counts(statements)).toHaveLength(1);
  });

  it('never caches a count made inside a transaction', async () => {
    await createEvent({ title: 'Cached Inside' });
    const cache = testApp.app.get(CountCache);
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    let statements: string[];
    try {
      await testApp.dataSource
        .transaction(async (manager) => {
          const builder = manager.createQueryBuilder(Event, 'event');
          expect(await cache.count('events', builder)).toBe(1);
          await manager.delete(Event, { title: 'Cached Inside' });
          expect(await cache.count('events', manager.createQueryBuilder(Event, 'event'))).toBe(0);
          throw new Error('roll back');
        })
        .catch((error: Error) => expect(error.message).toBe('roll back'));
      expect(await cache.count('events', testApp.dataSource.manager.createQueryBuilder(Event, 'event'))).toBe(1);
      statements = spy.mock.calls.map(([sql]) => String(sql));
    } finally {
      spy.mockRestore();
    }
    expect(statements.filter((sql) => /COUNT\(/i.test(sql))).toHaveLength(3);
  });

  it('keys a count by its whole query: filters, window and visibility', async () => {
    await createEvent({ title: 'Cached Published one' });
    await createEvent({ title: 'Cached Draft one', status: 'draft' });
    expect((await listTotal(CACHED_LIST)).total).toBe(1);
    expect((await listTotal('?start_date=2030-01-01&end_date=2030-12-31&search=draft')).total).toBe(0);
    const asEditor = await http()
      .get(`${EVENTS}?start_date=2030-01-01&end_date=2030-12-31&status=draft`)
      .set('Authorization', editor.authorization)
      .expect(200);
    expect(asEditor.headers['x-tec-total']).toBe('1');
  });
});

describe('Cached list counts switched off (e2e)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    process.env.COUNT_CACHE_SECONDS = '0';
    testApp = await createTestApp();
  });

  afterAll(async () => {
    delete process.env.COUNT_CACHE_SECONDS;
    await testApp.close();
  });

  it('counts on every request with COUNT_CACHE_SECONDS=0, and reads no generation', async () => {
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    let statements: string[];
    try {
      await request(testApp.server).get(EVENTS).expect(200);
      await request(testApp.server).get(EVENTS).expect(200);
      statements = spy.mock.calls.map(([sql]) => String(sql));
    } finally {
      spy.mockRestore();
    }
    expect(statements.filter((sql) => /COUNT\(/i.test(sql))).toHaveLength(2);
    expect(statements.filter((sql) => /cache_generations/.test(sql))).toHaveLength(0);
  });
});

describe('Cached list counts bounded by COUNT_CACHE_MB (e2e)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    process.env.COUNT_CACHE_SECONDS = '300';
    testApp = await createTestApp();
  });

  afterAll(async () => {
    delete process.env.COUNT_CACHE_SECONDS;
    await testApp.close();
  });

  /** A cache of this app's database and settings holding at most `megabytes` (a fraction keeps the test short). */
  function cacheOf(megabytes: number): CountCache {
    return new CountCache(
      testApp.app.get(TransactionHost),
      { ...testApp.app.get<ConfigType<typeof appConfig>>(appConfig.KEY), countCacheMb: megabytes },
      testApp.app.get<Clock>(CLOCK),
    );
  }

  /** A stand-in for a query builder: its SQL and parameters, and how often it was counted. */
  function fakeQuery(sql: string, parameters: unknown[], value: number) {
    const query = {
      counted: 0,
      getQueryAndParameters: () => [sql, parameters],
      getCount: async () => {
        query.counted += 1;
        return value;
      },
    };
    return query;
  }

  const count = (cache: CountCache, query: ReturnType<typeof fakeQuery>) =>
    cache.count('events', query as unknown as SelectQueryBuilder<Event>);

  it('reads COUNT_CACHE_MB: 4 MB by default', () => {
    expect(testApp.app.get(CountCache).stats().maxBytes).toBe(4 * 1024 * 1024);
  });

  it('keeps at most its size in counts, each key a digest whatever the length of its SQL, and evicts the one read longest ago', async () => {
    const megabytes = 0.01;
    const cache = cacheOf(megabytes);
    const maxBytes = Math.floor(megabytes * 1024 * 1024);
    const maxEntries = Math.floor(maxBytes / COUNT_CACHE_ENTRY_BYTES);
    // A 20 KB statement costs what a short one costs.
    const long = `SELECT COUNT(*) FROM events WHERE ${'events.title IS NOT NULL AND '.repeat(700)}1 = 1`;
    const first = fakeQuery(long, ['first'], 7);
    const recent = fakeQuery(long, ['recent'], 8);
    expect(await count(cache, first)).toBe(7);
    expect(await count(cache, recent)).toBe(8);
    expect(cache.stats()).toEqual({ entries: 2, bytes: 2 * COUNT_CACHE_ENTRY_BYTES, maxBytes });
    for (let index = 0; index < maxEntries + 10; index += 1) {
      await count(cache, fakeQuery(long, [index], index));
      // Read now and then: the least recently read goes first, not the oldest stored.
      if (index % 10 === 0) expect(await count(cache, recent)).toBe(8);
    }
    const stats = cache.stats();
    expect(stats.entries).toBe(maxEntries);
    expect(stats.bytes).toBeLessThanOrEqual(maxBytes);
    expect(await count(cache, recent)).toBe(8);
    expect(recent.counted).toBe(1);
    expect(await count(cache, first)).toBe(7);
    expect(first.counted).toBe(2);
  });

  it('keys by the query with white space runs made one: the same statement laid out otherwise is the same count', async () => {
    const cache = cacheOf(1);
    const one = fakeQuery('SELECT COUNT(*)\n  FROM events WHERE id > ?', [1], 3);
    const same = fakeQuery('SELECT COUNT(*) FROM events   WHERE id > ?', [1], 3);
    const other = fakeQuery('SELECT COUNT(*) FROM events WHERE id > ?', [2], 4);
    expect(await count(cache, one)).toBe(3);
    expect(await count(cache, same)).toBe(3);
    expect(await count(cache, other)).toBe(4);
    expect([one.counted, same.counted, other.counted]).toEqual([1, 0, 1]);
  });

  it('digests scope, SQL and parameters apart: moving a character between them is another key', () => {
    expect(countKey('events', 'SELECT ?', ['a'])).toHaveLength(27);
    expect(countKey('events', 'SELECT ?', ['a'])).toBe(countKey('events', 'SELECT ?', ['a']));
    expect(countKey('events', 'SELECT ?', ['a'])).not.toBe(countKey('tickets', 'SELECT ?', ['a']));
    expect(countKey('events', 'SELECT ?', ['a'])).not.toBe(countKey('events', 'SELECT ?a', []));
  });
});

describe('Cached list counts with COUNT_CACHE_MB=0 (e2e)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    process.env.COUNT_CACHE_MB = '0';
    testApp = await createTestApp();
  });

  afterAll(async () => {
    delete process.env.COUNT_CACHE_MB;
    await testApp.close();
  });

  it('counts on every request and keeps nothing', async () => {
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    let statements: string[];
    try {
      await request(testApp.server).get(EVENTS).expect(200);
      await request(testApp.server).get(EVENTS).expect(200);
      statements = spy.mock.calls.map(([sql]) => String(sql));
    } finally {
      spy.mockRestore();
    }
    expect(statements.filter((sql) => /COUNT\(/i.test(sql))).toHaveLength(2);
    expect(statements.filter((sql) => /cache_generations/.test(sql))).toHaveLength(0);
    expect(testApp.app.get(CountCache).stats()).toEqual({ entries: 0, bytes: 0, maxBytes: 0 });
  });
});
