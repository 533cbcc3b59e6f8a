import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SaleTicket } from './database';
import type { FlashJob, FlashResult } from './flash-buyers';
import { runLoad, sampleRss, Target } from './processes';

export interface SaleResult {
  seconds: number;
  /** Checkouts answered 201. */
  checkouts: number;
  /** Status of every cart write and checkout that did not succeed, counted ('error' when no answer came). */
  failures: Record<string, number>;
  /** Checkouts not started because too many were still in flight. */
  skipped: number;
}

const IN_FLIGHT_LIMIT = 100;

/**
 * A steady sale against the service, from the runner's own process: `rate` times a second an
 * anonymous buyer fills a cart with one unit of one of `tickets` (in turn) and checks it out.
 * It runs while a sale scenario is measured, on both targets, so the database and the CPUs carry
 * the same writes whichever one is measured.
 */
export class SteadySale {
  private timer?: NodeJS.Timeout;
  private started = 0;
  private sent = 0;
  private inFlight = new Set<Promise<void>>();
  private result: SaleResult = { seconds: 0, checkouts: 0, failures: {}, skipped: 0 };

  constructor(
    private readonly serviceUrl: string,
    private readonly tickets: SaleTicket[],
    private readonly rate = 20,
  ) {}

  start(): void {
    this.result = { seconds: 0, checkouts: 0, failures: {}, skipped: 0 };
    this.started = performance.now();
    this.timer = setInterval(() => this.tick(), 1000 / this.rate);
  }

  async stop(): Promise<SaleResult> {
    clearInterval(this.timer);
    await Promise.all(this.inFlight);
    return { ...this.result, seconds: (performance.now() - this.started) / 1000 };
  }

  private tick(): void {
    if (this.inFlight.size >= IN_FLIGHT_LIMIT) {
      this.result.skipped += 1;
      return;
    }
    const ticket = this.tickets[this.sent % this.tickets.length];
    const buyer = this.sent++;
    const checkout = this.buy(ticket, buyer).catch(() => this.fail('error'));
    this.inFlight.add(checkout);
    void checkout.finally(() => this.inFlight.delete(checkout));
  }

  private async buy(ticket: SaleTicket, buyer: number): Promise<void> {
    const cart = await fetch(`${this.serviceUrl}/cal/tickets/v1/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: ticket.provider, tickets: [{ ticket_id: ticket.id, quantity: 1 }] }),
    });
    await cart.arrayBuffer();
    const token = cart.headers.get('x-cart-token');
    if (cart.status !== 200 || !token) return this.fail(`cart ${cart.status}`);
    const order = await fetch(`${this.serviceUrl}/cal/tickets/v1/cart/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-cart-token': token },
      body: JSON.stringify({ provider: ticket.provider, purchaser: { name: `Sale buyer ${buyer}`, email: `sale${buyer}@example.com` } }),
    });
    await order.arrayBuffer();
    if (order.status === 201) this.result.checkouts += 1;
    else this.fail(`checkout ${order.status}`);
  }

  private fail(kind: string): void {
    this.result.failures[kind] = (this.result.failures[kind] ?? 0) + 1;
  }
}

/** The sale measured against the sale floor: buyers looping "fill a cart with 1–maxUnits units, check out" until `units` are sold. */
export interface SaleSettings {
  buyers: number;
  units: number;
  maxUnits: number;
  /** A run stops by itself after this long, sold out or not. */
  deadlineSeconds: number;
}

export const DEFAULT_SALE: SaleSettings = { buyers: 300, units: 6000, maxUnits: 2, deadlineSeconds: 900 };

/** Share of the floor's checkouts/s the service must reach, and the most its cycle p99 may be of the floor's. */
export const SALE_TARGETS = { share: 0.6, p99Ratio: 2 };

/** One target selling one fresh ticket out. */
export interface SaleRun {
  ticketId: number;
  /** Checkouts answered 201, and their units. */
  checkouts: number;
  units: number;
  /** From the first request to the last sale. */
  seconds: number;
  checkoutsPerSecond: number;
  /** Cart write + checkout of the cycles that sold, ms. */
  cycleP50: number;
  cycleP99: number;
  cycleMax: number;
  /** The checkout request alone, ms. */
  checkoutP50: number;
  checkoutP99: number;
  /** `cart 409`, `checkout 201`, `checkout 409`, `checkout 503`, `error`… counted. */
  statuses: Record<string, number>;
  /** Answers that are neither a sale, a cart written nor a "sold out" (409). */
  errors: number;
  /** Order ids answered 201 more than once. */
  duplicateOrders: number;
  timedOut: boolean;
  /** What the database holds for the ticket afterwards. */
  sold: number;
  pending: number;
  attendees: number;
  orders: number;
  orderedUnits: number;
  soldOut: boolean;
  /** Units taken beyond the capacity. */
  oversold: number;
  /** Attendees and ordered units that differ from the units sold (each difference counted). */
  unitsMismatch: number;
  /** The target's peak RSS through the run (the service's), MB. */
  rssMb?: number;
}

