import request from 'supertest';
import { BENCH_ADMIN_AUTHORIZATION } from '../bench/credentials';
import { seedBenchmarkData } from '../bench/seed';
import { CountCache } from '../src/catalogue/caching/count-cache';
import { createTestApp, TestApp } from './helpers/test-app';

const onMariaDb = (process.env.TEST_DATABASE_URL ?? '').startsWith('mysql');

interface PlanRow {
  select_type: string | null;
  table: string | null;
  type: string | null;
  key: string | null;
  rows: number | string | null;
  Extra: string | null;
}

/** Tables too small to matter in a plan (a few hundred rows at most, whatever the calendar's size). */
const SMALL_TABLES = /^(event_categories|event_tags|cache_generations|users|ticket_pools)$/;
/** Fewer rows than this and a whole-table read costs less than an index dive. */
const SMALL_TABLE_ROWS = 1000;

/**
 * The plans MariaDB picks for the SQL of the main lists, on a calendar made by the benchmark's
 * generator (with fresh statistics): every large table is read through an index, never scanned
 * whole. The statements are the ones the routes really run (caught from TypeORM's logger).
 */
(onMariaDb ? describe : describe.skip)('Query plans of the main lists (e2e, MariaDB only: plans are the server optimiser’s)', () => {
  let testApp: TestApp;
  let categoryId: number;
  let venueId: number;
  let organizerId: number;
  let tagId: number;
  let secondCategoryId: number;
  let secondTagId: number;
  let searchWord: string;
  let eventId: number;

  beforeAll(async () => {
    // Plans are what is tested here: seeding 15 000 events on a loaded machine may take longer
    // than the service's statement limit.
    process.env.DATABASE_STATEMENT_TIMEOUT_MS = '0';
    testApp = await createTestApp();
    delete process.env.DATABASE_STATEMENT_TIMEOUT_MS;
    await seedBenchmarkData(testApp.dataSource, { events: 15000, seed: 11 });
    await testApp.dataSource.query(
      'ANALYZE TABLE events, venues, organizers, event_venue_links, event_organizer_links, event_category_links, event_tag_links, event_listings, event_listing_days, event_listing_pairs, event_listing_pair_days, tickets, attendees, orders',
    );
    const scalar = async (sql: string) => Object.values((await testApp.dataSource.query<Array<Record<string, unknown>>>(sql))[0])[0];
    categoryId = Number(await scalar('SELECT category_id FROM event_category_links GROUP BY category_id ORDER BY COUNT(*) DESC LIMIT 1'));
    venueId = Number(await scalar('SELECT venue_id FROM event_venue_links GROUP BY venue_id ORDER BY COUNT(*) DESC LIMIT 1'));
    organizerId = Number(
      await scalar('SELECT organizer_id FROM event_organizer_links GROUP BY organizer_id ORDER BY COUNT(*) DESC LIMIT 1'),
    );
    tagId = Number(await scalar('SELECT tag_id FROM event_tag_links GROUP BY tag_id ORDER BY COUNT(*) DESC LIMIT 1'));
    secondTagId = Number(await scalar('SELECT tag_id FROM event_tag_links GROUP BY tag_id ORDER BY COUNT(*) DESC LIMIT 1 OFFSET 1'));
    secondCategoryId = Number(
      await scalar('SELECT category_id FROM event_category_links GROUP BY category_id ORDER BY COUNT(*) DESC LIMIT 1 OFFSET 1'),
    );
    eventId = Number(await scalar("SELECT id FROM events WHERE status = 'publish' ORDER BY id LIMIT 1"));
    const title = String(
      await scalar("SELECT title FROM events WHERE status = 'publish' AND start_utc > UTC_TIMESTAMP() ORDER BY start_utc LIMIT 1"),
    );
    searchWord = title
      .split(/\s+/)
      .find((word) => word.length >= 5)!
      .toLowerCase();
  }, 600_000);

  afterAll(async () => {
    await testApp.close();
  });

  /** Every SELECT the route runs, with its parameters, counted cold (no cached counts). */
  async function statementsOf(path: string, authorization?: string): Promise<Array<[string, unknown[]]>> {
    testApp.app.get(CountCache).clear();
    const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
    let statements: Array<[string, unknown[]]>;
    try {
      const call = request(testApp.server).get(path);
      if (authorization) call.set('Authorization', authorization);
      await call.expect(200);
      statements = spy.mock.calls.map(([sql, parameters]) => [String(sql), (parameters ?? []) as unknown[]]);
    } finally {
      spy.mockRestore();
    }
    // A count generation's own read is left out, not a page that reads one along (TicketsRepository.pageMatching).
    return statements
      .flatMap(compoundSelects)
      .filter(
        ([sql]) =>
          /^\s*SELECT/i.test(sql) &&
          !/^\s*SELECT SUM\(\W*generation\W*\.\W*generation\W*\) AS \W*generation\W* FROM \W*cache_generations/.test(sql),
      );
  }

  /**
   * The SELECTs of an anonymous compound statement (an events list's total, EventListingsReader),
   * each with its parameters, its variables read as NULL and now: the plans do not depend on them.
   */
  function compoundSelects([sql, parameters]: [string, unknown[]]): Array<[string, unknown[]]> {
    if (!/^\s*BEGIN NOT ATOMIC/.test(sql)) return [[sql, parameters]];
    let next = 0;
    return sql
      .replace(/^\s*BEGIN NOT ATOMIC|END\s*$/g, '')
      .split(';')
      .flatMap((part) => {
        const used = (part.match(/\?/g) ?? []).length;
        const own = parameters.slice(next, next + used);
        next += used;
        if (!/^\s*SELECT/i.test(part)) return [];
        const select = part
          .replace(/ INTO inside, overrun_start/, '')
          .replace(/\binside\b/g, 'NULL')
          .replace(/\boverrun_start\b/g, 'UTC_TIMESTAMP()');
        return [[select.trim(), own] as [string, unknown[]]];
      });
  }

  /** The table an alias of a TypeORM statement stands for (the alias itself when it is a table name). */
  function tableBehind(sql: string, alias: string): string {
    return new RegExp('`(\\w+)` `?' + alias + '`?\\b').exec(sql)?.[1] ?? alias;
  }

  /**
   * A table the generator leaves (nearly) empty, such as series occurrences, is read whole by any
   * optimiser; it is judged on a calendar that fills it, not here.
   */
  async function rowCount(table: string): Promise<number> {
    const [row] = await testApp.dataSource.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM \`${table}\``);
    return Number(row.n);
  }

  /**
   * Whole-table reads of the route's statements other than its total: a page, its relations and
   * lookups. A list's total counts every matching row whatever the plan, so it is answered from
   * the count cache (src/common/caching/count-cache.ts) and left out here.
   */
  async function fullScans(path: string, authorization?: string): Promise<string[]> {
    const scans: string[] = [];
    for (const [sql, parameters] of (await statementsOf(path, authorization)).filter(
      ([statement]) => !/^\s*SELECT COUNT\(/i.test(statement),
    )) {
      const plan = await testApp.dataSource.query<PlanRow[]>(`EXPLAIN ${sql}`, parameters);
      for (const row of plan) {
        const table = row.table ?? '';
        const rows = Number(row.rows ?? 0);
        if (
          (row.type === 'ALL' || (row.type === 'index' && rows > 1000)) &&
          !SMALL_TABLES.test(table) &&
          !/^<(derived|subquery)/.test(table)
        ) {
          const underlying = tableBehind(sql, table);
          if ((await rowCount(underlying)) < SMALL_TABLE_ROWS) continue;
          scans.push(`${row.type} scan of ${table} (${row.rows} rows, ${row.Extra ?? ''}) in: ${sql.slice(0, 160)}… [table ${underlying}]`);
        }
      }
    }
    return scans;
  }

  it.each([
    ['events, default window', () => '/cal/events/v1/events'],
    ['events, category filter, page 3', () => `/cal/events/v1/events?categories=${categoryId}&page=3`],
    ['events, tag filter', () => `/cal/events/v1/events?tags=${tagId}`],
    ['events, venue filter', () => `/cal/events/v1/events?venue=${venueId}`],
    ['events, organizer filter', () => `/cal/events/v1/events?organizer=${organizerId}`],
    ['events, featured', () => '/cal/events/v1/events?featured=true'],
    ['events, search', () => `/cal/events/v1/events?search=${encodeURIComponent(searchWord)}`],
    ['single event', () => `/cal/events/v1/events/${eventId}`],
    ['venues', () => '/cal/events/v1/venues'],
    ['organizers', () => '/cal/events/v1/organizers'],
    ['tickets', () => '/cal/tickets/v1/tickets'],
  ])('%s: no large table read whole', async (_name, path) => {
    expect(await fullScans(path())).toEqual([]);
  });

  /** Every filter of the events list, as each kind of caller sends it. */
  // Anonymous callers: '' (each row has as many values as the test has parameters).
  const eventLists: Array<[string, () => string, string]> = [
    ['default window', () => '/cal/events/v1/events', ''],
    ['default window, page 3', () => '/cal/events/v1/events?page=3', ''],
    ['category', () => `/cal/events/v1/events?categories=${categoryId}&page=3`, ''],
    ['two categories', () => `/cal/events/v1/events?categories=${categoryId},${secondCategoryId}&page=2`, ''],
    ['tag', () => `/cal/events/v1/events?tags=${tagId}`, ''],
    ['two tags', () => `/cal/events/v1/events?tags=${tagId},${secondTagId}&page=2`, ''],
    ['venue', () => `/cal/events/v1/events?venue=${venueId}`, ''],
    ['organizer', () => `/cal/events/v1/events?organizer=${organizerId}`, ''],
    ['featured', () => '/cal/events/v1/events?featured=true', ''],
    ['not featured', () => '/cal/events/v1/events?featured=false&page=2', ''],
    ['geoloc', () => '/cal/events/v1/events?geoloc=true', ''],
    ['signed in, every status but trash', () => '/cal/events/v1/events?page=2', BENCH_ADMIN_AUTHORIZATION],
    ['signed in, status filter', () => `/cal/events/v1/events?status=publish,draft&categories=${categoryId}`, BENCH_ADMIN_AUTHORIZATION],
  ];

  const isCount = (sql: string) => /^\s*SELECT\s+(\(SELECT COUNT|COUNT\(|SUM\()/i.test(sql);

  it.each(eventLists)(
    'events list, %s: its page is an ordered range of the read model (no temporary table, no filesort)',
    async (_name, path, authorization) => {
      const statements = await statementsOf(path(), authorization || undefined);
      const pages = statements.filter(([sql]) => /event_listings/.test(sql) && !isCount(sql));
      expect(pages.length).toBeGreaterThan(0);
      const sorts: string[] = [];
      for (const [sql, parameters] of pages) {
        const plan = await testApp.dataSource.query<PlanRow[]>(`EXPLAIN ${sql}`, parameters);
        // The page's rows picked from the range of the read model's primary key (a derived table of
        // at most a page), then by primary key for each of them only: the event's document version
        // and its terms' counts.
        expect(plan.find((row) => row.table === 'listing')).toMatchObject({ select_type: 'DERIVED', key: 'PRIMARY' });
        expect(plan.filter((row) => row.key !== 'PRIMARY' && !/^<derived/.test(row.table ?? ''))).toEqual([]);
        for (const row of plan) if (/temporary|filesort/i.test(row.Extra ?? '')) sorts.push(`${row.Extra} in: ${sql.slice(0, 200)}`);
      }
      expect(sorts).toEqual([]);
    },
  );

  it.each(eventLists)('events list, %s: its total reads no large table whole', async (_name, path, authorization) => {
    const counts = (await statementsOf(path(), authorization || undefined)).filter(([sql]) => isCount(sql));
    expect(counts.length).toBeGreaterThan(0);
    const scans: string[] = [];
    for (const [sql, parameters] of counts) {
      const plan = await testApp.dataSource.query<PlanRow[]>(`EXPLAIN ${sql}`, parameters);
      for (const row of plan) {
        const table = row.table ?? '';
        if ((row.type === 'ALL' || row.type === 'index') && !SMALL_TABLES.test(table) && !/^<(derived|subquery)/.test(table)) {
          scans.push(`${row.type} scan of ${table} (${row.rows} rows) in: ${sql.slice(0, 200)}`);
        }
      }
    }
    expect(scans).toEqual([]);
  });

  it('the default window and a category total from day counters, not by counting the window', async () => {
    for (const path of ['/cal/events/v1/events', `/cal/events/v1/events?categories=${categoryId}`]) {
      const counts = (await statementsOf(path)).filter(([sql]) => isCount(sql));
      expect(counts.some(([sql]) => /FROM event_listing_days/.test(sql))).toBe(true);
      for (const [sql, parameters] of counts.filter(([statement]) => /FROM event_listing_days/.test(statement))) {
        const [plan] = await testApp.dataSource.query<PlanRow[]>(`EXPLAIN ${sql}`, parameters);
        expect({ type: plan.type, key: plan.key }).toEqual({ type: 'range', key: 'PRIMARY' });
      }
    }
  });

  it('a two-tag total from the day counters and the pairs’ counters, without counting the rows', async () => {
    const statements = (await statementsOf(`/cal/events/v1/events?tags=${tagId},${secondTagId}`)).map(([sql]) => sql);
    expect(statements.filter((sql) => /event_listing_pair_days/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /FROM event_listing_days/.test(sql))).toHaveLength(2);
    expect(statements.filter((sql) => /COUNT\(DISTINCT|event\.id IN \(SELECT/i.test(sql))).toEqual([]);
  });

  it('attendees as a manager: no large table read whole', async () => {
    expect(await fullScans('/cal/tickets/v1/attendees', BENCH_ADMIN_AUTHORIZATION)).toEqual([]);
  });
});
