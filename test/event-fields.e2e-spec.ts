import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { CLOCK } from '../src/common/clock';
import { EVENT_FIELDS, EventFieldDeclaration } from '../src/events/event-fields';
import { RESPONSE_EXAMPLES } from '../src/namespaces/openapi-examples';
import { SeriesService } from '../src/series/series.service';
import { TestClock } from './helpers/ticketing-fixtures';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

/**
 * Every field declared in events/event-fields.ts, written once with a value other than its default
 * and read back on every read path: the single GET, the list, the stored document read by a second
 * instance on the same database, the drop-in API root (/wp-json), and an occurrence a series creates
 * later from its template. A field left out of any of them fails here.
 */
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'event-fields.sqlite')}`;
}

const admin = basicAuth(ADMIN.login, ADMIN.password);
type Body = Record<string, any>;
const FIELDS = EVENT_FIELDS as readonly EventFieldDeclaration[];
const SHOWN = FIELDS.filter((field) => field.shown);

/** An event hidden from listings is not in lists: the list's event keeps that one field's default. */
const LISTED = { hide_from_listings: false };

function samples(overrides: Body = {}): Body {
  return { ...Object.fromEntries(FIELDS.map((field) => [field.key, field.sample])), ...overrides };
}

function shownSamples(overrides: Body = {}): Body {
  const all = samples(overrides);
  return Object.fromEntries(SHOWN.map((field) => [field.key, all[field.key]]));
}

async function withEnv<T>(env: Record<string, string>, start: () => Promise<T>): Promise<T> {
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
  }
}

describe('Declared event fields on every read path (e2e)', () => {
  const clock = new TestClock();
  let writer: TestApp;
  let single: Body;
  let listed: Body;
  let series: Body;

  beforeAll(async () => {
    clock.set(new Date('2030-01-01T00:00:00Z'));
    writer = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    const post = async (body: Body) =>
      (await request(writer.server).post('/cal/events/v1/events').set('Authorization', admin).send(body).expect(201)).body as Body;
    const dates = { start_date: '2030-02-01 19:00:00', end_date: '2030-02-01 21:00:00', status: 'publish' };
    single = await post({ title: 'Declared', ...dates, ...samples() });
    listed = await post({ title: 'Declared listed', ...dates, ...samples(LISTED) });
    series = await post({ title: 'Declared series', ...dates, recurrence: 'RRULE:FREQ=YEARLY', ...samples() });
  }, 120_000);

  afterAll(async () => {
    await writer?.close();
  });

  it('declares each field once, with a sample other than its default', () => {
    expect(new Set(FIELDS.map((field) => field.key)).size).toBe(FIELDS.length);
    expect(SHOWN.length).toBeGreaterThan(0);
  });

  it('shows every declared field in the OpenAPI example of an event', () => {
    const example = RESPONSE_EXAMPLES.Event as Body;
    for (const field of SHOWN) expect(Object.keys(example)).toContain(field.key);
  });

  it('answers the written values on the write, the single GET and the list', async () => {
    expect(single).toMatchObject(shownSamples());
    const read = await request(writer.server).get(`/cal/events/v1/events/${single.id}`).expect(200);
    expect(read.body).toMatchObject(shownSamples());
    const list = await request(writer.server).get('/cal/events/v1/events?start_date=2030-01-01&end_date=2030-12-31').expect(200);
    const item = (list.body.events as Body[]).find((event) => event.id === listed.id);
    expect(item).toMatchObject(shownSamples(LISTED));
  });

  it('answers them from the stored document on a second instance on the same database', async () => {
    const second = await withEnv({ EVENT_DOCUMENT_CACHE_MB: '0', EVENT_DOCUMENT_STORE: 'true' }, () => createTestApp({ keepTables: true }));
    try {
      for (let read = 0; read < 2; read += 1) {
        const body = (await request(second.server).get(`/cal/events/v1/events/${single.id}`).expect(200)).body as Body;
        expect(body).toMatchObject(shownSamples());
      }
    } finally {
      await second.close();
    }
  });

  it('answers them under the drop-in API root', async () => {
    const dropIn = await withEnv({ API_ROOT: '/wp-json', API_PREFIX: 'tribe' }, () => createTestApp({ keepTables: true }));
    try {
      const body = (await request(dropIn.server).get(`/wp-json/tribe/events/v1/events/${single.id}`).expect(200)).body as Body;
      expect(body).toMatchObject(shownSamples());
    } finally {
      await dropIn.close();
    }
  });

  it('gives them to the occurrences a series creates later from its template', async () => {
    const before = await writer.dataSource.query('SELECT MAX(id) AS id FROM events');
    clock.set(new Date('2040-01-01T00:00:00Z'));
    try {
      expect(await writer.app.get(SeriesService).extend(series.series_id as number)).toBeGreaterThan(0);
    } finally {
      clock.set(new Date('2030-01-01T00:00:00Z'));
    }
    const later = Number((await writer.dataSource.query('SELECT MAX(id) AS id FROM events'))[0].id);
    expect(later).toBeGreaterThan(Number(before[0].id));
    const body = (await request(writer.server).get(`/cal/events/v1/events/${later}`).set('Authorization', admin).expect(200)).body as Body;
    expect(body.series_id).toBe(series.series_id);
    expect(body).toMatchObject(shownSamples());
    const row = (
      await writer.dataSource.query(`SELECT ${FIELDS.map((field) => field.column).join(', ')} FROM events WHERE id = ?`, [later])
    )[0];
    for (const field of FIELDS) expect(field.kind === 'flag' ? Boolean(Number(row[field.column])) : row[field.column]).toBe(field.sample);
  });
});

describe('CONTRIBUTING: Adding an event field', () => {
  const root = join(__dirname, '..');
  const guide = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Adding an event field'), guide.indexOf('## Adding a payment provider'));

  it('names files that exist', () => {
    const files = [...section.matchAll(/`(src\/[\w./-]+\.ts)`/g)].map((match) => match[1]);
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) expect(existsSync(join(root, file))).toBe(true);
  });

  it('takes at most six places, none of them a list of migrations (the folder is the list)', () => {
    const steps = [...section.matchAll(/^\d+\. \*\*([^*]+)\*\*/gm)].map((match) => match[1]);
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(section).not.toContain('migrations/index.ts');
  });

  it('shows a declaration as it stands in EVENT_FIELDS', () => {
    const code = /```ts\n\s*(\{[^\n]*\}),\n\s*```/.exec(section)![1];
    const shown = JSON.parse(code.replace(/(\w+):/g, '"$1":').replace(/'/g, '"')) as EventFieldDeclaration;
    expect(FIELDS.find((field) => field.key === shown.key)).toEqual(shown);
  });
});
