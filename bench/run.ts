/**
 * `npm run bench`: the service against the raw baseline (bench/baseline) on a MariaDB database
 * this run creates, fills (bench/seed) and drops.
 *
 * 1. Scaling: the database grows to 10 000, 100 000 and --events events; at each size the default
 *    events list is measured on one connection, service and baseline.
 * 2. Scenarios at --events: each runs service and baseline interleaved (A B A B …) for --cycles
 *    cycles, each run after its own warm-up, autocannon in a process of its own.
 * 3. Checkout under contention: 200 buyers with a filled cart check out at once on capacity 50.
 * Prints a Markdown table and writes bench/results/<date>.json and .md.
 */
import { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { BENCH_ADMIN_AUTHORIZATION } from './credentials';
import { BenchDatabase } from './database';
import type { BurstResult, SteadyJob, SteadyResult } from './load';
import { runLoad, startBaseline, startService, Target, TargetSettings } from './processes';
import { BenchReport, CheckoutRound, CycleMeasure, markdown, median, ScalingPoint, summarise, writeReport } from './report';
import { CHECKOUT_SCENARIO, ScenarioContext, SCENARIOS } from './scenarios';
import { seedBenchmarkData } from './seed';

interface Options {
  events: number;
  duration: number;
  warmup: number;
  cycles: number;
  connections: number;
  poolSize: number;
  server: string;
  database?: string;
  keep: boolean;
  scenarios?: string;
  scaling: boolean;
  logLevel: string;
  bufferPoolMb: number;
}

const CHECKOUT_BUYERS = 200;
const CHECKOUT_CAPACITY = 50;
const CART_TOKENS = 200;

function parseOptions(): Options {
  const program = new Command()
    .name('npm run bench --')
    .option('--events <n>', 'events in the database for the scenarios', (value) => Number(value), 1_000_000)
    .option('--duration <s>', 'seconds measured per run', (value) => Number(value), 10)
    .option('--warmup <s>', 'seconds of warm-up before each run', (value) => Number(value), 3)
    .option('--cycles <n>', 'service/baseline cycles per scenario', (value) => Number(value), 5)
    .option('--connections <n>', 'concurrent connections of the load generator', (value) => Number(value), 50)
    .option('--pool-size <n>', 'database connections of each server (DATABASE_POOL_SIZE)', (value) => Number(value), 10)
    .option('--server <url>', 'MariaDB/MySQL server (the database name is added)', process.env.BENCH_SERVER_URL ?? 'mysql://root@127.0.0.1:3306')
    .option('--database <name>', 'use (and keep) this database; seeded only up to what is missing')
    .option('--keep', 'keep the database this run creates', false)
    .option('--scenarios <names>', `comma-separated subset of ${[...SCENARIOS.map((scenario) => scenario.name), CHECKOUT_SCENARIO.name].join(', ')}`)
    .option('--no-scaling', 'skip the list latency at 10 000 and 100 000 events')
    .option('--log-level <level>', "the service's LOG_LEVEL (its production default: info)", 'info')
    .option('--buffer-pool-mb <n>', 'raise InnoDB buffer pool to at least this for the run (put back after); 0 leaves it', (value) => Number(value), 2048)
    .parse();
  return program.opts<Options>();
}

function log(message: string): void {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

class Runner {
  private readonly jobFolder = mkdtempSync(join(tmpdir(), 'cal-bench-'));
  private jobs = 0;

  constructor(private readonly options: Options) {}

  async steady(target: Target, scenario: string, context: ScenarioContext, durationSeconds: number, connections = this.options.connections): Promise<SteadyResult> {
    const job: SteadyJob = { kind: 'steady', url: target.url, scenario, context, connections, durationSeconds };
    const file = join(this.jobFolder, `job-${this.jobs++}.json`);
    writeFileSync(file, JSON.stringify(job));
    return runLoad<SteadyResult>(file);
  }

  /** One measured run after its warm-up. */
  async measure(target: Target, scenario: string, context: ScenarioContext, connections?: number): Promise<SteadyResult> {
    if (this.options.warmup > 0) await this.steady(target, scenario, context, this.options.warmup, connections);
    return this.steady(target, scenario, context, this.options.duration, connections);
  }

  async burst(target: Target, requests: Array<{ method: 'POST'; path: string; headers: Record<string, string>; body: string }>): Promise<BurstResult> {
    const file = join(this.jobFolder, `job-${this.jobs++}.json`);
    writeFileSync(file, JSON.stringify({ kind: 'burst', url: target.url, requests }));
    return runLoad<BurstResult>(file);
  }

  cleanUp(): void {
    rmSync(this.jobFolder, { recursive: true, force: true });
  }
}

/** Issues cart tokens on a target: one anonymous cart write each, a few at a time. */
async function issueCartTokens(target: Target, tickets: Array<[number, string]>, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, async (_, offset) => {
        const [ticketId, provider] = tickets[(start + offset) % tickets.length];
        const response = await fetch(`${target.url}/cal/tickets/v1/cart`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ provider, tickets: [{ ticket_id: ticketId, quantity: 1 }] }),
        });
        const body = await response.text();
        const token = response.headers.get('x-cart-token');
        if (response.status !== 200 || !token) throw new Error(`${target.name}: cart write answered ${response.status} ${body.slice(0, 300)}`);
        return token;
      }),
    );
    tokens.push(...batch);
  }
  return tokens;
}

