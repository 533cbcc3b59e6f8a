/**
 * `npm run soak [-- --minutes 10 --connections 20]`: a mixed soak against the built service
 * (dist/main.js) in a process of its own, on a MariaDB/MySQL database it creates and drops.
 * Reads, cart writes and checkouts, event writes (creates, updates, trashes, deletes by editors
 * and contributors sharing categories and tags) and ticket writes run at once from `connections`
 * loops. Reports each route's status counts, p50/p99 latency and the service's resident memory
 * sampled over time (peak and end), and the lock conflicts the service retried or gave up on (its
 * `cal_db_lock_conflicts_total`); exits 1 when any request answered 5xx (or failed).
 *
 * Options: --minutes (10), --connections (20), --server (mysql://root@127.0.0.1:3306),
 * --pool-size (10), --keep (keep the database), --sample-seconds (10), --heap-snapshot (write a
 * heap snapshot of the service at the end of the load, before stopping it, next to the results).
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { npmStartFlags } from './processes';

const ROOT = join(__dirname, '..');
const execFileAsync = promisify(execFile);
const NONCE_SECRET = 'soak-nonce-secret-0123456789abcdef';
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Options {
  minutes: number;
  connections: number;
  server: string;
  poolSize: number;
  keep: boolean;
  sampleSeconds: number;
  heapSnapshot: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    minutes: 10,
    connections: 20,
    server: 'mysql://root@127.0.0.1:3306',
    poolSize: 10,
    keep: false,
    sampleSeconds: 10,
    heapSnapshot: false,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = argv[index].split('=', 2);
    const value = () => inline ?? argv[(index += 1)];
    if (flag === '--minutes') options.minutes = Number(value());
    else if (flag === '--connections') options.connections = Number(value());
    else if (flag === '--server') options.server = value().replace(/\/$/, '');
    else if (flag === '--pool-size') options.poolSize = Number(value());
    else if (flag === '--sample-seconds') options.sampleSeconds = Number(value());
    else if (flag === '--keep') options.keep = true;
    else if (flag === '--heap-snapshot') options.heapSnapshot = true;
    else throw new Error(`unknown option ${flag}`);
  }
  if (!(options.minutes > 0) || !(options.connections > 0) || !(options.poolSize > 0))
    throw new Error('--minutes, --connections and --pool-size must be positive');
  return options;
}

const log = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------- measuring

/** `/cal/events/v1/events/123?force=true` → `/cal/events/v1/events/{id}`. */
function routeOf(method: string, path: string): string {
  return `${method} ${path.split('?')[0].replace(/\/\d+(?=\/|$)/g, '/{id}')}`;
}

/** A request that answered 5xx or failed, kept whole for finding its cause in the service's log. */
interface Failure {
  at: string;
  method: string;
  path: string;
  status: string;
  request: unknown;
  response: unknown;
}

const MAX_FAILURES_KEPT = 100;

class Recorder {
  private readonly statuses = new Map<string, Map<string, number>>();
  private readonly latencies = new Map<string, number[]>();
  readonly failures: Failure[] = [];

  fail(failure: Failure): void {
    log(
      `${failure.status} ${failure.method} ${failure.path} ${JSON.stringify(failure.request ?? null)} → ${JSON.stringify(failure.response).slice(0, 500)}`,
    );
    if (this.failures.length < MAX_FAILURES_KEPT) this.failures.push(failure);
  }

  record(route: string, status: string, ms: number): void {
    const counts = this.statuses.get(route) ?? new Map<string, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(route, counts);
    const list = this.latencies.get(route) ?? [];
    list.push(ms);
    this.latencies.set(route, list);
  }

  summary(): Array<{ route: string; requests: number; statuses: Record<string, number>; p50: number; p99: number; serverErrors: number }> {
    return [...this.statuses.entries()]
      .map(([route, counts]) => {
        const latencies = (this.latencies.get(route) ?? []).sort((a, b) => a - b);
        const statuses = Object.fromEntries([...counts.entries()].sort());
        const serverErrors = [...counts.entries()]
          .filter(([status]) => !/^[1-4]\d\d$/.test(status))
          .reduce((sum, [, count]) => sum + count, 0);
        return {
          route,
          requests: latencies.length,
          statuses,
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          serverErrors,
        };
      })
      .sort((a, b) => b.requests - a.requests);
  }

  all(): number[] {
    return [...this.latencies.values()].flat().sort((a, b) => a - b);
  }
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]);
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

class Client {
  constructor(
    private readonly baseUrl: string,
    private readonly recorder: Recorder,
  ) {}

