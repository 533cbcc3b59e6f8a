import { join } from 'node:path';
import request from 'supertest';
import { runCli } from '../src/cli';
import { Event } from '../src/events/event.entity';
import { DocumentTemplate } from '../src/catalogue/documents/document-template';
import { StoredEventDocument } from '../src/catalogue/documents/stored-event-document.entity';
import { StoredEventDocuments } from '../src/catalogue/documents/stored-event-documents';
import { insertEvents } from './helpers/fixtures';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

/**
 * Stored event documents (src/events/stored-event-documents.ts) without PUBLIC_URL: each request's
 * own origin in the URLs of a document stored once, a newer stored version never overwritten by an
 * older one, another configuration's documents rebuilt, a deleted event's document deleted with it,
 * and the backfill command. The byte-for-byte comparison after every kind of write is in
 * event-documents.e2e-spec.ts.
 */
// The CLI opens its own connection: on SQLite the app and it share a file.
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'stored-event-documents.sqlite')}`;
}

const admin = basicAuth(ADMIN.login, ADMIN.password);
const EVENTS = '/cal/events/v1';
type Body = Record<string, any>;

function daysAhead(days: number, time = '19:00:00'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${time}`;
}

async function start(store: boolean): Promise<TestApp> {
  process.env.EVENT_DOCUMENT_CACHE_MB = '0';
  process.env.EVENT_DOCUMENT_STORE = String(store);
  try {
    return await createTestApp({ keepTables: true });
  } finally {
    delete process.env.EVENT_DOCUMENT_CACHE_MB;
    delete process.env.EVENT_DOCUMENT_STORE;
  }
}

