/**
 * An on-sale behind a waiting room, `npm run bench:onsale` (docs/waiting-room.md, "The benchmark"):
 * a service started on a database of its own (created, migrated, dropped), one ticket of
 * ONSALE_UNITS units guarded by a queue whose pre-queue opens ONSALE_PREQUEUE_SECONDS before the
 * sale. ONSALE_BUYERS buyers join at random moments of that time, each from an address of its own,
 * and ONSALE_BOTS bots join ONSALE_BOT_JOINS times each from ONSALE_BOT_ADDRESSES addresses and poll
 * every 100 ms. Buyers poll when the service says, and once admitted claim their token and buy 1–2
 * units. Reported: oversold units, checkouts that went through without a valid admission (the
 * database's units against the admissions', and refused attempts without or with forged tokens),
 * a chi-square test that join time does not predict position, the bots' share of entries and
 * admissions, admitted buyers' checkout p50/p99, the ETA's error at p50 (the p50 predicted at the
 * first poll after the opening against the admission), and status polls a second (autocannon on
 * the shared status, and through Varnish when `varnishd` is installed).
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { BenchDatabase } from './database';
import { freePort, startService, Target } from './processes';

const VARNISHD = '/usr/sbin/varnishd';
const API = '/cal/tickets/v1';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, not ${raw}`);
  return value;
}

const settings = {
  buyers: envNumber('ONSALE_BUYERS', 5000),
  bots: envNumber('ONSALE_BOTS', 50),
  botJoins: envNumber('ONSALE_BOT_JOINS', 100),
  botAddresses: Math.max(1, envNumber('ONSALE_BOT_ADDRESSES', 5)),
  units: envNumber('ONSALE_UNITS', 2000),
  prequeueSeconds: envNumber('ONSALE_PREQUEUE_SECONDS', 60),
  maxActive: envNumber('ONSALE_MAX_ACTIVE', 200),
  /** Admissions per minute, or `auto`. */
  rate: process.env.ONSALE_RATE === 'auto' ? null : envNumber('ONSALE_RATE', 600),
  admissionMinutes: envNumber('ONSALE_ADMISSION_MINUTES', 5),
  joinsPerAddress: envNumber('ONSALE_JOINS_PER_ADDRESS', 10),
  pollSeconds: envNumber('ONSALE_POLL_SECONDS', 5),
  deadlineSeconds: envNumber('ONSALE_DEADLINE_SECONDS', 900),
  serverUrl: process.env.BENCH_SERVER_URL ?? 'mysql://root@127.0.0.1:3306',
  poolSize: envNumber('ONSALE_POOL_SIZE', 10),
  /** Whether buyers and bots reach the service through Varnish (when varnishd is installed): 1, or 0 for the service alone. */
  varnish: envNumber('ONSALE_VARNISH', 1) > 0,
};

