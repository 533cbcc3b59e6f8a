/**
 * Flash sales: many buyers on one ticket at once. Part of `npm run bench` (after its scenarios) and
 * runnable alone, `npm run bench:flash-sale`, on a database of its own (created, migrated, dropped):
 *
 * 1. Sustained: one free ticket of --capacity units (10 000) and --buyers (500) buyers, each
 *    checking out 1–2 units from their own cart again and again until it is sold out. Reports
 *    checkouts/s over the selling time, checkout latency p50/p99, and from the database: sold =
 *    attendees = capacity, no oversold unit, no order counted twice.
 * 2. Stampede: --burst-buyers (200) carts of one unit each of a paid ticket of --burst-capacity
 *    (50) units, all checked out at once; the time to the last answer, and exactly capacity sold.
 *
 * With --database-urls (one per service instance, e.g. one per Galera node) the buyers are spread
 * over several instances; the database is created and migrated through the first. With --galera
 * the run starts a throwaway three-node Galera cluster on free loopback ports (the tests' helper),
 * one instance per node, and stops it afterwards.
 */
import { Command } from 'commander';
import { cpus, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { GaleraCluster } from '../test/helpers/galera-cluster';
import { BenchDatabase } from './database';
import type { FlashJob, FlashResult } from './flash-buyers';
import type { BurstJob, BurstResult } from './load';
import { runLoad, startService, Target, TargetSettings } from './processes';

export interface FlashSaleSettings {
  capacity: number;
  buyers: number;
  maxUnits: number;
  burstCapacity: number;
  burstBuyers: number;
  deadlineSeconds: number;
}

export const DEFAULT_FLASH_SALE: FlashSaleSettings = {
  capacity: 10_000,
  buyers: 500,
  maxUnits: 2,
  burstCapacity: 50,
  burstBuyers: 200,
  deadlineSeconds: 900,
};

/** What the database holds for a sale's ticket afterwards. */
export interface SaleOutcome {
  sold: number;
  pending: number;
  attendees: number;
  orders: number;
  orderedUnits: number;
  /** Units taken beyond capacity (must be 0). */
  oversold: number;
}

export interface FlashSaleReport {
  instances: number;
  settings: FlashSaleSettings;
  sustained: FlashResult & { checkoutsPerSecond: number; outcome: SaleOutcome; soldOut: boolean };
  stampede: { elapsedMs: number; statuses: Record<string, number>; outcome: SaleOutcome; exact: boolean };
}

function outcomeOf(raw: Omit<SaleOutcome, 'oversold'>, capacity: number): SaleOutcome {
  return { ...raw, oversold: Math.max(0, raw.sold + raw.pending - capacity, raw.attendees - capacity) };
}

async function fillCarts(
  urls: string[],
  ticket: { id: number; provider: string },
  buyers: number,
): Promise<Array<{ url: string; token: string }>> {
  const carts: Array<{ url: string; token: string }> = [];
  // In batches: the carts are set up, not measured.
  for (let start = 0; start < buyers; start += 50) {
    const batch = Array.from({ length: Math.min(50, buyers - start) }, async (_, offset) => {
      const url = urls[(start + offset) % urls.length];
      const response = await fetch(`${url}/cal/tickets/v1/cart`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: ticket.provider, tickets: [{ ticket_id: ticket.id, quantity: 1 }] }),
      });
      await response.arrayBuffer();
      const token = response.headers.get('x-cart-token');
      if (response.status !== 200 || !token) throw new Error(`Filling a stampede cart answered ${response.status}`);
      return { url, token };
    });
    carts.push(...(await Promise.all(batch)));
  }
  return carts;
}