async function contextFor(target: Target, base: Omit<ScenarioContext, 'cartTokens'>): Promise<ScenarioContext> {
  return { ...base, cartTokens: await issueCartTokens(target, base.cartTickets, CART_TOKENS) };
}

async function checkoutRound(runner: Runner, database: BenchDatabase, target: Target, cycle: number): Promise<CheckoutRound> {
  const ticket = await database.createContendedTicket(CHECKOUT_CAPACITY, `${target.name}-${cycle}-${randomUUID().slice(0, 8)}`);
  const tokens = await issueCartTokens(target, [[ticket.id, ticket.provider]], CHECKOUT_BUYERS);
  const result = await runner.burst(
    target,
    tokens.map((token, index) => ({
      method: 'POST',
      path: '/cal/tickets/v1/cart/checkout',
      headers: { 'content-type': 'application/json', 'x-cart-token': token },
      body: JSON.stringify({ provider: ticket.provider, purchaser: { name: `Buyer ${index}`, email: `buyer${index}@example.com` } }),
    })),
  );
  const outcome = await database.ticketOutcome(ticket.id);
  const created = result.statuses['201'] ?? 0;
  const soldOut = result.statuses['409'] ?? 0;
  return {
    cycle,
    target: target.name,
    elapsedMs: result.elapsedMs,
    created,
    soldOut,
    other: CHECKOUT_BUYERS - created - soldOut,
    sold: outcome.taken,
    attendees: outcome.attendees,
    oversold: Math.max(0, outcome.attendees - CHECKOUT_CAPACITY, outcome.taken - CHECKOUT_CAPACITY),
  };
}