function log(message: string): void {
  process.stdout.write(`[onsale ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

// ---------------------------------------------------------------- chi-square

/** ln Γ(x), Lanczos. */
function logGamma(x: number): number {
  const c = [76.1800917294715, -86.5053203294168, 24.0140982408309, -1.231739572450155, 0.00120865097386618, -0.000005395239384953];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let series = 1.00000000019002;
  for (const coefficient of c) series += coefficient / ++y;
  return -tmp + Math.log((2.506628274631 * series) / x);
}

/** The regularized upper incomplete gamma Q(a, x): the chi-square test's p-value is Q(df/2, χ²/2). */
function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n += 1) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return 1 - sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
  }
  let b = x + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/**
 * Independence of join time and position among the pre-queue's entries: both ranked into `bins`
 * equal groups, a bins × bins contingency table, χ² against the uniform expectation.
 */
function chiSquare(pairs: Array<{ joinedAt: number; position: number }>, bins = 10): { chi2: number; df: number; p: number; n: number } {
  const n = pairs.length;
  const rankBin = (values: number[]) => {
    const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value || a.index - b.index);
    const bin = new Array<number>(n);
    order.forEach((item, rank) => (bin[item.index] = Math.min(bins - 1, Math.floor((rank * bins) / n))));
    return bin;
  };
  const joinBins = rankBin(pairs.map((pair) => pair.joinedAt));
  const positionBins = rankBin(pairs.map((pair) => pair.position));
  const table = Array.from({ length: bins }, () => new Array<number>(bins).fill(0));
  for (let i = 0; i < n; i += 1) table[joinBins[i]][positionBins[i]] += 1;
  const rows = table.map((row) => row.reduce((a, b) => a + b, 0));
  const columns = table[0].map((_, j) => table.reduce((sum, row) => sum + row[j], 0));
  let chi2 = 0;
  for (let i = 0; i < bins; i += 1) {
    for (let j = 0; j < bins; j += 1) {
      const expected = (rows[i] * columns[j]) / n;
      if (expected > 0) chi2 += (table[i][j] - expected) ** 2 / expected;
    }
  }
  const df = (bins - 1) * (bins - 1);
  return { chi2, df, p: upperGamma(df / 2, chi2 / 2), n };
}

// ---------------------------------------------------------------- clients

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(
  url: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}

interface Stats {
  joins: Record<string, number>;
  /** Polls the service could not answer (5xx, dropped connections); the buyer asks again after Retry-After. */
  pollFailures: Record<string, number>;
  botJoins: Record<string, number>;
  admitted: { buyers: number; bots: number };
  checkoutMs: number[];
  /** The two parts of checkoutMs: the cart write, and the checkout itself. */
  cartWriteMs: number[];
  placeOrderMs: number[];
  checkoutStatuses: Record<string, number>;
  etaErrors: number[];
  /** (admitted − predicted) ÷ predicted, per buyer, with the wait predicted: too short > 0, too long < 0. */
  etaBiases: Array<{ predictedMs: number; bias: number }>;
  unitsBought: number;
  polls: number;
}

const stats: Stats = {
  joins: {},
  pollFailures: {},
  botJoins: {},
  admitted: { buyers: 0, bots: 0 },
  checkoutMs: [],
  cartWriteMs: [],
  placeOrderMs: [],
  checkoutStatuses: {},
  etaErrors: [],
  etaBiases: [],
  unitsBought: 0,
  polls: 0,
};

const count = (record: Record<string, number>, key: string | number) => (record[String(key)] = (record[String(key)] ?? 0) + 1);

function newClient() {
  const secret = randomBytes(24).toString('hex');
  return { requestId: randomBytes(12).toString('hex'), secret, secretHash: createHash('sha256').update(secret).digest('hex') };
}

/** Claims the token and buys 1–2 units; the checkout's time is measured (cart write + checkout). */
async function buy(url: string, queueId: number, ticketId: number, client: ReturnType<typeof newClient>, address: string): Promise<void> {
  const headers = { 'x-forwarded-for': address };
  const claim = await call(url, 'POST', `${API}/queues/${queueId}/entries/${client.requestId}/admission`, {
    body: { secret: client.secret },
    headers,
  });
  if (claim.status !== 200) return void count(stats.checkoutStatuses, `claim ${claim.status}`);
  const token = claim.body.token as string;
  const units = 1 + Math.floor(Math.random() * 2);
  const started = performance.now();
  const cart = await call(url, 'POST', `${API}/cart`, {
    body: { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: units }] },
    headers: { ...headers, 'x-queue-token': token },
  });
  const cartToken = cart.headers.get('x-cart-token');
  const cartWritten = performance.now();
  stats.cartWriteMs.push(cartWritten - started);
  if (cart.status !== 200 || !cartToken) return void count(stats.checkoutStatuses, `cart ${cart.status}`);
  const checkout = await call(url, 'POST', `${API}/cart/checkout`, {
    body: { provider: 'tc', purchaser: { name: 'On-sale buyer', email: `buyer-${client.requestId}@example.com` } },
    headers: { ...headers, 'x-queue-token': token, 'x-cart-token': cartToken },
  });
  stats.checkoutMs.push(performance.now() - started);
  stats.placeOrderMs.push(performance.now() - cartWritten);
  count(stats.checkoutStatuses, checkout.status);
  if (checkout.status === 201) stats.unitsBought += units;
}

/** How long a client waits before sending again what the service could not take: its Retry-After, else 2 s. */
function retryAfterMs(answer: Answer | null): number {
  const seconds = Number(answer?.headers.get('retry-after'));
  return (Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 30) : 2) * 1000;
}

const FINAL = new Set(['completed', 'expired', 'revoked', 'closed', 'sold_out']);

async function buyer(
  url: string,
  queueId: number,
  ticketId: number,
  index: number,
  joinAt: number,
  opensAt: number,
  deadline: number,
): Promise<void> {
  await sleep(joinAt - Date.now());
  const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  const headers = { 'x-forwarded-for': address };
  const client = newClient();
  // As the queue page does: a join the service could not take now (503, a dropped connection) is
  // sent again with the same request_id after Retry-After, so it keeps its place or gets one.
  let joined: Answer | null = null;
  for (let attempt = 0; attempt < 10 && Date.now() < deadline; attempt += 1) {
    joined = await call(url, 'POST', `${API}/queues/${queueId}/entries`, {
      body: { request_id: client.requestId, secret_hash: client.secretHash },
      headers,
    }).catch(() => null);
    count(stats.joins, joined?.status ?? 'error');
    if (joined && joined.status < 500) break;
    await sleep(retryAfterMs(joined));
  }
  if (joined?.status !== 202) return;
  let entry = joined.body;
  let prediction: { at: number; waitMs: number } | null = null;
  while (Date.now() < deadline) {
    if (entry.status === 'waiting' && !prediction && Date.now() >= opensAt && entry.eta_seconds) {
      prediction = { at: Date.now(), waitMs: entry.eta_seconds.p50 * 1000 };
    }
    if (entry.status === 'admitted') {
      stats.admitted.buyers += 1;
      const admittedAt = Date.parse(entry.admission_expires_at) - settings.admissionMinutes * 60_000;
      if (prediction && prediction.waitMs > 0) {
        const bias = (admittedAt - prediction.at - prediction.waitMs) / prediction.waitMs;
        stats.etaErrors.push(Math.abs(bias));
        stats.etaBiases.push({ predictedMs: prediction.waitMs, bias });
      }
      await buy(url, queueId, ticketId, client, address);
      return;
    }
    if (FINAL.has(entry.status)) return;
    await sleep(Math.max(1, Number(entry.refresh_after_seconds) || 2) * 1000);
    const polled = await call(url, 'GET', `${API}/queues/${queueId}/entries/${client.requestId}`, { headers }).catch(() => null);
    stats.polls += 1;
    if (!polled || polled.status >= 500) {
      count(stats.pollFailures, polled?.status ?? 'error');
      await sleep(retryAfterMs(polled));
      continue;
    }
    if (polled.status !== 200) return;
    entry = polled.body;
  }
}

/** A bot: many joins from one of a few addresses, then polling every 100 ms over its entries; buys when one is admitted. */
async function bot(
  url: string,
  queueId: number,
  ticketId: number,
  index: number,
  start: number,
  end: number,
  deadline: number,
): Promise<void> {
  const address = `192.0.2.${index % settings.botAddresses}`;
  const entries: Array<ReturnType<typeof newClient>> = [];
  for (let join = 0; join < settings.botJoins; join += 1) {
    await sleep(start + ((end - start) * join) / settings.botJoins - Date.now());
    const client = newClient();
    const joined = await call(url, 'POST', `${API}/queues/${queueId}/entries`, {
      body: { request_id: client.requestId, secret_hash: client.secretHash },
      headers: { 'x-forwarded-for': address },
    });
    count(stats.botJoins, joined.status);
    if (joined.status === 202) entries.push(client);
  }
  let turn = 0;
  const live = new Set(entries);
  while (live.size > 0 && Date.now() < deadline) {
    const client = [...live][turn++ % live.size];
    const polled = await call(url, 'GET', `${API}/queues/${queueId}/entries/${client.requestId}`, {
      headers: { 'x-forwarded-for': address },
    });
    stats.polls += 1;
    if (polled.status !== 200 || FINAL.has(polled.body.status)) live.delete(client);
    else if (polled.body.status === 'admitted') {
      stats.admitted.bots += 1;
      live.delete(client);
      await buy(url, queueId, ticketId, client, address);
    }
    await sleep(100);
  }
}

/**
 * Requests that take capacity without an admission, or with a forged one, while the queue is live:
 * each must be refused (403). Attempts after the queue closed (sold out) are not counted.
 */
/** The median signed ETA error for predicted waits under 15 s, 15–60 s and over 60 s, and how many buyers each. */
function etaBiasByWait(): string {
  const bands: Array<[string, number, number]> = [
    ['< 15 s', 0, 15_000],
    ['15–60 s', 15_000, 60_000],
    ['> 60 s', 60_000, Infinity],
  ];
  return bands
    .map(([label, from, to]) => {
      const biases = stats.etaBiases.filter(({ predictedMs }) => predictedMs >= from && predictedMs < to).map(({ bias }) => bias);
      const median = biases.length ? quantile(biases, 0.5) : NaN;
      return `${label}: ${Number.isNaN(median) ? '–' : `${median >= 0 ? '+' : ''}${(100 * median).toFixed(1)} %`} (${biases.length})`;
    })
    .join('; ');
}

async function intruders(
  url: string,
  ticketId: number,
  queueLive: () => Promise<boolean>,
): Promise<{ tried: number; refused: number; statuses: Record<string, number> }> {
  let refused = 0;
  let tried = 0;
  const statuses: Record<string, number> = {};
  for (let i = 0; i < 20; i += 1) {
    if (!(await queueLive())) break;
    const token = i % 2 === 0 ? undefined : `${randomBytes(16).toString('base64url')}.${randomBytes(32).toString('base64url')}.x`;
    // A dropped connection (the service busy with thousands of buyers) is no way in: counted, not refused.
    const cart = await call(url, 'POST', `${API}/cart`, {
      body: { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] },
      headers: { 'x-forwarded-for': `198.51.100.${i}`, ...(token ? { 'x-queue-token': token } : {}) },
    }).catch(() => null);
    if (!(await queueLive())) break;
    tried += 1;
    count(statuses, cart?.status ?? 'error');
    if (cart?.status === 403) refused += 1;
  }
  return { tried, refused, statuses };
}

/**
 * How long the service takes to answer `/health/live` (no statement) every 250 ms while the sale
 * runs: its event loop's and HTTP stack's wait, apart from the database's.
 */
function probeService(url: string): { stop(): number[] } {
  const samples: number[] = [];
  let running = true;
  void (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/health/live`)
        .then((response) => response.arrayBuffer())
        .catch(() => null);
      samples.push(performance.now() - started);
      await sleep(250);
    }
  })();
  return {
    stop: () => {
      running = false;
      return samples;
    },
  };
}

