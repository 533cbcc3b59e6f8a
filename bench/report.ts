import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SteadyResult } from './load';
import { FlashSaleReport, flashSaleMarkdown } from './flash-sale';
import type { SaleComparison, SaleResult } from './sale';
import { SALE_PAIRS } from './scenarios';

/** Deltas of the service's `cal_event_document_cache_total` over one measured run. */
export interface CacheCounts {
  hit: number;
  miss: number;
  stored: number;
  built: number;
  eviction: number;
}

export interface CycleMeasure {
  cycle: number;
  service: SteadyResult;
  floor: SteadyResult;
  /** The bare Nest + Express app doing the floor's work (bench/floor/framework.ts). */
  framework?: SteadyResult;
  /** service req/s ÷ floor req/s. */
  ratio: number;
  /** service req/s ÷ framework floor req/s. */
  frameworkRatio?: number;
  /** The service's document cache during its measured run. */
  cache?: CacheCounts;
  /** The service's peak RSS during its measured run (sampled), MB. */
  serviceRssMb?: number;
  /** The steady sale that ran through both runs of the cycle (sale scenarios). */
  sale?: SaleResult;
  /** The baseline build's run in the same cycle (run.ts --baseline), observed as the service's is. */
  baseline?: { result: SteadyResult; cache: CacheCounts; rssMb: number };
}

/** The baseline build against the floor and against the service, over the same cycles. */
export interface BaselineSummary {
  rps: number;
  /** baseline req/s ÷ floor req/s. */
  ratio: number;
  p99: number;
  /** service req/s ÷ baseline req/s, cycle by cycle, and their median. */
  serviceOverBaseline: number[];
  medianServiceOverBaseline: number;
  cacheHitRate: number;
  peakRssMb: number;
  errors: number;
}

export interface ScenarioReport {
  name: string;
  title: string;
  cycles: CycleMeasure[];
  median: {
    serviceRps: number;
    floorRps: number;
    ratio: number;
    serviceP50: number;
    serviceP99: number;
    serviceMax: number;
    floorP50: number;
    floorP99: number;
    p99Ratio: number;
    frameworkRps: number;
    frameworkRatio: number;
    /** Hits ÷ lookups of the service's document cache over every cycle's measured run. */
    cacheHitRate: number;
    /** Documents read as stored and built from rows over every cycle's measured run. */
    cacheStored: number;
    cacheBuilt: number;
    /** The highest RSS of the service in the scenario's measured runs, MB. */
    servicePeakRssMb: number;
  };
  baseline?: BaselineSummary;
  errors: { service: number; floor: number; framework: number };
}

/** One list scenario on one connection at one database size. */
export interface ScalingMeasure {
  scenario: string;
  service: SteadyResult;
  floor: SteadyResult;
}

export interface ScalingPoint {
  events: number;
  measures: ScalingMeasure[];
}

export interface BenchReport {
  date: string;
  machine: { cpus: number; node: string; database: string };
  /** The commit the measured service was built from. */
  serviceBuild?: string;
  /** The commit of the build measured beside it (run.ts --baseline). */
  baselineBuild?: string;
  settings: {
    bufferPoolMb: number;
    events: number;
    sizes: number[];
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    scalingDurationSeconds: number;
    cycles: number;
    poolSize: number;
    logLevel: string;
    saleRate: number;
    /** The service's EVENT_DOCUMENT_CACHE_MB when set (--document-cache-mb; every path read once first). */
    documentCacheMb?: number;
    /** The sale against the sale floor (absent when it did not run). */
    sale?: { buyers: number; units: number; maxUnits: number };
  };
  seedSeconds: Record<string, number>;
  floorStartSeconds: Record<string, number>;
  /** The filter values and pages of the final size. */
  lists: Record<string, Array<{ query: string; firstPage: number; lastPage: number }>>;
  /** Distinct paths each scenario walks at the final size. */
  workingSet: Record<string, number>;
  scenarios: ScenarioReport[];
  scaling: ScalingPoint[];
  peakRssMb: { service: number; baseline?: number; floor: number; framework: number; 'sale-floor': number };
  /** The sale, service against the sale floor (absent with --no-sale). */
  sale?: SaleComparison;
  /** The flash sales run after the scenarios (absent with --no-flash-sale). */
  flashSale?: FlashSaleReport;
}

/** The median of the finite values (a cycle where one side answered nothing has no ratio). */
export function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function hitRate(caches: Array<CacheCounts | undefined>): number {
  const hits = caches.reduce((sum, cache) => sum + (cache?.hit ?? 0), 0);
  const misses = caches.reduce((sum, cache) => sum + (cache?.miss ?? 0), 0);
  return hits / (hits + misses);
}