async function quietCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true));
  try {
    return { code: await runCli(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('Stored event documents (e2e)', () => {
  let writer: TestApp;
  let stored: TestApp;
  let fresh: TestApp;
  let event: Body;

  const rawRow = async (id: number) => stored.dataSource.getRepository(StoredEventDocument).findOneBy({ eventId: id });
  /** The stored row with its documents' text: the single GET's (`body`) with the facts stored beside it, and the list item's. */
  const storedRow = async (id: number) => {
    const row = await rawRow(id);
    const documents = stored.app.get(StoredEventDocuments);
    const template = (bytes: Buffer) => DocumentTemplate.fromStored(bytes, documents.templateSyntax);
    const text = (bytes: Buffer) => template(bytes).template.bytes.toString('utf8');
    const facts = (bytes: Buffer) => JSON.parse(template(bytes).extra.toString('utf8')) as Body;
    return (
      row && {
        ...row,
        body: documents.decode(row.body, id, text)!,
        facts: documents.decode(row.body, id, facts)!,
        listItem: documents.decode(row.listItem, id, text),
      }
    );
  };

  beforeAll(async () => {
    writer = await createTestApp();
    stored = await start(true);
    fresh = await start(false);
    const post = async (path: string, body: Body) =>
      (await request(writer.server).post(`${EVENTS}/${path}`).set('Authorization', admin).send(body).expect(201)).body as Body;
    const venue = await post('venues', { venue: 'Hall', city: 'Lyon' });
    const category = await post('categories', { name: 'Concerts' });
    event = await post('events', {
      title: 'Stored concert',
      start_date: daysAhead(3),
      end_date: daysAhead(3, '22:00:00'),
      venue: venue.id,
      categories: [category.id],
    });
  }, 120_000);

  afterAll(async () => {
    await fresh?.close();
    await stored?.close();
    await writer?.close();
  });

  const read = async (app: TestApp, path: string, host: string) =>
    (await request(app.server).get(`${EVENTS}/${path}`).set('Host', host).expect(200)).text;

  it('serves one stored document with each request’s own origin, as a build from rows does', async () => {
    await read(stored, `events/${event.id}`, 'first.example:8080');
    const row = await storedRow(event.id as number);
    expect(row).not.toBeNull();
    expect(row!.body).not.toContain('first.example');
    for (const host of ['first.example:8080', 'second.example', 'odd"host\\name.example']) {
      for (const path of [`events/${event.id}`, 'events']) {
        const [fromStore, fromRows] = [await read(stored, path, host), await read(fresh, path, host)];
        expect(fromStore).toBe(fromRows);
        expect(JSON.stringify(JSON.parse(fromStore))).toContain(JSON.stringify(host).slice(1, -1));
      }
    }
  });

  it('stores the version it built, and never lets an older one overwrite a newer', async () => {
    const id = event.id as number;
    const current = (await writer.dataSource.getRepository(Event).findOneByOrFail({ id })).documentVersion;
    await read(stored, `events/${id}`, 'a.example');
    expect((await storedRow(id))!.documentVersion).toBe(current);
    const documents = stored.app.get(StoredEventDocuments);
    await documents.write([
      {
        id,
        documentVersion: current - 1,
        body: Buffer.from('{"stale":true}'),
        listItem: Buffer.from('{"stale":true}'),
        listKeys: ['stale'],
        ticketed: false,
      },
    ]);
    expect(await storedRow(id)).toMatchObject({ documentVersion: current });
    expect((await storedRow(id))!.body).not.toContain('stale');
    expect((await storedRow(id))!.listItem).not.toContain('stale');
    expect((await storedRow(id))!.listKeys).not.toContain('stale');
  });

  it('stores each list item apart, and a page reads its items without the rest of their documents', async () => {
    const id = event.id as number;
    await stored.dataSource.getRepository(StoredEventDocument).delete({ eventId: id });
    // A page that builds a document from rows stores it, for every instance, as a single GET does.
    const before = await read(stored, 'events', 'a.example');
    const row = (await storedRow(id))!;
    expect(row.listItem).toContain('"title":"Stored concert"');
    // The single GET's document, without the list item again: its text, and the facts its reader needs beside it.
    expect(row.body).toContain('"json_ld"');
    expect(row.facts).toEqual({
      url: expect.stringContaining('/event/'),
      costOffers: null,
      ticketed: false,
      keys: row.listKeys!.split(' '),
    });
    expect(row.listKeys!.split(' ')).toEqual(expect.arrayContaining(['events', `event-${id}`]));
    const repository = stored.dataSource.getRepository(StoredEventDocument);
    // A whole document the page must not need: the page still answers from the list item alone.
    await repository.update({ eventId: id }, { body: Buffer.from('{"unreadable":true}') });
    expect(await read(stored, 'events', 'a.example')).toBe(before);
    expect((await rawRow(id))!.body.toString()).toBe('{"unreadable":true}');
    // Stored without a list item (as before list items were stored apart): built again, and stored with both.
    await repository.update({ eventId: id }, { listItem: null, listKeys: null });
    expect(await read(stored, 'events', 'a.example')).toBe(before);
    expect(await storedRow(id)).toMatchObject({ listItem: row.listItem, listKeys: row.listKeys });
    expect((await storedRow(id))!.body).toBe(row.body);
  });

  it('stores both documents compressed, and builds again one that cannot be read rather than failing', async () => {
    const id = event.id as number;
    const page = await read(stored, 'events', 'a.example');
    const single = await read(stored, `events/${id}`, 'a.example');
    const raw = (await rawRow(id))!;
    const text = (await storedRow(id))!;
    expect(raw.body.length * 3).toBeLessThan(Buffer.byteLength(text.body));
    expect(raw.listItem!.length * 3).toBeLessThan(Buffer.byteLength(text.listItem!));
    // Cut short, or written by anything but this service: read as missing, built from rows, stored again.
    const repository = stored.dataSource.getRepository(StoredEventDocument);
    await repository.update({ eventId: id }, { body: raw.body.subarray(0, 20), listItem: Buffer.from('{"title":"forged"}') });
    expect(await read(stored, `events/${id}`, 'a.example')).toBe(single);
    expect(await read(stored, 'events', 'a.example')).toBe(page);
    expect(await storedRow(id)).toMatchObject({ body: text.body, listItem: text.listItem });
  });

  it('rebuilds a stored document of another configuration rather than serving it', async () => {
    const id = event.id as number;
    await stored.dataSource
      .getRepository(StoredEventDocument)
      .update({ eventId: id }, { identity: 'another-configuration', body: Buffer.from('{"wrong":true}') });
    const answer = JSON.parse(await read(stored, `events/${id}`, 'a.example')) as Body;
    expect(answer.title).toBe('Stored concert');
    expect((await storedRow(id))!.identity).toBe(stored.app.get(StoredEventDocuments).identity);
  });

  it('deletes an event’s stored document with the event', async () => {
    const doomed = (
      await request(writer.server)
        .post(`${EVENTS}/events`)
        .set('Authorization', admin)
        .send({ title: 'Doomed', start_date: daysAhead(4), end_date: daysAhead(4, '21:00:00') })
        .expect(201)
    ).body as Body;
    await read(stored, `events/${doomed.id}`, 'a.example');
    expect(await storedRow(doomed.id as number)).not.toBeNull();
    await request(writer.server).delete(`${EVENTS}/events/${doomed.id}?force=true`).set('Authorization', admin).expect(200);
    expect(await storedRow(doomed.id as number)).toBeNull();
  });

  it('backfills every event’s document from the command line, resumably, with a progress line', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => {
      const startUtc = new Date(Date.now() + (10 + index) * 86_400_000);
      return {
        title: `Backfilled ${index}`,
        slug: `backfilled-${index}`,
        publishedAt: new Date('2026-11-01T10:00:00Z'),
        startUtc,
        endUtc: startUtc,
      };
    });
    await insertEvents(writer.dataSource, rows);
    const total = await writer.dataSource.getRepository(Event).count();
    const first = await quietCli('documents:store', '--batch', '7');
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout.trim()) as { read: number; built: number; last_id: number };
    expect(summary.read).toBe(total);
    expect(summary.built).toBeGreaterThanOrEqual(30);
    expect(first.stderr).toMatch(/^documents: 7 read, \d+ built, up to id \d+, \d+\/s$/m);
    expect(await writer.dataSource.getRepository(StoredEventDocument).count()).toBe(total);
    // Run again: everything is stored current, nothing is built.
    const again = await quietCli('documents:store');
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ read: total, built: 0 });
    // A stored document served as it is, the backfilled one of the API's event equals a build from rows.
    expect(await read(stored, 'events?per_page=50', 'b.example')).toBe(await read(fresh, 'events?per_page=50', 'b.example'));
    expect((await quietCli('documents:store', '--batch', '0')).code).toBe(1);
  }, 60_000);
});
