import { CalExpressAdapter } from '../src/common/http/cal-express-adapter';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { send } from './http-client';

process.env.NONCE_SECRET ??= 'bench-nonce-secret-0123456789abcdef';
process.env.LOG_LEVEL ??= 'silent';
process.env.RATE_LIMIT_PER_MINUTE = '0';
process.env.RATE_LIMIT_AUTHENTICATED_PER_MINUTE = '0';
process.env.OUTBOX_WORKER = 'false';
process.env.DATA_DIR ??= mkdtempSync(join(tmpdir(), 'cal-bench-redeem-'));

const SCANS = Number(process.env.REDEEM_SCANS ?? 3000);
const CONCURRENCY = Number(process.env.REDEEM_CONCURRENCY ?? 32);
const ATTENDEES = Number(process.env.SYNC_ATTENDEES ?? 20_000);
const INSERT_BATCH = 1000;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (a MariaDB database of your own)');
  const { NestFactory } = await import('@nestjs/core');
  const { DataSource } = await import('typeorm');
  const { AppModule } = await import('../src/app.module');
  const { setupApp } = await import('../src/app.setup');
  const { appConfig } = await import('../src/config/app.config');
  const { DevicesService } = await import('../src/checkin/devices.service');
  const { generateSyncKey } = await import('../src/checkin/checkin-secrets');

  const app = await NestFactory.create(AppModule, new CalExpressAdapter(), { bodyParser: false, logger: false });
  setupApp(app as never, app.get(appConfig.KEY));
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}/cal/tickets/v1`;
  const dataSource = app.get(DataSource);
  const mysql = dataSource.options.type === 'mysql';

  // ---------------------------------------------------------------- seed
  const seedStart = performance.now();
  const [{ id: eventId }] = await insertReturningId(
    dataSource,
    mysql,
    `INSERT INTO events (title, slug, status, author_id, timezone, all_day, start_utc, end_utc, start_local, end_local, show_map, show_map_link, hide_from_listings, sticky, featured, show_attendee_list, published_at)
     VALUES ('Door bench', CONCAT('door-bench-', ?), 'publish', NULL, 'UTC', 0, '2027-05-01 10:00:00', '2027-05-01 22:00:00', '2027-05-01 10:00:00', '2027-05-01 22:00:00', 1, 1, 0, 0, 0, 0, '2026-01-01 00:00:00')`,
    [Date.now()],
  );
  const [{ id: ticketId }] = await insertReturningId(
    dataSource,
    mysql,
    `INSERT INTO tickets (event_id, author_id, provider, status, name, description, price_minor, iac, show_description, menu_order, capacity_mode, capacity, published_at)
     VALUES (?, NULL, 'tc', 'publish', 'Bench ticket', '', 1000, 'none', 1, 0, '', NULL, '2026-01-01 00:00:00')`,
    [eventId],
  );
  const [{ id: orderId }] = await insertReturningId(
    dataSource,
    mysql,
    `INSERT INTO orders (provider, status, purchaser_name, purchaser_email, total_minor, currency) VALUES ('tc', 'completed', 'Bench', 'bench@example.org', 0, 'USD')`,
    [],
  );
  for (let start = 0; start < ATTENDEES; start += INSERT_BATCH) {
    const rows = Math.min(INSERT_BATCH, ATTENDEES - start);
    const values: unknown[] = [];
    const placeholders: string[] = [];
    for (let index = 0; index < rows; index += 1) {
      const number = start + index;
      placeholders.push("(?, ?, ?, 'tc', 'publish', 'completed', ?, ?, ?, 1000)");
      values.push(orderId, ticketId, eventId, `Guest ${number}`, `guest${number}@example.org`, `bench-${eventId}-${number}`);
    }
    await dataSource.query(
      `INSERT INTO attendees (order_id, ticket_id, event_id, provider, status, order_status, holder_name, holder_email, security_code, price_paid_minor) VALUES ${placeholders.join(', ')}`,
      values,
    );
  }
  const [{ id: listId }] = await insertReturningId(
    dataSource,
    mysql,
    `INSERT INTO checkin_lists (event_id, name, ticket_ids, starts_at, ends_at, sync_key) VALUES (?, 'Bench gate', '[]', '2000-01-01 00:00:00', '2100-01-01 00:00:00', ?)`,
    [eventId, generateSyncKey()],
  );
  const secretRows = await dataSource.query<Array<{ checkin_secret: string }>>(
    'SELECT checkin_secret FROM attendees WHERE event_id = ? ORDER BY id',
    [eventId],
  );
  const secrets = secretRows.map((row) => row.checkin_secret);
  const created = await app
    .get(DevicesService)
    .create({ name: 'Bench phone', list_ids: [listId] }, { id: 0, login: 'bench', role: 'administrator' });
  const paired = JSON.parse(
    (
      await send(`${base}/devices/initialize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: created.initialization_token }),
      })
    ).body,
  ) as { api_token: string };
  const authorization = `Device ${paired.api_token}`;
  console.log(`seeded ${ATTENDEES} attendees in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (${dataSource.options.type})`);

  // ---------------------------------------------------------------- redeem throughput
  const scans = Math.min(SCANS, secrets.length);
  let next = 0;
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  // Statements the service sends per scan (through TypeORM's logger, as test/helpers/statement-recorder.ts
  // counts them), and the CPU time of this process per scan: the service and the bench's HTTP client
  // together, a figure that does not depend on what else the machine is running.
  let statements = 0;
  const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
  dataSource.logger.logQuery = (...args: Parameters<typeof logQuery>) => {
    statements += 1;
    logQuery(...args);
  };
  const cpuStart = process.cpuUsage();
  const redeemStart = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < scans) {
        const secret = secrets[next];
        next += 1;
        const sent = performance.now();
        const answer = await send(`${base}/checkin/redeem`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify({ secret, list_ids: [listId], nonce: `bench-${secret}` }),
        });
        latencies.push(performance.now() - sent);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    }),
  );
  const redeemSeconds = (performance.now() - redeemStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  dataSource.logger.logQuery = logQuery;
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  console.log(
    `redeem: ${scans} scans, concurrency ${CONCURRENCY}: ${(scans / redeemSeconds).toFixed(0)} scans/s; p50 ${percentile(50)} ms, p99 ${percentile(99)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  console.log(
    `redeem profile: ${(statements / scans).toFixed(1)} statements per scan (transaction control included); ${((cpu.user + cpu.system) / 1000 / scans).toFixed(2)} ms CPU per scan (service and bench client, one process)`,
  );

  // ---------------------------------------------------------------- sync download
  const syncStart = performance.now();
  let cursor: string | undefined;
  let bytes = 0;
  let records = 0;
  let pages = 0;
  for (;;) {
    const answer = await send(`${base}/checkin-lists/${listId}/sync?limit=5000${cursor ? `&cursor=${cursor}` : ''}`, {
      method: 'GET',
      headers: { authorization },
    });
    if (answer.status !== 200) throw new Error(`sync answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const body = JSON.parse(answer.body) as { attendees: unknown[]; cursor: string; more: boolean };
    bytes += Buffer.byteLength(answer.body);
    records += body.attendees.length;
    pages += 1;
    cursor = body.cursor;
    if (!body.more) break;
  }
  console.log(
    `sync: ${records} records in ${pages} pages, ${(bytes / 1024 / 1024).toFixed(2)} MiB, ${((performance.now() - syncStart) / 1000).toFixed(2)} s`,
  );

  // ---------------------------------------------------------------- clean up
  await dataSource.query('DELETE FROM checkins WHERE list_id = ?', [listId]);
  await dataSource.query('DELETE FROM checkin_positions WHERE list_id = ?', [listId]);
  await dataSource.query('DELETE FROM checkin_lists WHERE event_id = ?', [eventId]);
  await dataSource.query('DELETE FROM checkin_devices WHERE id = ?', [created.id]);
  await dataSource.query('DELETE FROM outbox_messages WHERE payload LIKE ?', [`%"event_id":${eventId},%`]);
  await dataSource.query('DELETE FROM attendees WHERE event_id = ?', [eventId]);
  await dataSource.query('DELETE FROM orders WHERE id = ?', [orderId]);
  await dataSource.query('DELETE FROM tickets WHERE id = ?', [ticketId]);
  await dataSource.query('DELETE FROM events WHERE id = ?', [eventId]);
  await app.close();
}

async function insertReturningId(
  dataSource: { query: (sql: string, parameters: unknown[]) => Promise<unknown> },
  mysql: boolean,
  sql: string,
  parameters: unknown[],
): Promise<Array<{ id: number }>> {
  const result = (await dataSource.query(sql, parameters)) as { insertId?: number };
  if (mysql) return [{ id: Number(result.insertId) }];
  const [row] = (await dataSource.query('SELECT last_insert_rowid() AS id', [])) as Array<{ id: number }>;
  return [{ id: Number(row.id) }];
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
