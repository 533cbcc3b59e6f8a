import { ChildProcess, execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { ResultSetHeader, RowDataPacket } from 'mysql2';
import { createConnection, Connection } from 'mysql2/promise';
import { createMysqlDatabaseIfMissing } from './seed';
import { npmStartFlags } from './processes';

const ROOT = join(__dirname, '..');
const ADMIN = { login: 'bench-export-admin', password: 'bench-export-admin-password-0123' };
const EVENT_TITLE = 'Export benchmark event';
const ORDER_SIZE = 10;
const ROWS_PER_INSERT = 2000;

const log = (line: string) => process.stderr.write(`[bench:export ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

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
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

async function startService(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...npmStartFlags(), join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      CAL_ADMIN_USER: ADMIN.login,
      CAL_ADMIN_PASSWORD: ADMIN.password,
      NONCE_SECRET: 'bench-export-nonce-secret-0123456789',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '0',
      EXPORT_WORKER: 'true',
      EXPORT_POLL_INTERVAL_MS: '200',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-8000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${errors}`);
    if (Date.now() > deadline) throw new Error(`the service did not answer within 180 s:\n${errors}`);
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, child };
}

/** The benchmark event and its ticket, made once through the API (the routes keep their counters and listings). */
async function benchTicket(db: Connection, serviceUrl: string, authorization: string): Promise<{ eventId: number; ticketId: number }> {
  const [found] = await db.query<Array<{ eventId: number; ticketId: number } & RowDataPacket>>(
    'SELECT e.id AS eventId, t.id AS ticketId FROM events e INNER JOIN tickets t ON t.event_id = e.id WHERE e.title = ? ORDER BY e.id LIMIT 1',
    [EVENT_TITLE],
  );
  if (found[0]) return { eventId: Number(found[0].eventId), ticketId: Number(found[0].ticketId) };
  const headers = { authorization, 'content-type': 'application/json' };
  const event = await fetch(`${serviceUrl}/cal/events/v1/events`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: EVENT_TITLE, status: 'publish', start_date: '2030-06-01 18:00:00', end_date: '2030-06-01 21:00:00' }),
  });
  if (event.status !== 201) throw new Error(`creating the event: ${event.status} ${await event.text()}`);
  const eventId = ((await event.json()) as { id: number }).id;
  const nonces = (await (await fetch(`${serviceUrl}/cal/tickets/v1/nonces`, { headers })).json()) as { add_ticket_nonce: string };
  const ticket = await fetch(`${serviceUrl}/cal/tickets/v1/tickets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      post_id: eventId,
      provider: 'tc',
      name: 'Benchmark ticket',
      price: '25.00',
      add_ticket_nonce: nonces.add_ticket_nonce,
      ticket: { mode: '' },
    }),
  });
  if (ticket.status !== 201) throw new Error(`creating the ticket: ${ticket.status} ${await ticket.text()}`);
  return { eventId, ticketId: ((await ticket.json()) as { id: number }).id };
}

/** Adds completed orders of ORDER_SIZE attendees until the event has `target` attendees. */
async function seed(
  db: Connection,
  target: number,
  serviceUrl: string,
  authorization: string,
): Promise<{ eventId: number; attendees: number }> {
  const { eventId, ticketId } = await benchTicket(db, serviceUrl, authorization);
  const [[{ count }]] = await db.query<Array<{ count: number } & RowDataPacket>>(
    'SELECT COUNT(*) AS count FROM attendees WHERE event_id = ?',
    [eventId],
  );
  let have = Number(count);
  if (have >= target) return { eventId, attendees: have };
  log(`seeding ${target - have} attendees (the event has ${have})`);
  const started = Date.now();
  while (have < target) {
    const orders = Math.min(ROWS_PER_INSERT / ORDER_SIZE, Math.ceil((target - have) / ORDER_SIZE));
    const orderValues = Array.from({ length: orders }, (_, index) => [
      'tc',
      'completed',
      `Buyer ${have + index * ORDER_SIZE}`,
      `buyer${have + index * ORDER_SIZE}@example.org`,
      2500 * ORDER_SIZE,
      'USD',
    ]);
    const [inserted] = await db.query<ResultSetHeader>(
      'INSERT INTO orders (provider, status, purchaser_name, purchaser_email, total_minor, currency, completed_at) VALUES ' +
        orderValues.map(() => '(?, ?, ?, ?, ?, ?, NOW())').join(', '),
      orderValues.flat(),
    );
    const firstOrder = inserted.insertId;
    const attendeeValues: unknown[][] = [];
    for (let order = 0; order < orders && have + attendeeValues.length < target; order += 1) {
      for (let unit = 0; unit < ORDER_SIZE && have + attendeeValues.length < target; unit += 1) {
        const number = have + attendeeValues.length;
        // Every 1000th holder tries a formula: the CSV must neutralise it.
        const name = number % 1000 === 0 ? `=HYPERLINK("http://x.example/${number}")` : `Holder ${number} Ünïcødé`;
        attendeeValues.push([
          firstOrder + order,
          ticketId,
          eventId,
          'tc',
          'publish',
          'completed',
          name,
          `holder${number}@example.org`,
          randomBytes(16).toString('hex'),
          2500,
        ]);
      }
    }
    await db.query(
      'INSERT INTO attendees (order_id, ticket_id, event_id, provider, status, order_status, holder_name, holder_email, security_code, price_paid_minor) VALUES ' +
        attendeeValues.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', '),
      attendeeValues.flat(),
    );
    await db.query(
      'INSERT INTO order_items (order_id, ticket_id, quantity, unit_price_minor) VALUES ' +
        orderValues.map(() => '(?, ?, ?, 2500)').join(', '),
      orderValues.flatMap((_, index) => [firstOrder + index, ticketId, ORDER_SIZE]),
    );
    have += attendeeValues.length;
    if (have % 20_000 === 0) log(`${have} attendees`);
  }
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { eventId, attendees: have };
}

interface Measurement {
  name: string;
  seconds: number;
  firstByteSeconds: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

/** Downloads `path` to nowhere, counting bytes, sampling the service's RSS meanwhile. */
async function measure(name: string, url: string, pid: number, init: RequestInit): Promise<Measurement & { text?: string }> {
  const rssBeforeMb = residentMb(pid, 'VmRSS');
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, residentMb(pid, 'VmRSS'))), 50);
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    if (response.status !== 200 || !response.body) throw new Error(`${name}: ${response.status} ${await response.text()}`);
    const firstByteSeconds = (performance.now() - started) / 1000;
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    return { name, seconds: (performance.now() - started) / 1000, firstByteSeconds, bytes, rssBeforeMb, rssPeakMb };
  } finally {
    clearInterval(sampler);
    rssPeakMb = Math.max(rssPeakMb, residentMb(pid, 'VmRSS'));
  }
}

async function main(argv: string[]): Promise<void> {
  const options = new Command()
    .name('bench:export')
    .option('--attendees <n>', 'attendees of the benchmark event', wholeNumber, 200_000)
    .option('--database-url <url>', 'MariaDB URL', process.env.BENCH_DATABASE_URL || 'mysql://root@127.0.0.1:3306/cal_exports')
    .parse(argv)
    .opts<{ attendees: number; databaseUrl: string }>();
  await createMysqlDatabaseIfMissing(options.databaseUrl);
  execSync('npm run --silent build', { cwd: ROOT, stdio: 'inherit' });
  // The service runs the migrations; the seed writes rows the way a sale would have left them.
  let service = await startService(options.databaseUrl);
  const url = new URL(options.databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const db = await createConnection({
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    charset: 'utf8mb4_unicode_ci',
  });
  const results: Measurement[] = [];
  try {
    const authorization = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
    const { eventId, attendees } = await seed(db, options.attendees, service.url, authorization);
    // A fresh process, so that its memory is that of the service, not of anything before.
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
    service = await startService(options.databaseUrl);
    const pid = service.child.pid as number;
    const base = `${service.url}/cal/tickets/v1`;
    log(`service started (pid ${pid}), RSS ${residentMb(pid, 'VmRSS')} MB; exporting ${attendees} attendees`);

    const csv = await measure('CSV, streamed', `${base}/attendees/export?post_id=${eventId}`, pid, { headers: { authorization } });
    results.push(csv);
    log(`${csv.name}: ${csv.seconds.toFixed(1)} s`);
    const xlsx = await measure('XLSX, streamed', `${base}/attendees/export?post_id=${eventId}&format=xlsx`, pid, {
      headers: { authorization },
    });
    results.push(xlsx);
    log(`${xlsx.name}: ${xlsx.seconds.toFixed(1)} s`);

    const rssBeforeJob = residentMb(pid, 'VmRSS');
    let rssPeakJob = rssBeforeJob;
    const sampler = setInterval(() => (rssPeakJob = Math.max(rssPeakJob, residentMb(pid, 'VmRSS'))), 50);
    const queuedAt = performance.now();
    const queued = (await (
      await fetch(`${base}/attendees/export?post_id=${eventId}&format=csv`, { method: 'POST', headers: { authorization } })
    ).json()) as { id: number; download_url: string };
    let state: { status: string; rows?: number; size?: number };
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = (await (await fetch(`${base}/exports/${queued.id}`, { headers: { authorization } })).json()) as typeof state;
    } while (state.status === 'queued' || state.status === 'running');
    clearInterval(sampler);
    const jobSeconds = (performance.now() - queuedAt) / 1000;
    if (state.status !== 'done') throw new Error(`the export job ended ${state.status}`);
    results.push({
      name: 'CSV job (queue → done)',
      seconds: jobSeconds,
      firstByteSeconds: NaN,
      bytes: state.size ?? 0,
      rssBeforeMb: rssBeforeJob,
      rssPeakMb: rssPeakJob,
    });
    const download = await measure('CSV job download', queued.download_url, pid, {});
    results.push(download);

    const lines = [
      '',
      `Export of ${attendees} attendees (MariaDB, one service process with npm start's flags)`,
      '',
      '| Export | Time (s) | First byte (s) | Size (MB) | RSS before (MB) | RSS peak (MB) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...results.map(
        (result) =>
          `| ${result.name} | ${result.seconds.toFixed(1)} | ${Number.isNaN(result.firstByteSeconds) ? '–' : result.firstByteSeconds.toFixed(2)} | ${(result.bytes / 1024 / 1024).toFixed(1)} | ${result.rssBeforeMb} | ${result.rssPeakMb} |`,
      ),
      '',
      `Service high-water mark (VmHWM) over the whole run: ${residentMb(pid, 'VmHWM')} MB.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await db.end();
    service.child.kill('SIGTERM');
  }
}

main(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