  /** One request; recorded under its route unless `record` is false (set-up). Network failures are recorded as `error`. */
  async send(
    method: string,
    path: string,
    options: { authorization?: string; body?: unknown; headers?: Record<string, string>; record?: boolean } = {},
  ): Promise<Answer | null> {
    const started = performance.now();
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.authorization) headers.authorization = options.authorization;
    if (options.body !== undefined) Object.assign(headers, JSON_HEADERS);
    try {
      const response = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      if (options.record !== false) this.recorder.record(routeOf(method, path), String(response.status), performance.now() - started);
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      if (response.status >= 500)
        this.recorder.fail({
          at: new Date().toISOString(),
          method,
          path,
          status: String(response.status),
          request: options.body,
          response: body,
        });
      return { status: response.status, body, headers: response.headers };
    } catch (error) {
      if (options.record !== false) {
        this.recorder.record(routeOf(method, path), 'error', performance.now() - started);
        this.recorder.fail({
          at: new Date().toISOString(),
          method,
          path,
          status: 'error',
          request: options.body,
          response: error instanceof Error ? error.message : String(error),
        });
      }
      if (options.record === false) throw error;
      return null;
    }
  }

  /** A set-up request that must succeed. */
  async must(
    method: string,
    path: string,
    options: { authorization?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const answer = (await this.send(method, path, { ...options, record: false })) as Answer;
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer;
  }
}

// ---------------------------------------------------------------- the service

interface Service {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function serviceEnv(databaseUrl: string, options: Options, dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(options.poolSize),
    NONCE_SECRET,
    LOG_LEVEL: 'warn',
    // One client sends far more than any one client may: request limits off.
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '0',
    DATA_DIR: dataDir,
    // For investigating memory, e.g. --heapsnapshot-signal=SIGUSR2.
    ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
  };
}

/** Heap in use and memory outside the heap (buffers), in MB, from the service's own /metrics. */
async function heapMb(baseUrl: string): Promise<{ heapUsed: number; external: number }> {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const read = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024);
    return { heapUsed: read('nodejs_heap_size_used_bytes'), external: read('nodejs_external_memory_bytes') };
  } catch {
    return { heapUsed: NaN, external: NaN };
  }
}

/** Transactions the service ran again after a deadlock or lock wait timeout, and gave up on (its `cal_db_lock_conflicts_total`). */
async function lockConflicts(baseUrl: string): Promise<{ retried: number; gaveUp: number }> {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const read = (outcome: string) =>
      Number(new RegExp(`^cal_db_lock_conflicts_total\\{outcome="${outcome}"\\} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
    return { retried: read('retried'), gaveUp: read('gave_up') };
  } catch {
    return { retried: NaN, gaveUp: NaN };
  }
}

/** Starts dist/main.js with `npm start`'s flags; its log (pino's JSON lines, warnings and errors) is appended to `logFile`. */
async function startService(env: NodeJS.ProcessEnv, logFile: string, nodeFlags: string[] = []): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [...npmStartFlags(), ...nodeFlags, join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logStream = createWriteStream(logFile, { flags: 'a' });
  // Both streams write to the log until the service exits: stdout alone must not end it.
  child.stdout?.pipe(logStream, { end: false });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (!logStream.writableEnded) logStream.write(chunk);
    errors = (errors + chunk.toString()).slice(-8000);
  });
  child.once('close', () => logStream.end());
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${errors}`);
    if (Date.now() > deadline) throw new Error(`the service did not answer within 120 s:\n${errors}`);
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

interface SoakUser {
  login: string;
  role: string;
  authorization: string;
  nonces: { add_ticket_nonce: string; edit_ticket_nonce: string; remove_ticket_nonce: string };
}

async function createUser(env: NodeJS.ProcessEnv, login: string, role: string): Promise<Omit<SoakUser, 'nonces'>> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.js'), 'user:create', '--login', login, '--role', role],
    { cwd: ROOT, env },
  );
  const created = JSON.parse(stdout) as { application_password: string };
  return { login, role, authorization: `Basic ${Buffer.from(`${login}:${created.application_password}`).toString('base64')}` };
}

// ---------------------------------------------------------------- the workload

interface World {
  editors: SoakUser[];
  contributors: SoakUser[];
  categoryIds: number[];
  tagIds: number[];
  venueIds: number[];
  /** Published events (read, and linked by tickets). */
  eventIds: number[];
  /** Events the soak writes: updated, trashed or deleted, then replaced. */
  editable: Array<{ id: number; owner: SoakUser }>;
  /** Tickets on sale without a capacity limit, for carts and checkouts. */
  ticketIds: number[];
  /** Tickets the soak updates and deletes. */
  writableTickets: Array<{ id: number; eventId: number; owner: SoakUser }>;
}

