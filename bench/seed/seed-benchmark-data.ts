import { setImmediate as nextTick } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { runMigrations } from '../../src/database/database.module';
import { EventListings1764830000000 } from '../../src/database/migrations/1764830000000-EventListings';
import { CategoryTreeListings1765090000000 } from '../../src/database/migrations/1765090000000-CategoryTreeListings';
import { EventListingPairs1765100000000 } from '../../src/database/migrations/1765100000000-EventListingPairs';
import { EventListingDays1764830000001 } from '../../src/database/migrations/1764830000001-EventListingDays';
import { AttendeeTallies1764930000000 } from '../../src/database/migrations/1764930000000-AttendeeTallies';
import { BENCH_ADMIN_APPLICATION_PASSWORD, BENCH_ADMIN_LOGIN, BENCH_EDITOR_APPLICATION_PASSWORD, BENCH_EDITOR_LOGIN } from '../credentials';
import { chronologicalOrder, EVENT_TABLES, EventRowsWriter, NextIds } from './events';
import { seedToInt } from './random';
import { ensureSharedRows, SharedRows } from './shared-rows';
import { SlugAllocator } from './slugs';
import { BulkConnection } from './sql';
import { ZonedTime } from './zoned-time';

export const DEFAULT_SEED = 20_260_101;

export interface SeedOptions {
  /** How many events the calendar holds afterwards; existing ones count, so a second run only tops up. */
  events: number;
  /** Seed of the generator: the same seed gives the same calendar (dates count from `now`). */
  seed?: number | string;
  /** Progress lines; silent when absent. */
  log?: (line: string) => void;
  /** "Today" for the dates; the current time by default. */
  now?: Date;
  /** Events per transaction (default 2000 on MySQL, 500 on SQLite). */
  batchEvents?: number;
  /** Run pending migrations first (default true; a no-op on a database the app has migrated). */
  migrate?: boolean;
}

export interface TableRows {
  added: number;
  total: number;
}

export interface SeedSummary {
  seed: number;
  eventsBefore: number;
  eventsAdded: number;
  eventsAfter: number;
  /** Ids of the events this run added (inclusive), or null when it added none. */
  addedEventIds: { first: number; last: number } | null;
  seconds: number;
  /** Rows added by this run and rows in the table afterwards, per table. */
  rows: Record<string, TableRows>;
  ids: {
    adminUserId: number;
    editorUserId: number;
    authorUserIds: number[];
    buyerUserIds: { first: number; last: number };
    venueIds: { first: number; last: number };
    organizerIds: { first: number; last: number };
    tagIds: { first: number; last: number };
    categories: Array<{ id: number; name: string; childIds: number[] }>;
  };
  credentials: { login: string; applicationPassword: string; role: 'administrator' | 'editor' }[];
}

const SHARED_TABLES = ['users', 'application_passwords', 'venues', 'organizers', 'event_categories', 'event_tags'] as const;
const MYSQL_STATEMENT_BYTES = 4 * 1024 * 1024;
/** Events generated between two yields to the event loop, so that queued statements keep flowing. */
const EVENTS_PER_SLICE = 250;
const PROGRESS_INTERVAL_MS = 5000;
const SLUG_PAGE = 100_000;

function range(ids: number[]): { first: number; last: number } {
  return { first: Math.min(...ids), last: Math.max(...ids) };
}

async function count(connection: BulkConnection, table: string): Promise<number> {
  const [row] = await connection.query<Array<{ total: number | string }>>(
    `SELECT COUNT(*) AS total FROM ${connection.dialect.identifier(table)}`,
  );
  return Number(row?.total ?? 0);
}

async function nextIds(connection: BulkConnection): Promise<NextIds> {
  const next = async (table: string) => {
    const [row] = await connection.query<Array<{ maximum: number | string | null }>>(`SELECT MAX(id) AS maximum FROM ${table}`);
    return Number(row?.maximum ?? 0) + 1;
  };
  return { event: await next('events'), ticket: await next('tickets'), order: await next('orders'), attendee: await next('attendees') };
}

/** Every event slug already stored, read in pages of ids so that a million of them stay cheap. */
async function loadEventSlugs(connection: BulkConnection, slugs: SlugAllocator): Promise<void> {
  let afterId = 0;
  for (;;) {
    const rows = await connection.query<Array<{ id: number | string; slug: string }>>(
      `SELECT id, slug FROM events WHERE id > ${afterId} ORDER BY id LIMIT ${SLUG_PAGE}`,
    );
    for (const row of rows) slugs.remember(row.slug);
    if (rows.length < SLUG_PAGE) return;
    afterId = Number(rows[rows.length - 1].id);
  }
}

async function statementLimits(connection: BulkConnection): Promise<{ maxRows: number; maxBytes: number }> {
  if (connection.dialect.name === 'sqlite') return { maxRows: 500, maxBytes: 4 * 1024 * 1024 };
  const [row] = await connection.query<Array<{ packet: number | string }>>('SELECT @@max_allowed_packet AS packet');
  const packet = Number(row?.packet ?? 4 * 1024 * 1024);
  return { maxRows: 5000, maxBytes: Math.max(256 * 1024, Math.min(MYSQL_STATEMENT_BYTES, packet - 64 * 1024)) };
}