function summariseBaseline(cycles: CycleMeasure[]): BaselineSummary | undefined {
  const measured = cycles.filter((cycle) => cycle.baseline);
  if (measured.length === 0) return undefined;
  const serviceOverBaseline = measured.map((cycle) => cycle.service.requestsPerSecond / cycle.baseline!.result.requestsPerSecond);
  return {
    rps: median(measured.map((cycle) => cycle.baseline!.result.requestsPerSecond)),
    ratio: median(measured.map((cycle) => cycle.baseline!.result.requestsPerSecond / cycle.floor.requestsPerSecond)),
    p99: median(measured.map((cycle) => cycle.baseline!.result.p99)),
    serviceOverBaseline,
    medianServiceOverBaseline: median(serviceOverBaseline),
    cacheHitRate: hitRate(measured.map((cycle) => cycle.baseline!.cache)),
    peakRssMb: Math.max(0, ...measured.map((cycle) => cycle.baseline!.rssMb)),
    errors: measured.reduce((sum, cycle) => sum + cycle.baseline!.result.errors + cycle.baseline!.result.non2xx, 0),
  };
}

export function summarise(name: string, title: string, cycles: CycleMeasure[]): ScenarioReport {
  const serviceP99 = median(cycles.map((cycle) => cycle.service.p99));
  const floorP99 = median(cycles.map((cycle) => cycle.floor.p99));
  const sum = (value: (cycle: CycleMeasure) => number) => cycles.reduce((total, cycle) => total + value(cycle), 0);
  return {
    name,
    title,
    cycles,
    median: {
      serviceRps: median(cycles.map((cycle) => cycle.service.requestsPerSecond)),
      floorRps: median(cycles.map((cycle) => cycle.floor.requestsPerSecond)),
      ratio: median(cycles.map((cycle) => cycle.ratio)),
      serviceP50: median(cycles.map((cycle) => cycle.service.p50)),
      serviceP99,
      serviceMax: Math.max(...cycles.map((cycle) => cycle.service.max)),
      floorP50: median(cycles.map((cycle) => cycle.floor.p50)),
      floorP99,
      p99Ratio: serviceP99 / floorP99,
      frameworkRps: median(cycles.map((cycle) => cycle.framework?.requestsPerSecond ?? NaN)),
      frameworkRatio: median(cycles.map((cycle) => cycle.frameworkRatio ?? NaN)),
      cacheHitRate: hitRate(cycles.map((cycle) => cycle.cache)),
      cacheStored: sum((cycle) => cycle.cache?.stored ?? 0),
      cacheBuilt: sum((cycle) => cycle.cache?.built ?? 0),
      servicePeakRssMb: Math.max(0, ...cycles.map((cycle) => cycle.serviceRssMb ?? 0)),
    },
    baseline: summariseBaseline(cycles),
    errors: {
      service: sum((cycle) => cycle.service.errors + cycle.service.non2xx),
      floor: sum((cycle) => cycle.floor.errors + cycle.floor.non2xx),
      framework: sum((cycle) => (cycle.framework ? cycle.framework.errors + cycle.framework.non2xx : 0)),
    },
  };
}