async function main(): Promise<void> {
  const options = parseOptions();
  const selected = new Set(options.scenarios ? options.scenarios.split(',').map((name) => name.trim()) : [...SCENARIOS.map((s) => s.name), CHECKOUT_SCENARIO.name]);
  const databaseName = options.database ?? `cal_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const keep = options.keep || options.database !== undefined;
  const databaseUrl = `${options.server.replace(/\/$/, '')}/${databaseName}`;
  const settings: TargetSettings = { databaseUrl, poolSize: options.poolSize, nonceSecret: 'bench-nonce-secret-0123456789abcdef', logLevel: options.logLevel };

  const database = await BenchDatabase.create(options.server, databaseName);
  const bufferPoolBefore = await database.ensureBufferPool(options.bufferPoolMb);
  const dataSource = await new DataSource({ ...buildDataSourceOptions({ type: 'mysql', url: databaseUrl, poolSize: 4 }) }).initialize();
  const runner = new Runner(options);
  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version, database: await database.serverVersion() },
    settings: {
      bufferPoolMb: Math.max(options.bufferPoolMb, Math.round(bufferPoolBefore / 1024 / 1024)),
      events: options.events,
      connections: options.connections,
      durationSeconds: options.duration,
      warmupSeconds: options.warmup,
      cycles: options.cycles,
      poolSize: options.poolSize,
      logLevel: options.logLevel,
    },
    seedSeconds: {},
    scenarios: [],
    checkout: { rounds: [], medianMs: { service: NaN, baseline: NaN }, oversold: 0 },
    scaling: [],
    peakRssMb: { service: 0, baseline: 0 },
  };
  let targets: Target[] = [];
  const stopTargets = async () => {
    for (const target of targets) {
      report.peakRssMb[target.name] = Math.max(report.peakRssMb[target.name], target.peakRssMb());
      await target.stop();
    }
    targets = [];
  };
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const sizes = options.scaling ? [10_000, 100_000].filter((size) => size < options.events) : [];
    for (const size of [...sizes, options.events]) {
      const started = performance.now();
      log(`seeding up to ${size.toLocaleString('en')} events`);
      await seedBenchmarkData(dataSource, { events: size, log: (line: string) => log(`  ${line}`) });
      report.seedSeconds[size] = (performance.now() - started) / 1000;
      await database.analyze();
      const service = await startService(settings);
      const baseline = await startBaseline(settings);
      targets = [service, baseline];
      if (options.scaling) {
        const context = { ...(await database.scenarioContext(BENCH_ADMIN_AUTHORIZATION)), cartTokens: [] };
        const point: ScalingPoint = {
          events: size,
          service: await runner.measure(service, 'events-list', context, 1),
          baseline: await runner.measure(baseline, 'events-list', context, 1),
        };
        report.scaling.push(point);
        log(`list latency at ${size.toLocaleString('en')} events: service p50 ${point.service.p50} ms p99 ${point.service.p99} ms, baseline p50 ${point.baseline.p50} ms`);
      }
      if (size !== options.events) await stopTargets();
    }

    const [service, baseline] = targets;
    const base = await database.scenarioContext(BENCH_ADMIN_AUTHORIZATION);
    const contexts = { service: await contextFor(service, base), baseline: await contextFor(baseline, base) };
    for (const scenario of SCENARIOS.filter((candidate) => selected.has(candidate.name))) {
      const cycles: CycleMeasure[] = [];
      for (let cycle = 1; cycle <= options.cycles; cycle += 1) {
        const serviceResult = await runner.measure(service, scenario.name, contexts.service);
        const baselineResult = await runner.measure(baseline, scenario.name, contexts.baseline);
        const ratio = serviceResult.requestsPerSecond / baselineResult.requestsPerSecond;
        cycles.push({ cycle, service: serviceResult, baseline: baselineResult, ratio });
        log(
          `${scenario.name} cycle ${cycle}: service ${serviceResult.requestsPerSecond.toFixed(0)} req/s (p99 ${serviceResult.p99} ms, ${serviceResult.non2xx} non-2xx), ` +
            `baseline ${baselineResult.requestsPerSecond.toFixed(0)} req/s (p99 ${baselineResult.p99} ms, ${baselineResult.non2xx} non-2xx), ratio ${ratio.toFixed(2)}`,
        );
      }
      report.scenarios.push(summarise(scenario.name, scenario.title, cycles));
    }

    if (selected.has(CHECKOUT_SCENARIO.name)) {
      for (let cycle = 1; cycle <= options.cycles; cycle += 1) {
        for (const target of [service, baseline]) {
          const round = await checkoutRound(runner, database, target, cycle);
          report.checkout.rounds.push(round);
          log(`checkout ${target.name} cycle ${cycle}: ${round.elapsedMs.toFixed(0)} ms, ${round.created}×201 ${round.soldOut}×409 ${round.other} other, taken ${round.sold}, attendees ${round.attendees}`);
        }
      }
      const rounds = report.checkout.rounds;
      report.checkout.medianMs = {
        service: median(rounds.filter((entry) => entry.target === 'service').map((entry) => entry.elapsedMs)),
        baseline: median(rounds.filter((entry) => entry.target === 'baseline').map((entry) => entry.elapsedMs)),
      };
      report.checkout.oversold = rounds.reduce((sum, entry) => sum + entry.oversold, 0);
    }
    await stopTargets();

    const files = writeReport(report, join(__dirname, 'results'));
    process.stdout.write('\n' + markdown(report));
    log(`written ${files.md} and ${files.json}`);
  } finally {
    await stopTargets().catch(() => undefined);
    runner.cleanUp();
    await dataSource.destroy();
    if (!keep) await database.drop();
    await database.setBufferPool(bufferPoolBefore).catch(() => undefined);
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