/**
 * Categories and tags store their number of published events, which the events service keeps on
 * each write; links written here bypass it, so every term is counted anew (one grouped pass over
 * the links on MySQL, a correlated count per term on SQLite).
 */
async function recountTermEvents(connection: BulkConnection): Promise<void> {
  for (const [terms, links, column] of [
    ['event_categories', 'event_category_links', 'category_id'],
    ['event_tags', 'event_tag_links', 'tag_id'],
  ]) {
    if (connection.dialect.name === 'mysql') {
      await connection.query(`UPDATE ${terms} SET published_event_count = 0`);
      await connection.query(
        `UPDATE ${terms} term INNER JOIN (SELECT l.${column} AS term_id, COUNT(*) AS published FROM ${links} l ` +
          `INNER JOIN events e ON e.id = l.event_id WHERE e.status = 'publish' GROUP BY l.${column}) counted ON counted.term_id = term.id ` +
          'SET term.published_event_count = counted.published',
      );
    } else {
      await connection.query(
        `UPDATE ${terms} SET published_event_count = (SELECT COUNT(*) FROM ${links} l INNER JOIN events e ON e.id = l.event_id ` +
          `WHERE l.${column} = ${terms}.id AND e.status = 'publish')`,
      );
    }
  }
}

/**
 * Instances of the service may cache list counts per "generation" of their tables, renewed by
 * every write they make; rows written here bypass the service, so the generations are renewed
 * here too (when the schema has them), and running instances count again.
 */
async function renewCountGenerations(connection: BulkConnection): Promise<void> {
  const exists =
    connection.dialect.name === 'mysql'
      ? "SELECT COUNT(*) AS found FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'cache_generations'"
      : "SELECT COUNT(*) AS found FROM sqlite_master WHERE type = 'table' AND name = 'cache_generations'";
  const [row] = await connection.query<Array<{ found: number | string }>>(exists);
  if (Number(row?.found ?? 0) > 0) await connection.query('UPDATE cache_generations SET generation = generation + 1');
}

function summariseShared(shared: SharedRows): SeedSummary['ids'] {
  return {
    adminUserId: shared.admin.id,
    editorUserId: shared.editor.id,
    authorUserIds: shared.authors.map((author) => author.id),
    buyerUserIds: range(shared.buyers.map((buyer) => buyer.id)),
    venueIds: range(shared.venues.map((venue) => venue.id)),
    organizerIds: range(shared.organizerIds),
    tagIds: range(shared.tagIds),
    categories: shared.categoryRoots.map((root) => ({ id: root.id, name: root.spec.name, childIds: root.childIds })),
  };
}

/**
 * The events list's read model and the attendee tally, kept by triggers row by row: a bulk load
 * takes them down first and puts them back after, filled set-based as their migrations fill them
 * on an existing calendar.
 */
const READ_MODEL_MIGRATIONS = [
  new EventListings1764830000000(),
  new CategoryTreeListings1765090000000(),
  new EventListingPairs1765100000000(),
  new EventListingDays1764830000001(),
  new AttendeeTallies1764930000000(),
];

async function hasReadModel(dataSource: DataSource): Promise<boolean> {
  const runner = dataSource.createQueryRunner();
  try {
    return await runner.hasTable('event_listings');
  } finally {
    await runner.release();
  }
}

/** Takes the read model down (a load that stopped half-way may have left it down already). */
async function withoutReadModel(dataSource: DataSource): Promise<void> {
  if (!(await hasReadModel(dataSource))) return;
  const runner = dataSource.createQueryRunner();
  try {
    for (const migration of [...READ_MODEL_MIGRATIONS].reverse()) await migration.down(runner);
  } finally {
    await runner.release();
  }
}

async function rebuildReadModel(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    for (const migration of READ_MODEL_MIGRATIONS) await migration.up(runner);
  } finally {
    await runner.release();
  }
}

/**
 * Fills the calendar behind `dataSource` (initialised; MySQL/MariaDB or SQLite) up to
 * `options.events` events, through the service's own schema. Shared rows (users, venues,
 * organizers, categories, tags) are created once; events, their links, tickets, orders and
 * attendees are added for the missing events only, so a second call with a larger number tops
 * the calendar up. Rows go in as multi-row INSERTs with ids computed here, one transaction per
 * batch of events.
 */