export interface SaleCycle {
  cycle: number;
  service: SaleRun;
  floor: SaleRun;
  /** Service checkouts/s ÷ floor checkouts/s. */
  ratio: number;
  /** The baseline build's run in the same cycle (run.ts --baseline). */
  baseline?: SaleRun;
}

export interface SaleComparison {
  settings: SaleSettings;
  cycles: SaleCycle[];
  median: {
    serviceCheckoutsPerSecond: number;
    floorCheckoutsPerSecond: number;
    ratio: number;
    serviceCycleP50: number;
    serviceCycleP99: number;
    serviceCycleMax: number;
    floorCycleP50: number;
    floorCycleP99: number;
    /** Median service cycle p99 ÷ median floor cycle p99. */
    p99Ratio: number;
    servicePeakRssMb: number;
    /** With a baseline build: its checkouts/s, its share of the floor's, service ÷ baseline per cycle (median), its cycle p99. */
    baselineCheckoutsPerSecond?: number;
    baselineRatio?: number;
    serviceOverBaseline?: number;
    baselineCycleP99?: number;
  };
  /** Summed over every run of each target (the baseline's with a baseline build). */
  totals: Record<
    'service' | 'floor' | 'baseline',
    { errors: number; oversold: number; unitsMismatch: number; duplicateOrders: number; notSoldOut: number }
  >;
  targets: typeof SALE_TARGETS;
  met: { share: boolean; p99: boolean; correct: boolean };
}

/** What a run needs of the benchmark's database. */
export interface SaleDatabase {
  createContendedTicket(capacity: number, label: string, priceMinor?: number): Promise<{ id: number; provider: string }>;
  ticketOutcome(ticketId: number): Promise<{ sold: number; pending: number; attendees: number; orders: number; orderedUnits: number }>;
}

const SALE_ANSWERS = new Set(['checkout 201', 'checkout 409', 'cart 409']);

function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The sale, service against sale floor (bench/floor/sale.ts), interleaved per cycle as the read
 * scenarios are (service, floor, service, floor…): each run sells a fresh free ticket of
 * `settings.units` (restocked: every run has its own ticket, so its counts are its own), after an
 * unmeasured warm-up sale on each target. The service is expected to run without its outbox worker
 * (see run.ts): both write their notifications to the outbox and neither delivers them while measured.
 */
export async function runSaleComparison(
  targets: { service: Target; floor: Target; baseline?: Target },
  database: SaleDatabase,
  settings: SaleSettings,
  options: { cycles: number; warmup: boolean; jobFolder: string; log: (message: string) => void },
): Promise<SaleComparison> {
  const { log } = options;
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 17);
  let runs = 0;

  const sellOut = async (target: Target, capacity: number, label: string): Promise<SaleRun> => {
    const ticket = await database.createContendedTicket(capacity, `sale-${stamp}-${label}`, 0);
    const job: FlashJob = {
      kind: 'flash',
      urls: [target.url],
      ticket,
      buyers: settings.buyers,
      maxUnits: settings.maxUnits,
      deadlineSeconds: settings.deadlineSeconds,
    };
    const jobFile = join(options.jobFolder, `sale-${stamp}-${runs++}.json`);
    writeFileSync(jobFile, JSON.stringify(job));
    const rss = target.name === 'service' || target.name === 'baseline' ? sampleRss(target.process.pid) : undefined;
    const result = await runLoad<FlashResult>(jobFile);
    const rssMb = rss?.stop();
    const outcome = await database.ticketOutcome(ticket.id);
    const errors = Object.entries(result.statuses)
      .filter(([kind]) => !SALE_ANSWERS.has(kind))
      .reduce((sum, [, count]) => sum + count, 0);
    const seconds = result.sellingMs / 1000;
    return {
      ticketId: ticket.id,
      checkouts: result.checkouts,
      units: result.units,
      seconds,
      checkoutsPerSecond: result.checkouts / seconds,
      cycleP50: result.cycleP50,
      cycleP99: result.cycleP99,
      cycleMax: result.cycleMax,
      checkoutP50: result.p50,
      checkoutP99: result.p99,
      statuses: result.statuses,
      errors,
      duplicateOrders: result.duplicateOrders,
      timedOut: result.timedOut,
      ...outcome,
      soldOut: outcome.sold === capacity,
      oversold: Math.max(0, outcome.sold + outcome.pending - capacity),
      unitsMismatch: Math.abs(outcome.attendees - outcome.sold) + Math.abs(outcome.orderedUnits - outcome.sold),
      ...(rssMb === undefined ? {} : { rssMb }),
    };
  };

  if (options.warmup) {
    const warmupUnits = Math.min(settings.units, settings.buyers * settings.maxUnits);
    log(`sale: warm-up, ${settings.buyers} buyers on ${warmupUnits} units on each target`);
    await sellOut(targets.service, warmupUnits, 'warmup-service');
    await sellOut(targets.floor, warmupUnits, 'warmup-floor');
    if (targets.baseline) await sellOut(targets.baseline, warmupUnits, 'warmup-baseline');
  }

  const cycles: SaleCycle[] = [];
  const describe = (run: SaleRun) =>
    `${run.checkoutsPerSecond.toFixed(1)} checkouts/s (${run.units} units in ${run.seconds.toFixed(1)} s), cycle p50 ${run.cycleP50.toFixed(0)} ms p99 ${run.cycleP99.toFixed(0)} ms, ` +
    `sold ${run.sold}/${settings.units}, oversold ${run.oversold}, attendees ${run.attendees}, duplicates ${run.duplicateOrders}, ${JSON.stringify(run.statuses)}` +
    (run.rssMb ? `, RSS ${run.rssMb.toFixed(0)} MB` : '');
  for (let cycle = 1; cycle <= options.cycles; cycle += 1) {
    // A baseline build takes turns with the service at going first, as in the read scenarios.
    const sellBaseline = async () => {
      if (!targets.baseline) return undefined;
      const run = await sellOut(targets.baseline, settings.units, `baseline-${cycle}`);
      log(`sale cycle ${cycle}: baseline ${describe(run)}`);
      return run;
    };
    const baselineFirst = cycle % 2 === 0 ? await sellBaseline() : undefined;
    const service = await sellOut(targets.service, settings.units, `service-${cycle}`);
    log(`sale cycle ${cycle}: service ${describe(service)}`);
    const floor = await sellOut(targets.floor, settings.units, `floor-${cycle}`);
    log(`sale cycle ${cycle}: floor ${describe(floor)}`);
    const baseline = baselineFirst ?? (await sellBaseline());
    const ratio = service.checkoutsPerSecond / floor.checkoutsPerSecond;
    log(
      `sale cycle ${cycle}: share ${ratio.toFixed(2)}${baseline ? `, service ÷ baseline ${(service.checkoutsPerSecond / baseline.checkoutsPerSecond).toFixed(2)}` : ''}`,
    );
    cycles.push({ cycle, service, floor, ratio, ...(baseline ? { baseline } : {}) });
  }
  return summariseSale(settings, cycles);
}

