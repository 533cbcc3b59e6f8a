import { hashApplicationPassword } from '../../src/auth/passwords';
import { slugify } from '../../src/posts/slugs';
import { BENCH_ADMIN_APPLICATION_PASSWORD, BENCH_ADMIN_LOGIN, BENCH_EDITOR_APPLICATION_PASSWORD, BENCH_EDITOR_LOGIN } from '../credentials';
import { Random, uuidFrom } from './random';
import { SlugAllocator } from './slugs';
import { BulkConnection, InsertBuffer } from './sql';
import {
  CATEGORY_TREE,
  CategorySpec,
  CITIES,
  City,
  FIRST_NAMES,
  LAST_NAMES,
  ORGANIZER_NAME_WORDS,
  ORGANIZER_PATTERNS,
  STREET_KINDS,
  STREET_NAMES,
  TAG_FIRST_WORDS,
  TAG_SECOND_WORDS,
  VENUE_FIRST_WORDS,
  VENUE_KINDS,
} from './vocabulary';

export const SHARED_COUNTS = { venues: 2000, organizers: 500, authors: 20, buyers: 5000, tags: 300 } as const;

const BUYER_LOGIN_PREFIX = 'bench-buyer-';
const AUTHOR_LOGIN_PREFIX = 'bench-author-';
const DAY_MS = 86_400_000;
/** Random streams, so that venues, organizers and users draw independent numbers from one seed. */
const STREAM = { venues: 1, organizers: 2, users: 3 } as const;

export interface BenchUser {
  id: number;
  login: string;
  displayName: string;
  email: string;
}

export interface SeededVenue {
  id: number;
  title: string;
  /** The time zone of the venue's city, in which its events are given. */
  zone: string;
}

export interface SeededCategoryRoot {
  id: number;
  spec: CategorySpec;
  childIds: number[];
}

/** Rows every event draws on, created once and found again by later top-ups. */
export interface SharedRows {
  admin: BenchUser;
  editor: BenchUser;
  authors: BenchUser[];
  buyers: BenchUser[];
  venues: SeededVenue[];
  organizerIds: number[];
  categoryRoots: SeededCategoryRoot[];
  tagIds: number[];
  /** Rows inserted by this run, per table. */
  added: Record<string, number>;
}

interface UserRow {
  id: number | string;
  login: string;
  email: string | null;
  display_name: string;
  role: string;
}

interface TermRow {
  id: number | string;
  name: string;
  slug: string;
  parent_id?: number | string | null;
}

/** `Ana García` → `ana.garcia`: ASCII for email addresses. */
function emailLocalPart(first: string, last: string): string {
  return `${slugify(first)}.${slugify(last)}`.replace(/-/g, '');
}

function cityOf(name: string | null, country: string | null): City | undefined {
  return CITIES.find((city) => city.city === name && city.country === country);
}

function toBenchUser(row: UserRow): BenchUser {
  return { id: Number(row.id), login: row.login, displayName: row.display_name, email: row.email ?? `${row.login}@example.org` };
}

async function nextId(connection: BulkConnection, table: string): Promise<number> {
  const [row] = await connection.query<Array<{ maximum: number | string | null }>>(
    `SELECT MAX(id) AS maximum FROM ${connection.dialect.identifier(table)}`,
  );
  return Number(row?.maximum ?? 0) + 1;
}

async function rememberSlugs(connection: BulkConnection, table: string, slugs: SlugAllocator): Promise<void> {
  const rows = await connection.query<Array<{ slug: string }>>(`SELECT slug FROM ${connection.dialect.identifier(table)}`);
  for (const row of rows) slugs.remember(row.slug);
}

/**
 * Finds the shared rows of an earlier run and creates whatever is missing (all of them on an
 * empty database), in one transaction. Users are found by login, venues and organizers as those
 * the bench editor wrote, categories and tags by name (reused like the service reuses a term
 * named in an event body).
 */
