/**
 * `npm run bench`: the service against the read-optimised floor (bench/floor) on a MariaDB
 * database this run creates, fills (bench/seed) and drops.
 *
 * 1. Scaling: the database grows through --sizes to --events, and every event's document is stored
 *    (documents:store, as after an import); at each size the service starts, the
 *    floor starts after it (its tables, and the documents the scenarios reach, read from the
 *    service), and every events-list scenario is measured on one connection on both.
 * 2. Scenarios at --events (bench/scenarios.ts, the working set from bench/context.ts): each runs
 *    service, floor and framework floor (bench/floor/framework.ts) interleaved (A B C A B C …) for --cycles
 *    cycles, each run after its own warm-up and once the target has answered what it still held,
 *    autocannon in a process of its own. Sale scenarios
 *    run while the runner checks out --sale-rate orders a second on the service, through both runs.
 * 3. Flash sales (bench/flash-sale.ts) on the service: 500 buyers until 10 000 units are sold, and
 *    200 buyers at once on 50 units.
 * 4. The sale (bench/sale.ts): --sale-buyers (300) buyers looping "fill a cart with 1–2 units, check
 *    out" until --sale-units (6 000) are sold, on the service (an instance without the outbox
 *    worker) and on the sale floor (bench/floor/sale.ts), interleaved for --cycles cycles, each run
 *    on a fresh ticket.
 * --baseline runs another build beside the service (A/B): measured in every cycle of the scenarios
 * and the sale, after the service in odd cycles and before it in even ones, an API-only instance
 * (no background work) on the same database.
 * --only limits the run to some of these parts (--only sale: the sale alone, without the read floor).
 * Prints a Markdown table and writes bench/results/<date>.json and .md.
 */
import { Command } from 'commander';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { buildScenarioContext, floorPlan, workingSetSizes } from './context';
import { BenchDatabase } from './database';
import { DEFAULT_FLASH_SALE, runFlashSales } from './flash-sale';
import type { SteadyJob, SteadyResult } from './load';
import {
  runLoad,
  sampleRss,
  serviceBuild,
  startFloor,
  startSaleFloor,
  startService,
  storeEventDocuments,
  Target,
  TargetSettings,
} from './processes';
import { BenchReport, CacheCounts, CycleMeasure, markdown, ScalingPoint, summarise, writeReport } from './report';
import { DEFAULT_SALE, runSaleComparison, SteadySale } from './sale';
import { ScenarioContext, scenarioPaths, SCENARIOS } from './scenarios';
import { seedBenchmarkData } from './seed';

interface Options {
  events: number;
  sizes: number[];
  duration: number;
  warmup: number;
  scalingDuration: number;
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
  saleRate: number;
  sale: boolean;
  saleBuyers: number;
  saleUnits: number;
  saleMaxUnits: number;
  flashSale: boolean;
  only?: string[];
  baseline?: string;
  documentCacheMb?: number;
}

/** The parts of a run --only may name. */
const PARTS = ['scaling', 'scenarios', 'sale', 'flash-sale'] as const;
type Part = (typeof PARTS)[number];

/** Longest wait for a server's backlog to clear between runs. */
const SETTLE_TIMEOUT_MS = 120_000;
/** Unlimited tickets the steady sale sells in turn. */
const SALE_TICKETS = 10;

function numberList(value: string): number[] {
  return value
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((size) => Number.isInteger(size) && size > 0);
}