const round = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const percent = (ratio: number) => (Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)} %` : '–');

function saleSummary(cycles: CycleMeasure[]): string {
  const sales = cycles.map((cycle) => cycle.sale).filter((sale): sale is SaleResult => sale !== undefined);
  if (sales.length === 0) return '';
  const seconds = sales.reduce((sum, sale) => sum + sale.seconds, 0);
  const checkouts = sales.reduce((sum, sale) => sum + sale.checkouts, 0);
  const failures: Record<string, number> = {};
  for (const sale of sales) for (const [kind, count] of Object.entries(sale.failures)) failures[kind] = (failures[kind] ?? 0) + count;
  const skipped = sales.reduce((sum, sale) => sum + sale.skipped, 0);
  const failed = Object.entries(failures).map(([kind, count]) => `${count}× ${kind}`);
  return `${round(checkouts / seconds, 1)} checkouts/s${failed.length ? `, failed: ${failed.join(', ')}` : ''}${skipped ? `, ${skipped} not started (100 in flight)` : ''}`;
}

function saleTitle(sale: SaleComparison): string {
  const { buyers, units, maxUnits } = sale.settings;
  return `Sale: ${buyers} buyers, 1–${maxUnits} units a checkout, until ${units.toLocaleString('en')} are sold (checkouts/s; cycle ms)`;
}

/** The sale's row in the scenarios' table: checkouts/s where the others have req/s, a buyer's cycle (cart write + checkout) for latency. */
function saleRow(sale: SaleComparison): string {
  const { median: m, totals } = sale;
  return (
    `| ${saleTitle(sale)} | – | ${round(m.serviceCheckoutsPerSecond, 1)} | ${round(m.floorCheckoutsPerSecond, 1)} | ${sale.cycles.map((cycle) => round(cycle.ratio, 2)).join(' ')} | **${percent(m.ratio)}** | ` +
    `– | – | ${round(m.serviceCycleP50)} / ${round(m.serviceCycleP99)} / ${round(m.serviceCycleMax)} | ${round(m.floorCycleP50)} / ${round(m.floorCycleP99)} | ${round(m.p99Ratio, 2)} | – | ` +
    `${round(m.servicePeakRssMb)} | ${totals.service.errors}/${totals.floor.errors}/– |`
  );
}

/** The sale against its floor: the shares beside their targets, and what the database held after each run. */
export function saleMarkdown(sale: SaleComparison): string {
  const { median: m, totals, targets, met } = sale;
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const correctness = (side: 'service' | 'floor' | 'baseline') => {
    const t = totals[side];
    return `oversold ${t.oversold}, attendees or ordered units ≠ sold ${t.unitsMismatch}, duplicate orders ${t.duplicateOrders}, runs not sold out ${t.notSoldOut}`;
  };
  return [
    `${saleTitle(sale).replace(/ \(checkouts.*$/, '')}, service and sale floor (bench/floor/sale.ts: read the cart, one conditional UPDATE of the counter, ` +
      'the order, its line, an attendee per unit and one outbox row, COMMIT) interleaved, each run on a fresh ticket:',
    '',
    `- Checkouts/s: service ${round(m.serviceCheckoutsPerSecond, 1)} against the floor's ${round(m.floorCheckoutsPerSecond, 1)}: **${percent(m.ratio)}** ` +
      `(target ≥ ${percent(targets.share)}: ${verdict(met.share)}).`,
    `- Cycle (cart write + checkout) p99: service ${round(m.serviceCycleP99)} ms against the floor's ${round(m.floorCycleP99)} ms: **${round(m.p99Ratio, 2)}×** ` +
      `(target ≤ ${targets.p99Ratio}×: ${verdict(met.p99)}).`,
    `- Database after every run: service ${correctness('service')}; floor ${correctness('floor')}` +
      (sale.cycles.some((cycle) => cycle.baseline) ? `; baseline ${correctness('baseline')}` : '') +
      ` (${verdict(met.correct)}).`,
    '',
    '| cycle | service checkouts/s | floor checkouts/s | share | service cycle p50 / p99 ms | floor cycle p50 / p99 ms | service checkout p50 / p99 ms | floor checkout p50 / p99 ms | service answers | floor answers |',
    '|---:|---:|---:|---:|---|---|---|---|---|---|',
    ...sale.cycles.map((cycle) => {
      const answers = (statuses: Record<string, number>) =>
        Object.entries(statuses)
          .map(([kind, count]) => `${count}× ${kind}`)
          .join(', ');
      const { service: s, floor: f } = cycle;
      return (
        `| ${cycle.cycle} | ${round(s.checkoutsPerSecond, 1)} | ${round(f.checkoutsPerSecond, 1)} | ${round(cycle.ratio, 2)} | ${round(s.cycleP50)} / ${round(s.cycleP99)} | ` +
        `${round(f.cycleP50)} / ${round(f.cycleP99)} | ${round(s.checkoutP50)} / ${round(s.checkoutP99)} | ${round(f.checkoutP50)} / ${round(f.checkoutP99)} | ${answers(s.statuses)} | ${answers(f.statuses)} |`
      );
    }),
  ].join('\n');
}

/**
 * The A/B: the service against the baseline build measured in the same cycles (service, baseline,
 * floor, framework floor), so that the floors' drift between runs does not enter the comparison.
 */