const pick = <T>(values: T[]): T => values[Math.floor(Math.random() * values.length)];
const sample = <T>(values: T[], count: number): T[] => [...values].sort(() => Math.random() - 0.5).slice(0, count);
let counter = 0;

function eventBody(title: string, world: World, extra: Record<string, unknown> = {}) {
  const day = 1 + Math.floor(Math.random() * 27);
  const month = 1 + Math.floor(Math.random() * 12);
  const date = `2027-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return {
    title,
    description: `<p>${title}: a soak event with <strong>markup</strong>.</p>`,
    start_date: `${date} 10:00:00`,
    end_date: `${date} 12:00:00`,
    categories: sample(world.categoryIds, 2),
    tags: sample(world.tagIds, 2),
    venue: pick(world.venueIds),
    ...extra,
  };
}

async function seed(client: Client, world: World, eventCount: number): Promise<void> {
  const admin = world.editors[0];
  for (let index = 0; index < 4; index += 1)
    world.categoryIds.push(
      (
        await client.must('POST', '/cal/events/v1/categories', {
          authorization: admin.authorization,
          body: { name: `Soak category ${index}` },
        })
      ).body.id,
    );
  for (let index = 0; index < 4; index += 1)
    world.tagIds.push(
      (await client.must('POST', '/cal/events/v1/tags', { authorization: admin.authorization, body: { name: `soak-tag-${index}` } })).body
        .id,
    );
  for (let index = 0; index < 5; index += 1)
    world.venueIds.push(
      (
        await client.must('POST', '/cal/events/v1/venues', {
          authorization: admin.authorization,
          body: { venue: `Soak hall ${index}`, city: 'Springfield' },
        })
      ).body.id,
    );
  for (let index = 0; index < eventCount; index += 1) {
    const owner = world.editors[index % world.editors.length];
    const id = (
      await client.must('POST', '/cal/events/v1/events', {
        authorization: owner.authorization,
        body: eventBody(`Soak event ${index}`, world, { status: 'publish' }),
      })
    ).body.id as number;
    world.eventIds.push(id);
    if (index % 4 === 0) {
      const ticket = await client.must('POST', '/cal/tickets/v1/tickets', {
        authorization: owner.authorization,
        body: {
          add_ticket_nonce: owner.nonces.add_ticket_nonce,
          post_id: id,
          provider: 'tc',
          name: 'General',
          price: '12.50',
          ticket: { mode: '' },
        },
      });
      world.ticketIds.push(ticket.body.id as number);
    }
  }
}

type Operation = (client: Client, world: World) => Promise<void>;

const READS: Operation[] = [
  async (client) => void (await client.send('GET', '/cal/events/v1/events')),
  async (client, world) =>
    void (await client.send(
      'GET',
      `/cal/events/v1/events?categories=${pick(world.categoryIds)}&page=${1 + Math.floor(Math.random() * 3)}`,
    )),
  async (client, world) => void (await client.send('GET', `/cal/events/v1/events/${pick(world.eventIds)}`)),
  async (client) => void (await client.send('GET', '/cal/events/v1/events?search=soak')),
  async (client) => void (await client.send('GET', '/cal/events/v1/venues')),
  async (client) => void (await client.send('GET', '/cal/events/v1/categories')),
  async (client) => void (await client.send('GET', '/cal/tickets/v1/tickets')),
  async (client, world) => void (await client.send('GET', '/cal/tickets/v1/attendees', { authorization: world.editors[0].authorization })),
  async (client) => void (await client.send('GET', '/health')),
];

/** An anonymous buyer fills a cart and checks it out. */
const checkout: Operation = async (client, world) => {
  const cart = await client.send('POST', '/cal/tickets/v1/cart', {
    body: { provider: 'tc', tickets: [{ ticket_id: pick(world.ticketIds), quantity: 1 + Math.floor(Math.random() * 3) }] },
  });
  const token = cart?.headers.get('x-cart-token');
  if (!cart || cart.status !== 200 || !token) return;
  await client.send('POST', '/cal/tickets/v1/cart/checkout', {
    headers: { 'x-cart-token': token },
    body: { provider: 'tc', purchaser: { name: 'Soak Buyer', email: 'buyer@example.org' } },
  });
};

const eventWrite: Operation = async (client, world) => {
  const roll = Math.random();
  if (roll < 0.35 || world.editable.length < 10) {
    const owner = Math.random() < 0.7 ? pick(world.editors) : pick(world.contributors);
    const created = await client.send('POST', '/cal/events/v1/events', {
      authorization: owner.authorization,
      body: eventBody(`Soak write ${(counter += 1)}`, world, owner.role === 'editor' ? { status: 'publish' } : {}),
    });
    if (created?.status === 201) world.editable.push({ id: created.body.id as number, owner });
    return;
  }
  const index = Math.floor(Math.random() * world.editable.length);
  const { id, owner } = world.editable[index];
  const actor = owner.role === 'editor' ? pick(world.editors) : owner;
  if (roll < 0.6) {
    await client.send('POST', `/cal/events/v1/events/${id}`, {
      authorization: actor.authorization,
      body: { title: `Soak write ${id} again`, categories: sample(world.categoryIds, 2), tags: sample(world.tagIds, 1) },
    });
    return;
  }
  world.editable.splice(index, 1);
  const force = roll >= 0.8 && owner.role === 'editor';
  await client.send('DELETE', `/cal/events/v1/events/${id}${force ? '?force=true' : ''}`, { authorization: actor.authorization });
};

const ticketWrite: Operation = async (client, world) => {
  const roll = Math.random();
  if (roll < 0.4 || world.writableTickets.length < 5) {
    const owner = pick(world.editors);
    const eventId = pick(world.eventIds);
    const created = await client.send('POST', '/cal/tickets/v1/tickets', {
      authorization: owner.authorization,
      body: {
        add_ticket_nonce: owner.nonces.add_ticket_nonce,
        post_id: eventId,
        provider: 'tc',
        name: `Soak ticket ${(counter += 1)}`,
        price: '5',
        ticket: { mode: 'own', capacity: 50 },
      },
    });
    if (created?.status === 201) world.writableTickets.push({ id: created.body.id as number, eventId, owner });
    return;
  }
  const index = Math.floor(Math.random() * world.writableTickets.length);
  const { id, eventId, owner } = world.writableTickets[index];
  if (roll < 0.75) {
    await client.send('PATCH', `/cal/tickets/v1/tickets/${id}`, {
      authorization: owner.authorization,
      body: { edit_ticket_nonce: owner.nonces.edit_ticket_nonce, post_id: eventId, price: String(5 + Math.floor(Math.random() * 20)) },
    });
    return;
  }
  world.writableTickets.splice(index, 1);
  await client.send('DELETE', `/cal/tickets/v1/tickets/${id}`, {
    authorization: owner.authorization,
    body: { post_id: eventId, remove_ticket_nonce: owner.nonces.remove_ticket_nonce },
  });
};

/** The mix: half reads, then event writes, checkouts and ticket writes. */
function nextOperation(): Operation {
  const roll = Math.random();
  if (roll < 0.5) return pick(READS);
  if (roll < 0.75) return eventWrite;
  if (roll < 0.9) return checkout;
  return ticketWrite;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const databaseName = `cal_soak_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const databaseUrl = `${options.server}/${databaseName}`;
  const admin = await createConnection(options.server);
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  log(`database ${databaseName} created`);
  const dataDir = mkdtempSync(join(tmpdir(), 'cal-soak-'));
  const env = serviceEnv(databaseUrl, options, dataDir);
  let service: Service | null = null;
  const recorder = new Recorder();
  const folder = join(__dirname, 'results');
  mkdirSync(folder, { recursive: true });
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  const serviceLog = join(folder, `soak-${stamp}-service.log`);
  try {
    const snapshotDir = join(folder, `soak-${stamp}-heap`);
    service = await startService(
      env,
      serviceLog,
      options.heapSnapshot ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : [],
    );
    log(`service log: ${serviceLog}; flags: ${npmStartFlags().join(' ') || 'none'}`);
    const pid = service.process.pid as number;
    log(`service started (pid ${pid}), RSS ${residentMb(pid, 'VmRSS')} MB`);
    const client = new Client(service.url, recorder);
    const users = async (role: string, count: number): Promise<SoakUser[]> => {
      const created: SoakUser[] = [];
      for (let index = 0; index < count; index += 1) {
        const user = await createUser(env, `soak-${role}-${index}`, role);
        created.push({ ...user, nonces: (await client.must('GET', '/cal/tickets/v1/nonces', { authorization: user.authorization })).body });
      }
      return created;
    };
    const world: World = {
      editors: await users('editor', 4),
      contributors: await users('contributor', 4),
      categoryIds: [],
      tagIds: [],
      venueIds: [],
      eventIds: [],
      editable: [],
      ticketIds: [],
      writableTickets: [],
    };
    await seed(client, world, 200);
    const afterSeed = residentMb(pid, 'VmRSS');
    log(
      `seeded ${world.eventIds.length} events, ${world.ticketIds.length} tickets; RSS ${afterSeed} MB; soaking ${options.minutes} min at ${options.connections} connections`,
    );

    const samples: Array<{ minute: number; rssMb: number; heapUsedMb: number; externalMb: number; requests: number }> = [];
    const started = Date.now();
    const endsAt = started + options.minutes * 60_000;
    let requests = 0;
    const sampler = setInterval(() => {
      requests = recorder.all().length;
      const rssMb = residentMb(pid, 'VmRSS');
      void heapMb(service!.url).then((heap) => {
        samples.push({
          minute: Number(((Date.now() - started) / 60_000).toFixed(2)),
          rssMb,
          heapUsedMb: heap.heapUsed,
          externalMb: heap.external,
          requests,
        });
        log(
          `${samples[samples.length - 1].minute} min: RSS ${rssMb} MB (heap used ${heap.heapUsed} MB, external ${heap.external} MB), ${requests} requests`,
        );
      });
    }, options.sampleSeconds * 1000);
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (Date.now() < endsAt && service!.process.exitCode === null) await nextOperation()(client, world);
      }),
    );
    clearInterval(sampler);
    if (service.process.exitCode !== null) log(`the service exited with ${service.process.exitCode} before the end`);
    const endRss = residentMb(pid, 'VmRSS');
    const peakRss = Math.max(residentMb(pid, 'VmHWM'), ...samples.map((entry) => entry.rssMb));
    // After measuring: writing a snapshot takes about as much memory again as the heap.
    if (options.heapSnapshot && service.process.exitCode === null) {
      mkdirSync(snapshotDir, { recursive: true });
      service.process.kill('SIGUSR2');
      // V8 writes the file while the service's event loop waits: done when /health answers again.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await fetch(`${service.url}/health`, { signal: AbortSignal.timeout(300_000) }).catch(() => undefined);
      log(`heap snapshot in ${snapshotDir}`);
    }
    const conflicts = await lockConflicts(service.url);
    const routes = recorder.summary();
    const all = recorder.all();
    const serverErrors = routes.reduce((sum, route) => sum + route.serverErrors, 0);
    const result = {
      date: new Date().toISOString(),
      settings: { ...options },
      requests: all.length,
      requestsPerSecond: Math.round(all.length / (options.minutes * 60)),
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      serverErrors,
      lockConflicts: conflicts,
      rssMb: { afterSeed, peak: peakRss, end: endRss },
      routes,
      samples,
      failures: recorder.failures,
    };
    process.stdout.write(markdown(result));
    const file = join(folder, `soak-${stamp}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
    log(`written ${file}`);
    process.exitCode = serverErrors > 0 || service.process.exitCode !== null ? 1 : 0;
  } finally {
    await service?.stop();
    if (!options.keep) {
      // A connection of its own: one kept open through the soak may have been closed by the server.
      const dropper = await createConnection(options.server);
      await dropper.query(`DROP DATABASE IF EXISTS \`${databaseName}\``);
      await dropper.end();
      log(`database ${databaseName} dropped`);
    }
  }
}