/** Runs both flash sales against running service instances; `jobFolder` holds the load jobs. */
export async function runFlashSales(
  targets: Array<Pick<Target, 'url'>>,
  database: BenchDatabase,
  settings: FlashSaleSettings,
  jobFolder: string,
  log: (message: string) => void,
): Promise<FlashSaleReport> {
  const urls = targets.map((target) => target.url);
  const label = new Date().toISOString().replace(/\D/g, '').slice(0, 17);

  const ticket = await database.createContendedTicket(settings.capacity, `flash-${label}`, 0);
  log(`flash sale: ${settings.buyers} buyers on a ticket of ${settings.capacity} units over ${urls.length} instance(s)`);
  const flashJob: FlashJob = {
    kind: 'flash',
    urls,
    ticket,
    buyers: settings.buyers,
    maxUnits: settings.maxUnits,
    deadlineSeconds: settings.deadlineSeconds,
  };
  const flashFile = join(jobFolder, `flash-${label}.json`);
  writeFileSync(flashFile, JSON.stringify(flashJob));
  const flash = await runLoad<FlashResult>(flashFile);
  const sustainedOutcome = outcomeOf(await database.ticketOutcome(ticket.id), settings.capacity);
  const checkoutsPerSecond = flash.checkouts / (flash.sellingMs / 1000);
  log(
    `flash sale: ${flash.checkouts} checkouts (${flash.units} units) in ${(flash.sellingMs / 1000).toFixed(1)} s = ${checkoutsPerSecond.toFixed(1)} checkouts/s, ` +
      `p50 ${flash.p50.toFixed(0)} ms p99 ${flash.p99.toFixed(0)} ms; sold ${sustainedOutcome.sold}, attendees ${sustainedOutcome.attendees}, oversold ${sustainedOutcome.oversold}, ` +
      `duplicates ${flash.duplicateOrders}; ${JSON.stringify(flash.statuses)}`,
  );

  const burstTicket = await database.createContendedTicket(settings.burstCapacity, `stampede-${label}`);
  const carts = await fillCarts(urls, burstTicket, settings.burstBuyers);
  const burstJob: BurstJob = {
    kind: 'burst',
    url: '',
    requests: carts.map((cart, index) => ({
      method: 'POST',
      path: `${cart.url}/cal/tickets/v1/cart/checkout`,
      headers: { 'content-type': 'application/json', 'x-cart-token': cart.token },
      body: JSON.stringify({
        provider: burstTicket.provider,
        purchaser: { name: `Stampede buyer ${index}`, email: `stampede${index}@example.com` },
      }),
    })),
  };
  const burstFile = join(jobFolder, `stampede-${label}.json`);
  writeFileSync(burstFile, JSON.stringify(burstJob));
  const burst = await runLoad<BurstResult>(burstFile);
  const burstOutcome = outcomeOf(await database.ticketOutcome(burstTicket.id), settings.burstCapacity);
  const exact =
    burstOutcome.pending === settings.burstCapacity &&
    burstOutcome.attendees === settings.burstCapacity &&
    (burst.statuses['201'] ?? 0) === settings.burstCapacity;
  log(
    `stampede: ${settings.burstBuyers} buyers on ${settings.burstCapacity} units answered in ${burst.elapsedMs.toFixed(0)} ms ${JSON.stringify(burst.statuses)}; held ${burstOutcome.pending}, oversold ${burstOutcome.oversold}`,
  );

  return {
    instances: urls.length,
    settings,
    sustained: { ...flash, checkoutsPerSecond, outcome: sustainedOutcome, soldOut: sustainedOutcome.sold === settings.capacity },
    stampede: { elapsedMs: burst.elapsedMs, statuses: burst.statuses, outcome: burstOutcome, exact },
  };
}

export function flashSaleMarkdown(report: FlashSaleReport): string {
  const { sustained: s, stampede: b, settings } = report;
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([kind, count]) => `${count}× ${kind}`)
      .join(', ');
  return [
    `Flash sales over ${report.instances} service instance(s):`,
    '',
    '| Sale | result | latency | database afterwards |',
    '|---|---|---|---|',
    `| ${settings.buyers} buyers, 1–${settings.maxUnits} units each, until ${settings.capacity.toLocaleString('en')} are sold | **${s.checkoutsPerSecond.toFixed(1)} checkouts/s** ` +
      `(${s.checkouts} checkouts, ${s.units} units in ${(s.sellingMs / 1000).toFixed(1)} s${s.timedOut ? ', cut by the deadline' : ''}) | p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms | ` +
      `sold ${s.outcome.sold}, attendees ${s.outcome.attendees}, oversold ${s.outcome.oversold}, duplicate orders ${s.duplicateOrders} |`,
    `| ${settings.burstBuyers} buyers at once on ${settings.burstCapacity} units | **${b.elapsedMs.toFixed(0)} ms** to the last answer | ${statuses(b.statuses)} | ` +
      `held ${b.outcome.pending}, attendees ${b.outcome.attendees}, oversold ${b.outcome.oversold} |`,
    '',
    `Answers of the sustained sale: ${statuses(s.statuses)}.`,
  ].join('\n');
}

interface Options {
  server: string;
  databaseUrls?: string;
  poolSize: number;
  capacity: number;
  buyers: number;
  maxUnits: number;
  burstCapacity: number;
  burstBuyers: number;
  deadline: number;
  logLevel: string;
  keep: boolean;
  galera: boolean;
}