function baselineMarkdown(report: BenchReport): string[] {
  const lines = [
    `A/B in the same cycles: the service (built from ${report.serviceBuild ?? '?'}) against the baseline (built from ${report.baselineBuild}), ` +
      'both on this database, each run after its own warm-up.',
    '',
    '| Scenario | service req/s | baseline req/s | service ÷ baseline per cycle | **median** | service ÷ floor | baseline ÷ floor | service / baseline p99 ms | document cache hits (service / baseline) | RSS MB (service / baseline) | baseline errors |',
    '|---|---:|---:|---|---:|---:|---:|---|---|---|---:|',
  ];
  for (const scenario of report.scenarios) {
    const { median: m, baseline: b } = scenario;
    if (!b) continue;
    lines.push(
      `| ${scenario.title} | ${round(m.serviceRps)} | ${round(b.rps)} | ${b.serviceOverBaseline.map((ratio) => round(ratio, 2)).join(' ')} | **${round(b.medianServiceOverBaseline, 2)}×** | ` +
        `${percent(m.ratio)} | ${percent(b.ratio)} | ${round(m.serviceP99)} / ${round(b.p99)} | ${percent(m.cacheHitRate)} / ${percent(b.cacheHitRate)} | ` +
        `${round(m.servicePeakRssMb)} / ${round(b.peakRssMb)} | ${b.errors} |`,
    );
  }
  const conditional = report.scenarios.find((scenario) => scenario.name === 'event-single-conditional')?.baseline;
  const full = report.scenarios.find((scenario) => scenario.name === 'event-single')?.baseline;
  if (conditional && full) lines.push('', `The baseline's 304 against its full GET: **${round(conditional.rps / full.rps, 2)}×**.`);
  const sale = report.sale?.median;
  if (sale?.baselineCheckoutsPerSecond !== undefined)
    lines.push(
      '',
      `The sale: service ${round(sale.serviceCheckoutsPerSecond, 1)} checkouts/s against the baseline's ${round(sale.baselineCheckoutsPerSecond, 1)} ` +
        `(**${round(sale.serviceOverBaseline ?? NaN, 2)}×**; the baseline ${percent(sale.baselineRatio ?? NaN)} of the floor), ` +
        `cycle p99 ${round(sale.serviceCycleP99)} against ${round(sale.baselineCycleP99 ?? NaN)} ms.`,
    );
  return lines;
}