function markdown(result: {
  settings: Options;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  serverErrors: number;
  lockConflicts: { retried: number; gaveUp: number };
  rssMb: { afterSeed: number; peak: number; end: number };
  routes: ReturnType<Recorder['summary']>;
  samples: Array<{ minute: number; rssMb: number; heapUsedMb: number }>;
}): string {
  const lines = [
    `# Soak: ${result.settings.minutes} min at ${result.settings.connections} connections (pool ${result.settings.poolSize})`,
    '',
    `${result.requests} requests (${result.requestsPerSecond}/s), p50 ${result.p50} ms, p99 ${result.p99} ms, 5xx or failed: ${result.serverErrors}`,
    `Lock conflicts (deadlocks, lock wait timeouts): ${result.lockConflicts.retried} retried, ${result.lockConflicts.gaveUp} given up (503)`,
    `RSS: ${result.rssMb.afterSeed} MB after seeding, peak ${result.rssMb.peak} MB, end ${result.rssMb.end} MB`,
    '',
    '| route | requests | statuses | p50 ms | p99 ms |',
    '| --- | ---: | --- | ---: | ---: |',
    ...result.routes.map(
      (route) =>
        `| ${route.route} | ${route.requests} | ${Object.entries(route.statuses)
          .map(([status, count]) => `${status}: ${count}`)
          .join(', ')} | ${route.p50} | ${route.p99} |`,
    ),
    '',
    `RSS over time (MB, minute′ RSS/heap used): ${result.samples.map((entry) => `${entry.minute}′ ${entry.rssMb}/${entry.heapUsedMb}`).join(', ')}`,
    '',
  ];
  return lines.join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