function parseOptions(): Options {
  const program = new Command()
    .name('npm run bench --')
    .option('--events <n>', 'events in the database for the scenarios (the last size)', (value) => Number(value), 1_000_000)
    .option('--sizes <list>', 'smaller sizes the scaling run measures first (those below --events)', numberList, [10_000, 100_000])
    .option('--duration <s>', 'seconds measured per run', (value) => Number(value), 10)
    .option('--warmup <s>', 'seconds of warm-up before each run', (value) => Number(value), 3)
    .option('--scaling-duration <s>', 'seconds measured per list, target and size in the scaling run', (value) => Number(value), 5)
    .option('--cycles <n>', 'service/floor/framework floor cycles per scenario', (value) => Number(value), 5)
    .option('--connections <n>', 'concurrent connections of the load generator', (value) => Number(value), 50)
    .option('--pool-size <n>', 'database connections of each server (DATABASE_POOL_SIZE)', (value) => Number(value), 10)
    .option('--sale-rate <n>', 'checkouts per second during the sale scenarios', (value) => Number(value), 20)
    .option(
      '--server <url>',
      'MariaDB/MySQL server (the database name is added)',
      process.env.BENCH_SERVER_URL ?? 'mysql://root@127.0.0.1:3306',
    )
    .option('--database <name>', 'use (and keep) this database; seeded only up to what is missing')
    .option('--keep', 'keep the database this run creates', false)
    .option('--scenarios <names>', `comma-separated subset of ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`)
    .option('--no-scaling', 'skip the smaller sizes and the one-connection list latencies')
    .option('--log-level <level>', "the service's LOG_LEVEL (its production default: info)", 'info')
    .option('--no-sale', 'skip the sale against the sale floor (bench/floor/sale.ts) after the scenarios')
    .option('--sale-buyers <n>', 'buyers of the sale against the sale floor', (value) => Number(value), DEFAULT_SALE.buyers)
    .option('--sale-units <n>', 'units each run of that sale sells out', (value) => Number(value), DEFAULT_SALE.units)
    .option('--sale-max-units <n>', 'each of its checkouts takes 1..n units', (value) => Number(value), DEFAULT_SALE.maxUnits)
    .option('--no-flash-sale', 'skip the flash sales (bench/flash-sale.ts) after the scenarios')
    .option(
      '--baseline <dist>',
      "another build's dist/ (built in its checkout, with its node_modules), run beside the service on the same database " +
        'and measured in every cycle of the scenarios and the sale: an A/B in one run',
    )
    .option(
      '--document-cache-mb <n>',
      "the service's EVENT_DOCUMENT_CACHE_MB (and the baseline's); every path of each scenario is then read once before its " +
        "cycles, so that the cache holds the working set (raise NODE_MAX_OLD_SPACE_MB with it: the entries' objects are on V8's heap)",
      (value) => Number(value),
    )
    .option('--only <parts>', `run only these comma-separated parts: ${PARTS.join(', ')}`, (value) =>
      value.split(',').map((part) => part.trim()),
    )
    .option(
      '--buffer-pool-mb <n>',
      'raise InnoDB buffer pool to at least this for the run (put back after); 0 leaves it',
      (value) => Number(value),
      2048,
    )
    .parse();
  return program.opts<Options>();
}