export function markdown(report: BenchReport): string {
  const lines: string[] = [];
  const { settings } = report;
  lines.push(
    `Benchmark of ${report.date}${report.serviceBuild ? ` (service built from ${report.serviceBuild})` : ''}: ${settings.events.toLocaleString('en')} events on ${report.machine.database}, ${report.machine.cpus} cores, Node ${report.machine.node}; ` +
      `${settings.connections} connections, ${settings.cycles} cycles of ${settings.durationSeconds} s (after ${settings.warmupSeconds} s of warm-up), service, floor and framework floor interleaved; ` +
      `pool ${settings.poolSize}, LOG_LEVEL=${settings.logLevel}, InnoDB buffer pool ${settings.bufferPoolMb} MB; sale scenarios with ${settings.saleRate} checkouts/s` +
      (settings.documentCacheMb !== undefined
        ? `; EVENT_DOCUMENT_CACHE_MB=${settings.documentCacheMb}, every path of a scenario read once before its cycles.`
        : '.'),
    '',
    'Floor: the same bytes from an ordered read of the ids, a kept count and kept documents (single event: one primary-key read, then the kept document), raw `node:http`. ' +
      "Framework: the same work inside a bare Nest 11 + Express app. Document cache: hits ÷ lookups of the service's `cal_event_document_cache_total` over its measured runs " +
      "(misses read as stored / built from rows); RSS: the service's peak over its measured runs.",
    '',
    '| Scenario | paths | service req/s | floor req/s | ratio per cycle | median ratio | framework req/s | service ÷ framework | service p50 / p99 / max ms | floor p50 / p99 ms | p99 ratio | document cache hits (stored / built) | service RSS MB | errors (service/floor/framework) |',
    '|---|---:|---:|---:|---|---:|---:|---:|---|---|---:|---|---:|---:|',
  );
  for (const scenario of report.scenarios) {
    const { median: m } = scenario;
    lines.push(
      `| ${scenario.title} | ${report.workingSet?.[scenario.name]?.toLocaleString('en') ?? '–'} | ${round(m.serviceRps)} | ${round(m.floorRps)} | ${scenario.cycles.map((cycle) => round(cycle.ratio, 2)).join(' ')} | **${percent(m.ratio)}** | ` +
        `${round(m.frameworkRps)} | ${percent(m.frameworkRatio)} | ` +
        `${round(m.serviceP50)} / ${round(m.serviceP99)} / ${round(m.serviceMax)} | ${round(m.floorP50)} / ${round(m.floorP99)} | ${round(m.p99Ratio, 2)} | ` +
        `${percent(m.cacheHitRate)} (${m.cacheStored} / ${m.cacheBuilt}) | ${round(m.servicePeakRssMb)} | ${scenario.errors.service}/${scenario.errors.floor}/${scenario.errors.framework} |`,
    );
  }
  if (report.sale) lines.push(saleRow(report.sale));
  if (report.baselineBuild) lines.push('', ...baselineMarkdown(report));
  const sales: string[] = [];
  for (const pair of SALE_PAIRS) {
    const sale = report.scenarios.find((scenario) => scenario.name === pair.sale);
    const quiet = report.scenarios.find((scenario) => scenario.name === pair.quiet);
    if (!sale) continue;
    const ratio = quiet ? sale.median.serviceRps / quiet.median.serviceRps : NaN;
    sales.push(
      `- ${sale.title}: service ${round(sale.median.serviceRps)} req/s against ${quiet ? round(quiet.median.serviceRps) : '–'} without the sale: **${percent(ratio)}**` +
        ` (p99 ${round(sale.median.serviceP99)} ms against ${quiet ? round(quiet.median.serviceP99) : '–'} ms); the sale: ${saleSummary(sale.cycles)}.`,
    );
  }
  if (sales.length) lines.push('', 'During the sale against without it (the service alone):', '', ...sales);
  const conditional = report.scenarios.find((scenario) => scenario.name === 'event-single-conditional');
  const full = report.scenarios.find((scenario) => scenario.name === 'event-single');
  if (conditional && full)
    lines.push(
      '',
      `Conditional GET (304) against the full single-event GET, the service alone: ${round(conditional.median.serviceRps)} against ` +
        `${round(full.median.serviceRps)} req/s, **${round(conditional.median.serviceRps / full.median.serviceRps, 2)}×**.`,
    );
  if (report.sale) lines.push('', saleMarkdown(report.sale));
  if (report.flashSale) lines.push('', flashSaleMarkdown(report.flashSale));

  if (report.scaling.length) {
    const names = report.scaling[0].measures.map((measure) => measure.scenario);
    const first = report.scaling[0];
    lines.push(
      '',
      `Events lists by database size, one connection, ${settings.scalingDurationSeconds} s each: service p50 ms (× the first size) / floor p50 ms.`,
      '',
      `| events | ${names.join(' | ')} |`,
      `|---:|${names.map(() => '---').join('|')}|`,
    );
    for (const point of report.scaling) {
      const cells = names.map((name) => {
        const measure = point.measures.find((candidate) => candidate.scenario === name);
        const base = first.measures.find((candidate) => candidate.scenario === name);
        if (!measure || !base) return '–';
        return `${round(measure.service.p50, 1)} (${round(measure.service.p50 / base.service.p50, 2)}×) / ${round(measure.floor.p50, 1)}`;
      });
      lines.push(`| ${point.events.toLocaleString('en')} | ${cells.join(' | ')} |`);
    }
  }
  const lists = Object.entries(report.lists).map(([name, routes]) => {
    const pages = routes.reduce((total, route) => total + route.lastPage - route.firstPage + 1, 0);
    return routes.length === 1
      ? `${name}: \`${routes[0].query || '(none)'}\` pages ${routes[0].firstPage}–${routes[0].lastPage}`
      : `${name}: ${routes.length} values, ${pages} pages`;
  });
  if (lists.length) lines.push('', `Lists at ${settings.events.toLocaleString('en')} events: ${lists.join('; ')}.`);
  lines.push(
    '',
    `Peak RSS over the processes' lives: service ${round(report.peakRssMb.service)} MB` +
      (report.peakRssMb.baseline ? `, baseline ${round(report.peakRssMb.baseline)} MB` : '') +
      (report.peakRssMb.floor ? `, floor (with the framework floor in its process) ${round(report.peakRssMb.floor)} MB` : '') +
      (report.peakRssMb['sale-floor'] ? `, sale floor ${round(report.peakRssMb['sale-floor'])} MB` : '') +
      '.',
  );
  const seeds = Object.entries(report.seedSeconds).map(
    ([size, seconds]) => `${Number(size).toLocaleString('en')} events in ${round(seconds)} s`,
  );
  if (seeds.length) lines.push(`Seeding (topping up): ${seeds.join(', ')}.`);
  const floors = Object.entries(report.floorStartSeconds).map(
    ([size, seconds]) => `${round(seconds)} s at ${Number(size).toLocaleString('en')} events`,
  );
  if (floors.length) lines.push(`Floor start-up (its tables and documents): ${floors.join(', ')}.`);
  return lines.join('\n') + '\n';
}

export function writeReport(report: BenchReport, folder: string): { json: string; md: string } {
  mkdirSync(folder, { recursive: true });
  const stamp = report.date.replace(/[:]/g, '-').replace(/\..*$/, '');
  const json = join(folder, `${stamp}.json`);
  const md = join(folder, `${stamp}.md`);
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(md, markdown(report));
  return { json, md };
}