export async function seedBenchmarkData(dataSource: DataSource, options: SeedOptions): Promise<SeedSummary> {
  const startedAt = Date.now();
  const log = options.log ?? (() => undefined);
  const seed = seedToInt(options.seed ?? DEFAULT_SEED);
  const nowMs = Math.floor((options.now ?? new Date()).getTime() / 1000) * 1000;
  if (!Number.isSafeInteger(options.events) || options.events < 0)
    throw new Error(`events must be a whole number >= 0 (got ${options.events})`);

  if (options.migrate !== false) await runMigrations(dataSource);
  const connection = await BulkConnection.open(dataSource);
  try {
    await connection.beginBulkLoad();
    const shared = await ensureSharedRows(connection, seed, nowMs);
    const sharedAdded = Object.values(shared.added).reduce((sum, added) => sum + added, 0);
    log(
      `shared rows: ${sharedAdded === 0 ? 'found from an earlier run' : `${sharedAdded} added`} (${shared.venues.length} venues, ${shared.organizerIds.length} organizers, ${shared.buyers.length} buyers)`,
    );

    const eventsBefore = await count(connection, 'events');
    const eventsToAdd = Math.max(0, options.events - eventsBefore);
    const slugs = new SlugAllocator();
    if (eventsToAdd > 0 && eventsBefore > 0) await loadEventSlugs(connection, slugs);
    const next = await nextIds(connection);
    const firstEventId = next.event;
    const limits = await statementLimits(connection);
    const writer = new EventRowsWriter(seed, nowMs, connection.dialect, new ZonedTime(), shared, slugs, next, limits);
    const batchEvents = options.batchEvents ?? (connection.dialect.name === 'mysql' ? 2000 : 500);
    log(`events: ${eventsBefore} present, adding ${eventsToAdd} to reach ${Math.max(options.events, eventsBefore)}`);

    if (eventsToAdd > 0) await withoutReadModel(dataSource);
    const loadStartedAt = Date.now();
    let lastProgressAt = loadStartedAt;
    let inFlight: Promise<void> | null = null;
    const order = chronologicalOrder(seed, eventsBefore, eventsBefore + eventsToAdd);
    for (let batchStart = 0; batchStart < eventsToAdd; batchStart += batchEvents) {
      const batchEnd = Math.min(eventsToAdd, batchStart + batchEvents);
      for (let offset = batchStart; offset < batchEnd; offset += 1) {
        writer.addEvent(order[offset]);
        // While the previous batch is being written, hand control back now and then so that its
        // next statement is sent as soon as the database has finished the last one.
        if (inFlight && (offset - batchStart) % EVENTS_PER_SLICE === EVENTS_PER_SLICE - 1) await nextTick();
      }
      const statements = writer.drain();
      if (inFlight) await inFlight;
      inFlight = connection.inTransaction(statements);
      // Its failure is awaited (and thrown) below; until then it must not count as unhandled.
      inFlight.catch(() => undefined);
      const now = Date.now();
      if (now - lastProgressAt >= PROGRESS_INTERVAL_MS || batchEnd === eventsToAdd) {
        lastProgressAt = now;
        const rate = Math.round(batchEnd / ((now - loadStartedAt) / 1000));
        log(
          `events: ${batchEnd}/${eventsToAdd} generated (${Math.floor((batchEnd / eventsToAdd) * 100)} %), ${rate} events/s, ${Math.round((now - startedAt) / 1000)} s`,
        );
      }
    }
    if (inFlight) await inFlight;
    await connection.endBulkLoad();
    if (!(await hasReadModel(dataSource))) {
      const rebuildStartedAt = Date.now();
      await rebuildReadModel(dataSource);
      log(`events list read model rebuilt in ${Math.round((Date.now() - rebuildStartedAt) / 100) / 10} s`);
    }

    if (eventsToAdd > 0) await recountTermEvents(connection);
    if (eventsToAdd > 0 || sharedAdded > 0) await renewCountGenerations(connection);
    if (eventsToAdd > 0 && connection.dialect.name === 'mysql') {
      // Fresh statistics, so that the benchmark's first queries are planned on the loaded tables.
      await connection.query(`ANALYZE TABLE ${EVENT_TABLES.join(', ')}`);
    }

    const added = writer.counts();
    const rows: Record<string, TableRows> = {};
    for (const table of SHARED_TABLES) rows[table] = { added: shared.added[table] ?? 0, total: await count(connection, table) };
    for (const table of EVENT_TABLES) rows[table] = { added: added[table], total: await count(connection, table) };
    const seconds = Math.round((Date.now() - startedAt) / 100) / 10;
    log(
      `done in ${seconds} s: ${Object.entries(rows)
        .map(([table, { added: tableAdded, total }]) => `${table} +${tableAdded} (${total})`)
        .join(', ')}`,
    );

    return {
      seed,
      eventsBefore,
      eventsAdded: eventsToAdd,
      eventsAfter: rows.events.total,
      addedEventIds: eventsToAdd > 0 ? { first: firstEventId, last: next.event - 1 } : null,
      seconds,
      rows,
      ids: summariseShared(shared),
      credentials: [
        { login: BENCH_ADMIN_LOGIN, applicationPassword: BENCH_ADMIN_APPLICATION_PASSWORD, role: 'administrator' },
        { login: BENCH_EDITOR_LOGIN, applicationPassword: BENCH_EDITOR_APPLICATION_PASSWORD, role: 'editor' },
      ],
    };
  } finally {
    await connection.release();
  }
}