function log(message: string): void {
  process.stdout.write(`[flash-sale ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function main(): Promise<void> {
  const options = new Command()
    .name('npm run bench:flash-sale --')
    .option(
      '--server <url>',
      'MariaDB/MySQL server (the database name is added)',
      process.env.BENCH_SERVER_URL ?? 'mysql://root@127.0.0.1:3306',
    )
    .option(
      '--database-urls <list>',
      'comma-separated database URLs, one service instance each (all the same database, e.g. one per Galera node)',
    )
    .option('--pool-size <n>', 'database connections of each instance', (value) => Number(value), 10)
    .option('--capacity <n>', 'units of the sustained sale', (value) => Number(value), DEFAULT_FLASH_SALE.capacity)
    .option('--buyers <n>', 'concurrent buyers of the sustained sale', (value) => Number(value), DEFAULT_FLASH_SALE.buyers)
    .option('--max-units <n>', 'each checkout takes 1..n units', (value) => Number(value), DEFAULT_FLASH_SALE.maxUnits)
    .option('--burst-capacity <n>', 'units of the stampede', (value) => Number(value), DEFAULT_FLASH_SALE.burstCapacity)
    .option('--burst-buyers <n>', 'buyers of the stampede', (value) => Number(value), DEFAULT_FLASH_SALE.burstBuyers)
    .option(
      '--deadline <s>',
      'the sustained sale stops by itself after this long',
      (value) => Number(value),
      DEFAULT_FLASH_SALE.deadlineSeconds,
    )
    .option('--log-level <level>', "the service's LOG_LEVEL", 'warn')
    .option('--keep', 'keep the database', false)
    .option('--galera', 'start a three-node Galera cluster on loopback and run one instance per node', false)
    .parse()
    .opts<Options>();

  const name = `cal_flash_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  if (!options.galera) {
    const databaseUrls = options.databaseUrls
      ? options.databaseUrls.split(',').map((url) => url.trim())
      : [`${options.server.replace(/\/$/, '')}/${name}`];
    await sell(options, databaseUrls);
    return;
  }
  log('starting a three-node Galera cluster on loopback');
  const cluster = await GaleraCluster.start(3);
  try {
    await sell(
      options,
      cluster.nodes.map((node) => node.url(name)),
    );
  } finally {
    await cluster.destroy();
  }
}

/** Creates and migrates the database, starts one instance per URL, runs both sales and reports them. */
async function sell(options: Options, databaseUrls: string[]): Promise<void> {
  const first = new URL(databaseUrls[0]);
  const databaseName = first.pathname.replace(/^\//, '');
  const serverUrl = `${first.protocol}//${first.username ? `${first.username}${first.password ? `:${first.password}` : ''}@` : ''}${first.host}`;
  const database = await BenchDatabase.create(serverUrl, databaseName);
  const dataSource = await new DataSource(buildDataSourceOptions({ type: 'mysql', url: databaseUrls[0], poolSize: 2 })).initialize();
  const jobFolder = mkdtempSync(join(tmpdir(), 'cal-flash-'));
  const targets: Target[] = [];
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    for (const databaseUrl of databaseUrls) {
      const settings: TargetSettings = {
        databaseUrl,
        poolSize: options.poolSize,
        nonceSecret: 'bench-nonce-secret-0123456789abcdef',
        logLevel: options.logLevel,
      };
      targets.push(await startService(settings));
    }
    const report = await runFlashSales(
      targets,
      database,
      {
        capacity: options.capacity,
        buyers: options.buyers,
        maxUnits: options.maxUnits,
        burstCapacity: options.burstCapacity,
        burstBuyers: options.burstBuyers,
        deadlineSeconds: options.deadline,
      },
      jobFolder,
      log,
    );
    const machine = { cpus: cpus().length, node: process.version, database: await database.serverVersion() };
    const server = options.galera ? `a three-node Galera cluster of ${machine.database} on the same machine` : machine.database;
    const text = `Flash-sale benchmark of ${new Date().toISOString()} on ${server}, ${machine.cpus} cores, Node ${machine.node}, pool ${options.poolSize} per instance.\n\n${flashSaleMarkdown(report)}\n`;
    const folder = join(__dirname, 'results');
    mkdirSync(folder, { recursive: true });
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
    writeFileSync(join(folder, `flash-sale-${stamp}.json`), JSON.stringify({ machine, report }, null, 2));
    writeFileSync(join(folder, `flash-sale-${stamp}.md`), text);
    process.stdout.write(`\n${text}`);
    const failed =
      report.sustained.outcome.oversold > 0 ||
      report.stampede.outcome.oversold > 0 ||
      report.sustained.duplicateOrders > 0 ||
      !report.stampede.exact;
    if (failed) process.exitCode = 1;
  } finally {
    for (const target of targets) await target.stop();
    rmSync(jobFolder, { recursive: true, force: true });
    await dataSource.destroy();
    if (!options.keep) await database.drop();
    await database.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