export async function ensureSharedRows(connection: BulkConnection, seed: number, nowMs: number): Promise<SharedRows> {
  const dialect = connection.dialect;
  const buffer = (table: string, columns: string[]) => new InsertBuffer(table, columns, dialect, 1000, 1_000_000);
  const nowLiteral = dialect.dateTime3(nowMs);
  const added: Record<string, number> = {};

  // ---------------------------------------------------------------- users
  const existingUsers = new Map(
    (await connection.query<UserRow[]>(`SELECT id, login, email, display_name, role FROM users WHERE login LIKE 'bench-%'`)).map((row) => [
      row.login,
      row,
    ]),
  );
  const users = buffer('users', ['id', 'login', 'email', 'display_name', 'role', 'password_hash', 'created_at', 'updated_at']);
  let userId = await nextId(connection, 'users');
  const roleFixes: string[] = [];
  const ensureUser = (login: string, role: string, displayName: string, email: string): BenchUser => {
    const existing = existingUsers.get(login);
    if (existing) {
      if (existing.role !== role) roleFixes.push(`UPDATE users SET role = ${dialect.text(role)} WHERE id = ${Number(existing.id)}`);
      return toBenchUser(existing);
    }
    const id = userId++;
    users.add([
      dialect.int(id),
      dialect.text(login),
      dialect.text(email),
      dialect.text(displayName),
      dialect.text(role),
      'NULL',
      nowLiteral,
      nowLiteral,
    ]);
    return { id, login, displayName, email };
  };
  const admin = ensureUser(BENCH_ADMIN_LOGIN, 'administrator', 'Benchmark Administrator', 'bench-admin@example.org');
  const editor = ensureUser(BENCH_EDITOR_LOGIN, 'editor', 'Benchmark Editor', 'bench-editor@example.org');
  const authors: BenchUser[] = [];
  for (let index = 1; index <= SHARED_COUNTS.authors; index += 1) {
    const random = Random.for(seed, STREAM.users, -index);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const login = `${AUTHOR_LOGIN_PREFIX}${String(index).padStart(2, '0')}`;
    authors.push(ensureUser(login, 'author', `${first} ${last}`, `${emailLocalPart(first, last)}.author${index}@example.org`));
  }
  const buyers: BenchUser[] = [];
  for (let index = 1; index <= SHARED_COUNTS.buyers; index += 1) {
    const random = Random.for(seed, STREAM.users, index);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const login = `${BUYER_LOGIN_PREFIX}${String(index).padStart(5, '0')}`;
    buyers.push(ensureUser(login, 'subscriber', `${first} ${last}`, `${emailLocalPart(first, last)}.${index}@example.org`));
  }
  added.users = users.added;

  // ---------------------------------------------------------------- application passwords
  const passwords = buffer('application_passwords', [
    'id',
    'user_id',
    'uuid',
    'name',
    'password_hash',
    'last_used_at',
    'created_at',
    'updated_at',
  ]);
  let passwordId = await nextId(connection, 'application_passwords');
  for (const [user, password] of [
    [admin, BENCH_ADMIN_APPLICATION_PASSWORD],
    [editor, BENCH_EDITOR_APPLICATION_PASSWORD],
  ] as const) {
    const hash = hashApplicationPassword(password);
    const found = await connection.query<unknown[]>(
      `SELECT id FROM application_passwords WHERE user_id = ${user.id} AND password_hash = ${dialect.text(hash)}`,
    );
    if (found.length > 0) continue;
    passwords.add([
      dialect.int(passwordId++),
      dialect.int(user.id),
      dialect.text(uuidFrom(seed, `${user.login}|application-password`)),
      dialect.text('benchmark'),
      dialect.text(hash),
      'NULL',
      nowLiteral,
      nowLiteral,
    ]);
  }
  added.application_passwords = passwords.added;

  // ---------------------------------------------------------------- venues
  const venueRows = await connection.query<Array<{ id: number | string; title: string; city: string | null; country: string | null }>>(
    `SELECT id, title, city, country FROM venues WHERE author_id = ${editor.id} ORDER BY id`,
  );
  const venues: SeededVenue[] = venueRows
    .slice(0, SHARED_COUNTS.venues)
    .map((row) => ({ id: Number(row.id), title: row.title, zone: cityOf(row.city, row.country)?.zone ?? 'UTC' }));
  const venueBuffer = buffer('venues', [
    'id',
    'author_id',
    'status',
    'title',
    'slug',
    'description',
    'excerpt',
    'image',
    'published_at',
    'created_at',
    'updated_at',
    'address',
    'city',
    'country',
    'province',
    'state',
    'stateprovince',
    'zip',
    'phone',
    'website',
    'show_map',
    'show_map_link',
    'geo_lat',
    'geo_lng',
  ]);
  if (venues.length < SHARED_COUNTS.venues) {
    const slugs = new SlugAllocator();
    await rememberSlugs(connection, 'venues', slugs);
    let venueId = await nextId(connection, 'venues');
    const cityWeights = CITIES.map((city) => [city, city.weight] as const);
    for (let index = venues.length; index < SHARED_COUNTS.venues; index += 1) {
      const random = Random.for(seed, STREAM.venues, index);
      const city = random.weighted(cityWeights);
      const kind = random.pick(VENUE_KINDS);
      const title = `${random.chance(0.3) ? 'The ' : ''}${random.pick(VENUE_FIRST_WORDS)} ${kind}`;
      const slug = slugs.allocate(title);
      const publishedMs = Math.floor((nowMs - random.int(400, 1000) * DAY_MS - random.int(0, 86_399) * 1000) / 1000) * 1000;
      const stateprovince = city.state ?? city.province ?? null;
      const id = venueId++;
      venueBuffer.add([
        dialect.int(id),
        dialect.int(editor.id),
        dialect.text('publish'),
        dialect.text(title),
        dialect.text(slug),
        dialect.nullableText(random.chance(0.4) ? `<p>A ${kind.toLowerCase()} in ${city.city}, ${random.int(80, 2500)} seats.</p>` : null),
        'NULL',
        dialect.nullableText(random.chance(0.3) ? `https://images.example.org/venues/${slug}.jpg` : null),
        dialect.dateTime(publishedMs),
        dialect.dateTime3(publishedMs),
        dialect.dateTime3(publishedMs),
        dialect.text(`${random.int(1, 999)} ${random.pick(STREET_NAMES)} ${random.pick(STREET_KINDS)}`),
        dialect.text(city.city),
        dialect.text(city.country),
        dialect.nullableText(city.province ?? null),
        dialect.nullableText(city.state ?? null),
        dialect.nullableText(stateprovince),
        dialect.text(String(random.int(10000, 99999))),
        dialect.text(`${city.phonePrefix} ${random.int(1000, 9999)}`),
        dialect.nullableText(random.chance(0.7) ? `https://${slug}.example.org` : null),
        dialect.bool(!random.chance(0.05)),
        dialect.bool(!random.chance(0.05)),
        dialect.decimal((city.lat + (random.next() - 0.5) * 0.2).toFixed(7)),
        dialect.decimal((city.lng + (random.next() - 0.5) * 0.25).toFixed(7)),
      ]);
      venues.push({ id, title, zone: city.zone });
    }
  }
  added.venues = venueBuffer.added;

  // ---------------------------------------------------------------- organizers
  const organizerIds = (
    await connection.query<Array<{ id: number | string }>>(`SELECT id FROM organizers WHERE author_id = ${editor.id} ORDER BY id`)
  )
    .slice(0, SHARED_COUNTS.organizers)
    .map((row) => Number(row.id));
  const organizerBuffer = buffer('organizers', [
    'id',
    'author_id',
    'status',
    'title',
    'slug',
    'description',
    'excerpt',
    'image',
    'published_at',
    'created_at',
    'updated_at',
    'phone',
    'website',
    'email',
  ]);
  if (organizerIds.length < SHARED_COUNTS.organizers) {
    const slugs = new SlugAllocator();
    await rememberSlugs(connection, 'organizers', slugs);
    let organizerId = await nextId(connection, 'organizers');
    for (let index = organizerIds.length; index < SHARED_COUNTS.organizers; index += 1) {
      const random = Random.for(seed, STREAM.organizers, index);
      const name = random.chance(0.5) ? random.pick(ORGANIZER_NAME_WORDS) : `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
      const title = random.pick(ORGANIZER_PATTERNS)(name);
      const slug = slugs.allocate(title);
      const publishedMs = Math.floor((nowMs - random.int(400, 1000) * DAY_MS - random.int(0, 86_399) * 1000) / 1000) * 1000;
      const id = organizerId++;
      organizerBuffer.add([
        dialect.int(id),
        dialect.int(editor.id),
        dialect.text('publish'),
        dialect.text(title),
        dialect.text(slug),
        dialect.nullableText(random.chance(0.5) ? `<p>${title} has been putting on events since ${random.int(1985, 2022)}.</p>` : null),
        'NULL',
        'NULL',
        dialect.dateTime(publishedMs),
        dialect.dateTime3(publishedMs),
        dialect.dateTime3(publishedMs),
        dialect.nullableText(random.chance(0.8) ? `+1 555 ${String(random.int(0, 9999)).padStart(4, '0')}` : null),
        dialect.nullableText(random.chance(0.8) ? `https://${slug}.example.org` : null),
        dialect.nullableText(random.chance(0.9) ? `hello@${slug}.example.org` : null),
      ]);
      organizerIds.push(id);
    }
  }
  added.organizers = organizerBuffer.added;

  // ---------------------------------------------------------------- categories
  const categoryRows = await connection.query<TermRow[]>('SELECT id, name, slug, parent_id FROM event_categories ORDER BY id');
  const categoryByLevelAndName = new Map<string, number>();
  const categorySlugs = new SlugAllocator();
  for (const row of categoryRows) {
    const key = `${row.parent_id === null || row.parent_id === undefined ? '' : Number(row.parent_id)}|${row.name.toLowerCase()}`;
    if (!categoryByLevelAndName.has(key)) categoryByLevelAndName.set(key, Number(row.id));
    categorySlugs.remember(row.slug);
  }
  const rootCategories = buffer('event_categories', ['id', 'name', 'slug', 'description', 'parent_id', 'created_at', 'updated_at']);
  const childCategories = buffer('event_categories', ['id', 'name', 'slug', 'description', 'parent_id', 'created_at', 'updated_at']);
  let categoryId = await nextId(connection, 'event_categories');
  const ensureCategory = (name: string, description: string | null, parentId: number | null): number => {
    const key = `${parentId ?? ''}|${name.toLowerCase()}`;
    const existing = categoryByLevelAndName.get(key);
    if (existing !== undefined) return existing;
    const id = categoryId++;
    (parentId === null ? rootCategories : childCategories).add([
      dialect.int(id),
      dialect.text(name),
      dialect.text(categorySlugs.allocate(name)),
      dialect.nullableText(description),
      dialect.nullableInt(parentId),
      nowLiteral,
      nowLiteral,
    ]);
    categoryByLevelAndName.set(key, id);
    return id;
  };
  const categoryRoots: SeededCategoryRoot[] = CATEGORY_TREE.map((spec) => {
    const id = ensureCategory(spec.name, spec.description, null);
    return { id, spec, childIds: spec.children.map((child) => ensureCategory(child, null, id)) };
  });
  added.event_categories = rootCategories.added + childCategories.added;

  // ---------------------------------------------------------------- tags
  const tagRows = await connection.query<TermRow[]>('SELECT id, name, slug FROM event_tags ORDER BY id');
  const tagByName = new Map<string, number>();
  const tagSlugs = new SlugAllocator();
  for (const row of tagRows) {
    if (!tagByName.has(row.name.toLowerCase())) tagByName.set(row.name.toLowerCase(), Number(row.id));
    tagSlugs.remember(row.slug);
  }
  const tagBuffer = buffer('event_tags', ['id', 'name', 'slug', 'description', 'created_at', 'updated_at']);
  let tagId = await nextId(connection, 'event_tags');
  const tagIds: number[] = [];
  for (let index = 0; index < SHARED_COUNTS.tags; index += 1) {
    const first = TAG_FIRST_WORDS[Math.floor(index / TAG_SECOND_WORDS.length) % TAG_FIRST_WORDS.length];
    const second = TAG_SECOND_WORDS[index % TAG_SECOND_WORDS.length];
    const name = second ? `${first} ${second}` : first;
    let id = tagByName.get(name.toLowerCase());
    if (id === undefined) {
      id = tagId++;
      tagBuffer.add([dialect.int(id), dialect.text(name), dialect.text(tagSlugs.allocate(name)), 'NULL', nowLiteral, nowLiteral]);
      tagByName.set(name.toLowerCase(), id);
    }
    tagIds.push(id);
  }
  added.event_tags = tagBuffer.added;

  await connection.inTransaction([
    ...users.drain(),
    ...roleFixes,
    ...passwords.drain(),
    ...venueBuffer.drain(),
    ...organizerBuffer.drain(),
    ...rootCategories.drain(),
    ...childCategories.drain(),
    ...tagBuffer.drain(),
  ]);
  return { admin, editor, authors, buyers, venues, organizerIds, categoryRoots, tagIds, added };
}