const ms = (values: number[], q: number) => quantile(values, q).toFixed(0);

/** CPU seconds a process has used (user + system), from /proc: what it cost, however busy the machine. */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------- status polls

async function pollRate(url: string, path: string, seconds: number): Promise<{ perSecond: number; p99: number; non2xx: number }> {
  const result = await autocannon({ url: `${url}${path}`, connections: 64, pipelining: 1, duration: seconds });
  return { perSecond: result.requests.total / (result.duration || seconds), p99: result.latency.p99, non2xx: result.non2xx };
}

async function startVarnish(servicePort: number): Promise<{ url: string; stop: () => Promise<void> } | null> {
  if (!existsSync(VARNISHD)) return null;
  const port = await freePort();
  const workDir = mkdtempSync(join(tmpdir(), 'cal-onsale-varnish-'));
  chmodSync(workDir, 0o755);
  const vcl = readFileSync(join(__dirname, '..', 'docs', 'varnish', 'cal.vcl'), 'utf8').replace(
    '.port = "3000";',
    `.port = "${servicePort}";`,
  );
  writeFileSync(join(workDir, 'cal.vcl'), vcl);
  const varnish: ChildProcess = spawn(
    VARNISHD,
    ['-F', '-a', `127.0.0.1:${port}`, '-f', join(workDir, 'cal.vcl'), '-n', join(workDir, 'n'), '-s', 'malloc,64m'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while ((await fetch(`${url}/health/live`).catch(() => null))?.status !== 200) {
    if (varnish.exitCode !== null || Date.now() > deadline) throw new Error('varnishd did not start within 30 s');
    await sleep(200);
  }
  return {
    url,
    stop: async () => {
      if (varnish.exitCode === null) {
        varnish.kill('SIGTERM');
        await new Promise((resolve) => varnish.once('exit', resolve));
      }
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  const name = `cal_onsale_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const databaseUrl = `${settings.serverUrl.replace(/\/$/, '')}/${name}`;
  const database = await BenchDatabase.create(settings.serverUrl, name);
  const dataSource = await new DataSource(buildDataSourceOptions({ type: 'mysql', url: databaseUrl, poolSize: 2 })).initialize();
  const sql = await createConnection({ uri: databaseUrl, timezone: 'Z' });
  let service: Target | null = null;
  let varnish: Awaited<ReturnType<typeof startVarnish>> = null;
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    service = await startService({
      databaseUrl,
      poolSize: settings.poolSize,
      nonceSecret: 'bench-nonce-secret-0123456789abcdef',
      logLevel: 'warn',
      extraEnv: { TRUST_PROXY: 'loopback', QUEUE_JOINS_PER_ADDRESS: String(settings.joinsPerAddress) },
    });
    // Buyers, bots and intruders come through Varnish, as they would in front of a site, unless
    // ONSALE_VARNISH=0 (or varnishd is not installed): then straight to the service.
    varnish = settings.varnish ? await startVarnish(Number(new URL(service.url).port)) : null;
    const url = varnish?.url ?? service.url;
    const ticket = await database.createContendedTicket(settings.units, `onsale-${name}`, 0);
    const [[{ event_id: eventId }]] = await sql.query<RowDataPacket[]>('SELECT event_id FROM tickets WHERE id = ?', [ticket.id]);
    const now = Date.now();
    const opensAt = now + 5_000 + settings.prequeueSeconds * 1000;
    const [inserted] = await sql.query<{ insertId: number } & RowDataPacket[]>(
      `INSERT INTO queues (event_id, ticket_ids, prequeue_opens_at, opens_at, max_active, max_admit_per_minute, admission_minutes,
         units_per_admission, queue_all, paused, shuffle_seed, last_position, serving_counter, counter_version, rate_samples,
         joined_count, challenge_bits, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 2, 1, 0, ?, 0, 0, 0, '[]', 0, 0, ?, ?)`,
      [
        eventId,
        JSON.stringify([ticket.id]),
        new Date(now),
        new Date(opensAt),
        settings.maxActive,
        settings.rate,
        settings.admissionMinutes,
        randomBytes(32).toString('hex'),
        new Date(now),
        new Date(now),
      ],
    );
    const queueId = inserted.insertId;
    await sleep(2_000); // the gate's copy of the open queues is read again every second
    log(
      `queue ${queueId}: ${settings.buyers} buyers and ${settings.bots} bots × ${settings.botJoins} joins in the ${settings.prequeueSeconds} s before opens_at; ` +
        `${settings.units} units, max_active ${settings.maxActive}, rate ${settings.rate ?? 'auto'}`,
    );
    const deadline = opensAt + settings.deadlineSeconds * 1000;
    const windowStart = opensAt - settings.prequeueSeconds * 1000;
    const runs: Array<Promise<void>> = [];
    for (let i = 0; i < settings.buyers; i += 1) {
      const joinAt = windowStart + Math.random() * settings.prequeueSeconds * 1000;
      runs.push(buyer(url, queueId, ticket.id, i, joinAt, opensAt, deadline).catch(() => void count(stats.joins, 'error')));
    }
    for (let i = 0; i < settings.bots; i += 1) {
      runs.push(bot(url, queueId, ticket.id, i, windowStart, opensAt - 1_000, deadline).catch(() => void count(stats.botJoins, 'error')));
    }
    const progress = setInterval(
      () =>
        log(
          `admitted ${stats.admitted.buyers} buyers, ${stats.admitted.bots} bots; ${stats.unitsBought} units bought; ${stats.polls} polls`,
        ),
      10_000,
    );
    await sleep(opensAt - Date.now());
    const probe = probeService(service.url);
    const cpuAtOpening = cpuSeconds(service.process.pid);
    const pollsAtOpening = stats.polls;
    await sleep(500);
    const intrusion = await intruders(url, ticket.id, async () => {
      const [[row]] = await sql.query<RowDataPacket[]>('SELECT closed_at FROM queues WHERE id = ?', [queueId]);
      return row.closed_at === null;
    });
    await Promise.all(runs);
    clearInterval(progress);
    const probed = probe.stop();
    const saleCpu = cpuSeconds(service.process.pid) - cpuAtOpening;
    const salePolls = stats.polls - pollsAtOpening;
    const [timeline] = await sql.query<RowDataPacket[]>(
      `SELECT FLOOR(TIMESTAMPDIFF(MICROSECOND, q.opened_at, e.admitted_at) / 10000000) AS tenth, COUNT(*) AS admitted,
         SUM(e.status = 'completed') AS completed, ROUND(AVG(TIMESTAMPDIFF(MICROSECOND, e.admitted_at, e.finished_at)) / 1000) AS turnMs
       FROM queue_entries e JOIN queues q ON q.id = e.queue_id WHERE e.queue_id = ? AND e.admitted_at IS NOT NULL GROUP BY tenth ORDER BY tenth`,
      [queueId],
    );
    log(
      `admissions per 10 s from the opening (admitted/completed, mean turn ms): ${timeline
        .map((row) => `${Number(row.tenth) * 10}s ${Number(row.admitted)}/${Number(row.completed)} ${Number(row.turnMs)}`)
        .join('; ')}`,
    );

    const outcome = await database.ticketOutcome(ticket.id);
    const oversold = Math.max(0, outcome.sold + outcome.pending - settings.units, outcome.attendees - settings.units);
    const [[admissions]] = await sql.query<RowDataPacket[]>(
      'SELECT COALESCE(SUM(units_used), 0) AS units FROM queue_admissions WHERE queue_id = ?',
      [queueId],
    );
    const unitsWithoutAdmission = Math.max(0, outcome.orderedUnits - Number(admissions.units));
    const [pairs] = await sql.query<RowDataPacket[]>(
      `SELECT e.joined_at AS joinedAt, e.position AS position FROM queue_entries e JOIN queues q ON q.id = e.queue_id
       WHERE e.queue_id = ? AND e.position IS NOT NULL AND e.joined_at < q.opened_at`,
      [queueId],
    );
    const fairness = chiSquare(
      pairs.map((row) => ({ joinedAt: new Date(row.joinedAt as string).getTime(), position: Number(row.position) })),
    );
    const [byAddress] = await sql.query<RowDataPacket[]>(
      `SELECT SUM(client_address LIKE '192.0.2.%') AS bots, COUNT(*) AS entries FROM queue_entries WHERE queue_id = ?`,
      [queueId],
    );
    const botEntries = Number(byAddress[0].bots);
    const entries = Number(byAddress[0].entries);
    const botCap = settings.botAddresses * settings.joinsPerAddress;
    const admittedTotal = stats.admitted.buyers + stats.admitted.bots;
    const [[queueRow]] = await sql.query<RowDataPacket[]>('SELECT closed_reason FROM queues WHERE id = ?', [queueId]);

    const entryPath = `${API}/queues/${queueId}/status`;
    const direct = await pollRate(service.url, entryPath, settings.pollSeconds);
    varnish ??= await startVarnish(Number(new URL(service.url).port));
    const cached = varnish ? await pollRate(varnish.url, entryPath, settings.pollSeconds) : null;

    const checkoutP99 = quantile(stats.checkoutMs, 0.99);
    const etaP50 = quantile(stats.etaErrors, 0.5);
    const lines = [
      `On-sale benchmark of ${new Date().toISOString()}: ${cpus().length} cores, Node ${process.version}, ${await database.serverVersion()}, pool ${settings.poolSize}.`,
      '',
      `Settings: ${JSON.stringify({ ...settings, serverUrl: undefined })}; the sale ${url === service.url ? 'straight to the service' : 'through Varnish'}.`,
      '',
      '| measure | result |',
      '|---|---|',
      `| oversold units | **${oversold}** (sold ${outcome.sold}, held ${outcome.pending}, attendees ${outcome.attendees} of ${settings.units}) |`,
      `| units ordered beyond the admissions' | **${unitsWithoutAdmission}** (orders ${outcome.orderedUnits} units, admissions ${Number(admissions.units)}) |`,
      `| intruders while the queue was live (no token, forged token) refused | **${intrusion.refused} of ${intrusion.tried}** ${JSON.stringify(intrusion.statuses)} |`,
      `| join time vs position (pre-queue, χ² 10×10) | χ² ${fairness.chi2.toFixed(1)}, df ${fairness.df}, **p ${fairness.p.toFixed(3)}** over ${fairness.n} entries |`,
      `| bots' entries | **${botEntries} of ${entries}** (${((100 * botEntries) / Math.max(1, entries)).toFixed(1)} %; per-address cap ${botCap}); joins ${JSON.stringify(stats.botJoins)} |`,
      `| bots' admissions | **${stats.admitted.bots} of ${admittedTotal}** (${((100 * stats.admitted.bots) / Math.max(1, admittedTotal)).toFixed(1)} %) |`,
      `| admitted buyers' checkout (cart write + checkout) | p50 ${quantile(stats.checkoutMs, 0.5).toFixed(0)} ms, **p99 ${checkoutP99.toFixed(0)} ms** over ${stats.checkoutMs.length}; ${JSON.stringify(stats.checkoutStatuses)} |`,
      `| the service's answer to /health/live during the sale (every 250 ms) | p50 ${ms(probed, 0.5)} ms, p99 ${ms(probed, 0.99)} ms over ${probed.length} |`,
      `| the service's CPU from the opening to the end of the sale (${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} load) | **${saleCpu.toFixed(1)} s** for ${salePolls} entry polls and ${stats.checkoutMs.length} checkouts |`,
      `| the checkout's parts: cart write; checkout | p50 ${ms(stats.cartWriteMs, 0.5)} ms, p99 ${ms(stats.cartWriteMs, 0.99)} ms; p50 ${ms(stats.placeOrderMs, 0.5)} ms, p99 ${ms(stats.placeOrderMs, 0.99)} ms |`,
      `| ETA error (p50 predicted at the first poll after opening) | **p50 ${(100 * etaP50).toFixed(1)} %**, p90 ${(100 * quantile(stats.etaErrors, 0.9)).toFixed(1)} % over ${stats.etaErrors.length} buyers |`,
      `| the ETA's bias ((admitted − predicted) ÷ predicted, median) by predicted wait | ${etaBiasByWait()} |`,
      `| shared status polls, service alone | **${direct.perSecond.toFixed(0)}/s**, p99 ${direct.p99} ms, non-2xx ${direct.non2xx} |`,
      `| shared status polls, through Varnish | ${cached ? `**${cached.perSecond.toFixed(0)}/s**, p99 ${cached.p99} ms` : 'varnishd not installed: not measured'} |`,
      `| buyers' joins | ${JSON.stringify(stats.joins)}; ${stats.polls} entry polls during the sale (failed, asked again: ${JSON.stringify(stats.pollFailures)}); queue closed: ${String(queueRow.closed_reason)} |`,
    ];
    const text = lines.join('\n') + '\n';
    const folder = join(__dirname, 'results');
    mkdirSync(folder, { recursive: true });
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
    writeFileSync(join(folder, `onsale-${stamp}.md`), text);
    process.stdout.write(`\n${text}`);
    if (oversold > 0 || unitsWithoutAdmission > 0 || intrusion.refused < intrusion.tried) process.exitCode = 1;
  } finally {
    await varnish?.stop();
    await service?.stop();
    await sql.end();
    await dataSource.destroy();
    await database.drop();
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