function log(message: string): void {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

class Runner {
  readonly jobFolder = mkdtempSync(join(tmpdir(), 'cal-bench-'));
  private jobs = 0;
  private readonly knownValidators = new Map<string, Record<string, string>>();

  constructor(private readonly options: Options) {}

  async steady(
    target: Target,
    scenario: string,
    context: ScenarioContext,
    durationSeconds: number,
    connections: number,
  ): Promise<SteadyResult> {
    const conditional = SCENARIOS.find((candidate) => candidate.name === scenario)?.conditional;
    const validators = conditional ? await this.validators(target, scenario, context) : undefined;
    const job: SteadyJob = { kind: 'steady', url: target.url, scenario, context, connections, durationSeconds, validators };
    const file = join(this.jobFolder, `job-${this.jobs++}.json`);
    writeFileSync(file, JSON.stringify(job));
    return runLoad<SteadyResult>(file);
  }

  /** The ETag of each path of a conditional scenario as this target answers it now, asked once per target. */
  private async validators(target: Target, scenario: string, context: ScenarioContext): Promise<Record<string, string>> {
    const known = this.knownValidators.get(target.url);
    if (known) return known;
    const paths = scenarioPaths(context, scenario);
    const validators: Record<string, string> = {};
    await readEvery(target, paths, (path, response) => {
      const etag = response.headers.get('etag');
      if (etag) validators[path] = etag;
    });
    log(
      `${scenario}: ${Object.keys(validators).length.toLocaleString('en')} ETags of ${paths.length.toLocaleString('en')} paths read from ${target.url}`,
    );
    this.knownValidators.set(target.url, validators);
    return validators;
  }

  /** Reads every path of the scenario once (--document-cache-mb: the target's cache then holds its working set). */
  async fill(target: Target, scenario: string, context: ScenarioContext): Promise<void> {
    const started = performance.now();
    const paths = scenarioPaths(context, scenario);
    await readEvery(target, paths);
    log(
      `${scenario}: ${paths.length.toLocaleString('en')} paths read once from the ${target.name} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }

  /**
   * Waits for one request of the scenario: a server that fell behind still holds the requests of
   * the last run when autocannon hangs up, and the next run (of the other target too) would
   * measure that backlog instead of itself.
   */
  async settle(target: Target, scenario: string, context: ScenarioContext): Promise<void> {
    const request = SCENARIOS.find((candidate) => candidate.name === scenario)!.request(context, 0);
    const response = await fetch(target.url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(SETTLE_TIMEOUT_MS),
    });
    await response.arrayBuffer();
  }

  /** One measured run after its warm-up, each after the backlog of the run before. */
  async measure(
    target: Target,
    scenario: string,
    context: ScenarioContext,
    connections = this.options.connections,
    durationSeconds = this.options.duration,
  ): Promise<SteadyResult> {
    await this.settle(target, scenario, context);
    if (this.options.warmup > 0) {
      await this.steady(target, scenario, context, this.options.warmup, connections);
      await this.settle(target, scenario, context);
    }
    return this.steady(target, scenario, context, durationSeconds, connections);
  }

  /**
   * The service's run, observed: its event-document cache counters (from /metrics) before and
   * after the measured run, and its RSS sampled through it.
   */
  async measureService(
    target: Target,
    scenario: string,
    context: ScenarioContext,
  ): Promise<{
    result: SteadyResult;
    cache: CacheCounts;
    rssMb: number;
  }> {
    await this.settle(target, scenario, context);
    if (this.options.warmup > 0) {
      await this.steady(target, scenario, context, this.options.warmup, this.options.connections);
      await this.settle(target, scenario, context);
    }
    const before = await documentCacheCounts(target);
    const rss = sampleRss(target.process.pid);
    const result = await this.steady(target, scenario, context, this.options.duration, this.options.connections);
    const rssMb = rss.stop();
    const after = await documentCacheCounts(target);
    const cache = { hit: 0, miss: 0, stored: 0, built: 0, eviction: 0 };
    for (const key of Object.keys(cache) as Array<keyof CacheCounts>) cache[key] = (after[key] ?? 0) - (before[key] ?? 0);
    return { result, cache, rssMb };
  }

  cleanUp(): void {
    rmSync(this.jobFolder, { recursive: true, force: true });
  }
}

/** Asks `target` for every path, 16 at a time, each answer read whole (and handed to `seen`). */
async function readEvery(target: Target, paths: string[], seen?: (path: string, response: Response) => void): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const response = await fetch(target.url + path, { signal: AbortSignal.timeout(SETTLE_TIMEOUT_MS) });
      await response.arrayBuffer();
      seen?.(path, response);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * The baseline build, an API-only instance: its outbox worker, export worker and queue ticker off
 * (the service's do that work; an older build's worker would meet notification kinds it does not know).
 */
async function startBaseline(settings: TargetSettings, dist: string): Promise<Target> {
  log(`baseline: starting the build in ${dist} (${serviceBuild(dist)})`);
  return startService(
    { ...settings, extraEnv: { ...settings.extraEnv, OUTBOX_WORKER: 'false', EXPORT_WORKER: 'false', QUEUE_TICK_MS: '0' } },
    { dist },
  );
}

/** The service's `cal_event_document_cache_total` counters now, by result. */
async function documentCacheCounts(service: Target): Promise<Partial<CacheCounts>> {
  const response = await fetch(`${service.url}/metrics`);
  const text = await response.text();
  const counts: Partial<CacheCounts> = {};
  for (const match of text.matchAll(/^cal_event_document_cache_total\{result="(\w+)"\} (\d+(?:\.\d+)?(?:e\+?\d+)?)$/gm))
    counts[match[1] as keyof CacheCounts] = Number(match[2]);
  return counts;
}

async function main(): Promise<void> {
  const options = parseOptions();
  const unknownParts = (options.only ?? []).filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknownParts.length) throw new Error(`Unknown parts for --only: ${unknownParts.join(', ')} (known: ${PARTS.join(', ')})`);
  const runs = (part: Part) => !options.only || options.only.includes(part);
  const selected = options.scenarios ? new Set(options.scenarios.split(',').map((name) => name.trim())) : undefined;
  const unknown = [...(selected ?? [])].filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length) throw new Error(`Unknown scenarios: ${unknown.join(', ')}`);
  const scenarios = runs('scenarios') ? SCENARIOS.filter((scenario) => !selected || selected.has(scenario.name)) : [];
  const scaling = options.scaling && runs('scaling');
  const sale = options.sale && runs('sale');
  const flashSale = options.flashSale && runs('flash-sale');
  // The read floor, its plan and the stored documents serve the scaling run and the read scenarios only.
  const reads = scaling || scenarios.length > 0;
  const sizes = scaling
    ? [...options.sizes.filter((size) => size < options.events).sort((a, b) => a - b), options.events]
    : [options.events];

  const databaseName = options.database ?? `cal_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const keep = options.keep || options.database !== undefined;
  const databaseUrl = `${options.server.replace(/\/$/, '')}/${databaseName}`;
  const settings: TargetSettings = {
    databaseUrl,
    poolSize: options.poolSize,
    nonceSecret: 'bench-nonce-secret-0123456789abcdef',
    logLevel: options.logLevel,
    ...(options.documentCacheMb !== undefined ? { extraEnv: { EVENT_DOCUMENT_CACHE_MB: String(options.documentCacheMb) } } : {}),
  };

  const database = await BenchDatabase.create(options.server, databaseName);
  const bufferPoolBefore = await database.ensureBufferPool(options.bufferPoolMb);
  const dataSource = await new DataSource({ ...buildDataSourceOptions({ type: 'mysql', url: databaseUrl, poolSize: 4 }) }).initialize();
  const runner = new Runner(options);
  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version, database: await database.serverVersion() },
    serviceBuild: serviceBuild(),
    ...(options.baseline ? { baselineBuild: serviceBuild(options.baseline) } : {}),
    settings: {
      bufferPoolMb: Math.max(options.bufferPoolMb, Math.round(bufferPoolBefore / 1024 / 1024)),
      events: options.events,
      sizes,
      connections: options.connections,
      durationSeconds: options.duration,
      warmupSeconds: options.warmup,
      scalingDurationSeconds: options.scalingDuration,
      cycles: options.cycles,
      poolSize: options.poolSize,
      logLevel: options.logLevel,
      saleRate: options.saleRate,
      ...(options.documentCacheMb !== undefined ? { documentCacheMb: options.documentCacheMb } : {}),
      ...(sale ? { sale: { buyers: options.saleBuyers, units: options.saleUnits, maxUnits: options.saleMaxUnits } } : {}),
    },
    seedSeconds: {},
    floorStartSeconds: {},
    lists: {},
    scenarios: [],
    scaling: [],
    workingSet: {},
    peakRssMb: { service: 0, ...(options.baseline ? { baseline: 0 } : {}), floor: 0, framework: 0, 'sale-floor': 0 },
  };
  let targets: Target[] = [];
  const stopTargets = async () => {
    for (const target of targets) {
      report.peakRssMb[target.name] = Math.max(report.peakRssMb[target.name] ?? 0, target.peakRssMb());
      await target.stop();
    }
    targets = [];
  };
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    let context: ScenarioContext | undefined;
    for (const size of sizes) {
      const started = performance.now();
      log(`seeding up to ${size.toLocaleString('en')} events`);
      await seedBenchmarkData(dataSource, { events: size, migrate: false, log: (line: string) => log(`  ${line}`) });
      report.seedSeconds[size] = (performance.now() - started) / 1000;
      await database.analyze();
      if (reads) {
        const storeStarted = performance.now();
        log('storing the event documents (npm run cli -- documents:store), as a deployment does after an import');
        await storeEventDocuments(settings, (line) => log(`  ${line}`));
        log(`event documents stored in ${((performance.now() - storeStarted) / 1000).toFixed(0)} s`);
      }
      // The sale starts an instance of its own (below): with nothing else to measure, none here.
      if (!reads && !flashSale) continue;
      const service = await startService(settings);
      targets = [service];
      if (!reads) continue;
      // Started before the floor, which reads its documents from the service: the baseline's own
      // start (its migrations are the service's or fewer) then costs the floor nothing.
      if (options.baseline && scenarios.length > 0 && size === options.events)
        targets.push(await startBaseline(settings, options.baseline));
      context = await buildScenarioContext(database);
      const planFile = join(runner.jobFolder, `floor-plan-${size}.json`);
      const plan = floorPlan(context);
      writeFileSync(planFile, JSON.stringify(plan));
      const floorStarted = performance.now();
      log(
        `floor reading ${plan.eventLists.reduce((sum, list) => sum + list.pages.length, 0).toLocaleString('en')} list pages and ` +
          `${plan.eventIds.length.toLocaleString('en')} single events from the service`,
      );
      const { floor, framework } = await startFloor(settings, service.url, planFile, (line) => log(`  ${line}`));
      targets.push(floor, framework);
      report.floorStartSeconds[size] = (performance.now() - floorStarted) / 1000;
      log(`floor ready at ${size.toLocaleString('en')} events in ${report.floorStartSeconds[size].toFixed(0)} s`);
      if (scaling) {
        const point: ScalingPoint = { events: size, measures: [] };
        for (const scenario of scenarios.filter((candidate) => candidate.list)) {
          const measure = {
            scenario: scenario.name,
            service: await runner.measure(service, scenario.name, context, 1, options.scalingDuration),
            floor: await runner.measure(floor, scenario.name, context, 1, options.scalingDuration),
          };
          point.measures.push(measure);
          log(
            `${scenario.name} at ${size.toLocaleString('en')} events, one connection: service p50 ${measure.service.p50} ms p99 ${measure.service.p99} ms, floor p50 ${measure.floor.p50} ms`,
          );
        }
        report.scaling.push(point);
      }
      if (size !== options.events) await stopTargets();
    }

    const named = (name: Target['name']) => targets.find((target) => target.name === name);
    const [service, floor, framework, baseline] = [named('service')!, named('floor')!, named('framework')!, named('baseline')];
    if (context) {
      report.lists = context.lists;
      report.workingSet = workingSetSizes(context);
    }
    const saleTickets = scenarios.some((scenario) => scenario.sale) ? await database.saleTickets(SALE_TICKETS) : [];
    for (const scenario of scenarios) {
      const cycles: CycleMeasure[] = [];
      if (options.documentCacheMb !== undefined && scenarioPaths(context!, scenario.name).length > 0)
        for (const target of baseline ? [service, baseline] : [service]) await runner.fill(target, scenario.name, context!);
      for (let cycle = 1; cycle <= options.cycles; cycle += 1) {
        const sale = scenario.sale ? new SteadySale(service.url, saleTickets, options.saleRate) : undefined;
        sale?.start();
        // Service and baseline take turns at going first: the first of a cycle leaves MariaDB's
        // buffer pool warm for the second (the stored list items beyond a million events' cache).
        const measureBaseline = () => (baseline ? runner.measureService(baseline, scenario.name, context!) : Promise.resolve(undefined));
        const baselineFirst = cycle % 2 === 0 ? await measureBaseline() : undefined;
        const observed = await runner.measureService(service, scenario.name, context!);
        const serviceResult = observed.result;
        const baselineObserved = baselineFirst ?? (await measureBaseline());
        const floorResult = await runner.measure(floor, scenario.name, context!);
        const frameworkResult = await runner.measure(framework, scenario.name, context!);
        const saleResult = await sale?.stop();
        const ratio = serviceResult.requestsPerSecond / floorResult.requestsPerSecond;
        cycles.push({
          cycle,
          service: serviceResult,
          floor: floorResult,
          framework: frameworkResult,
          ratio,
          frameworkRatio: serviceResult.requestsPerSecond / frameworkResult.requestsPerSecond,
          cache: observed.cache,
          serviceRssMb: observed.rssMb,
          ...(saleResult ? { sale: saleResult } : {}),
          ...(baselineObserved ? { baseline: baselineObserved } : {}),
        });
        const looked = observed.cache.hit + observed.cache.miss;
        log(
          `${scenario.name} cycle ${cycle}: service ${serviceResult.requestsPerSecond.toFixed(0)} req/s (p99 ${serviceResult.p99} ms, ${serviceResult.non2xx} non-2xx, ` +
            `document cache ${looked ? ((100 * observed.cache.hit) / looked).toFixed(0) : '–'} % hits, RSS ${observed.rssMb.toFixed(0)} MB), ` +
            `floor ${floorResult.requestsPerSecond.toFixed(0)} req/s (p99 ${floorResult.p99} ms, ${floorResult.non2xx} non-2xx), ratio ${ratio.toFixed(2)}, ` +
            `framework ${frameworkResult.requestsPerSecond.toFixed(0)} req/s (${frameworkResult.non2xx} non-2xx)` +
            (baselineObserved
              ? `, baseline ${baselineObserved.result.requestsPerSecond.toFixed(0)} req/s (p99 ${baselineObserved.result.p99} ms, ${baselineObserved.result.non2xx} non-2xx, ` +
                `RSS ${baselineObserved.rssMb.toFixed(0)} MB), service ÷ baseline ${(serviceResult.requestsPerSecond / baselineObserved.result.requestsPerSecond).toFixed(2)}`
              : '') +
            (saleResult
              ? `; sale ${saleResult.checkouts} checkouts in ${saleResult.seconds.toFixed(0)} s ${JSON.stringify(saleResult.failures)}`
              : ''),
        );
      }
      report.scenarios.push(summarise(scenario.name, scenario.title, cycles));
    }
    // After the scenarios: their orders and attendees would otherwise be in the lists measured above.
    if (flashSale) report.flashSale = await runFlashSales([service], database, DEFAULT_FLASH_SALE, runner.jobFolder, log);
    if (sale) {
      // Last, on an instance of its own without the outbox worker (OUTBOX_WORKER=false, an API-only
      // instance): the floor's notifications go to the same outbox, and a worker would deliver them
      // on the floor's time, or deliver the service's on the floor's. Neither delivers while measured.
      await stopTargets();
      const saleService = await startService({ ...settings, extraEnv: { ...settings.extraEnv, OUTBOX_WORKER: 'false' } });
      targets = [saleService];
      const saleFloor = await startSaleFloor(settings);
      targets.push(saleFloor);
      const saleBaseline = options.baseline ? await startBaseline(settings, options.baseline) : undefined;
      if (saleBaseline) targets.push(saleBaseline);
      log(
        `sale: ${options.saleBuyers} buyers, 1–${options.saleMaxUnits} units a checkout, until ${options.saleUnits.toLocaleString('en')} units are sold, ` +
          `service and sale floor interleaved, ${options.cycles} cycle(s)`,
      );
      report.sale = await runSaleComparison(
        { service: saleService, floor: saleFloor, ...(saleBaseline ? { baseline: saleBaseline } : {}) },
        database,
        { ...DEFAULT_SALE, buyers: options.saleBuyers, units: options.saleUnits, maxUnits: options.saleMaxUnits },
        { cycles: options.cycles, warmup: options.warmup > 0, jobFolder: runner.jobFolder, log },
      );
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
    // Put back only what this run changed: with --buffer-pool-mb 0 the server's settings are never written.
    if (options.bufferPoolMb > 0 && bufferPoolBefore < options.bufferPoolMb * 1024 * 1024)
      await database.setBufferPool(bufferPoolBefore).catch(() => undefined);
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