export function summariseSale(settings: SaleSettings, cycles: SaleCycle[]): SaleComparison {
  const total = (side: 'service' | 'floor' | 'baseline') => {
    const runs = cycles.map((cycle) => cycle[side]).filter((run): run is SaleRun => run !== undefined);
    const sum = (value: (run: SaleRun) => number) => runs.reduce((result, run) => result + value(run), 0);
    return {
      errors: sum((run) => run.errors),
      oversold: sum((run) => run.oversold),
      unitsMismatch: sum((run) => run.unitsMismatch),
      duplicateOrders: sum((run) => run.duplicateOrders),
      notSoldOut: sum((run) => (run.soldOut ? 0 : 1)),
    };
  };
  const serviceCycleP99 = median(cycles.map((cycle) => cycle.service.cycleP99));
  const floorCycleP99 = median(cycles.map((cycle) => cycle.floor.cycleP99));
  const ratio = median(cycles.map((cycle) => cycle.ratio));
  const p99Ratio = serviceCycleP99 / floorCycleP99;
  const totals = { service: total('service'), floor: total('floor'), baseline: total('baseline') };
  const correct = (side: 'service' | 'floor' | 'baseline') =>
    totals[side].oversold === 0 && totals[side].unitsMismatch === 0 && totals[side].duplicateOrders === 0 && totals[side].notSoldOut === 0;
  return {
    settings,
    cycles,
    median: {
      serviceCheckoutsPerSecond: median(cycles.map((cycle) => cycle.service.checkoutsPerSecond)),
      floorCheckoutsPerSecond: median(cycles.map((cycle) => cycle.floor.checkoutsPerSecond)),
      ratio,
      serviceCycleP50: median(cycles.map((cycle) => cycle.service.cycleP50)),
      serviceCycleP99,
      serviceCycleMax: Math.max(0, ...cycles.map((cycle) => cycle.service.cycleMax)),
      floorCycleP50: median(cycles.map((cycle) => cycle.floor.cycleP50)),
      floorCycleP99,
      p99Ratio,
      servicePeakRssMb: Math.max(0, ...cycles.map((cycle) => cycle.service.rssMb ?? 0)),
      ...baselineMedians(cycles),
    },
    totals,
    targets: SALE_TARGETS,
    met: {
      share: ratio >= SALE_TARGETS.share,
      p99: p99Ratio <= SALE_TARGETS.p99Ratio,
      correct: correct('service') && correct('floor') && correct('baseline'),
    },
  };
}

function baselineMedians(cycles: SaleCycle[]): Partial<SaleComparison['median']> {
  const measured = cycles.filter((cycle) => cycle.baseline);
  if (measured.length === 0) return {};
  return {
    baselineCheckoutsPerSecond: median(measured.map((cycle) => cycle.baseline!.checkoutsPerSecond)),
    baselineRatio: median(measured.map((cycle) => cycle.baseline!.checkoutsPerSecond / cycle.floor.checkoutsPerSecond)),
    serviceOverBaseline: median(measured.map((cycle) => cycle.service.checkoutsPerSecond / cycle.baseline!.checkoutsPerSecond)),
    baselineCycleP99: median(measured.map((cycle) => cycle.baseline!.cycleP99)),
  };
}
