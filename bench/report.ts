import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SteadyResult } from './load';

export interface CycleMeasure {
  cycle: number;
  service: SteadyResult;
  baseline: SteadyResult;
  /** service req/s ÷ baseline req/s. */
  ratio: number;
}

export interface ScenarioReport {
  name: string;
  title: string;
  cycles: CycleMeasure[];
  median: { serviceRps: number; baselineRps: number; ratio: number; serviceP50: number; serviceP99: number; serviceMax: number; baselineP99: number };
  errors: { service: number; baseline: number };
}

export interface CheckoutRound {
  cycle: number;
  target: 'service' | 'baseline';
  elapsedMs: number;
  created: number;
  soldOut: number;
  other: number;
  sold: number;
  attendees: number;
  oversold: number;
}

export interface ScalingPoint {
  events: number;
  service: SteadyResult;
  baseline: SteadyResult;
}

export interface BenchReport {
  date: string;
  machine: { cpus: number; node: string; database: string };
  settings: { bufferPoolMb: number; events: number; connections: number; durationSeconds: number; warmupSeconds: number; cycles: number; poolSize: number; logLevel: string };
  seedSeconds: Record<string, number>;
  scenarios: ScenarioReport[];
  checkout: { rounds: CheckoutRound[]; medianMs: { service: number; baseline: number }; oversold: number };
  scaling: ScalingPoint[];
  peakRssMb: { service: number; baseline: number };
}

/** The median of the finite values (a cycle where one side answered nothing has no ratio). */
export function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function summarise(name: string, title: string, cycles: CycleMeasure[]): ScenarioReport {
  return {
    name,
    title,
    cycles,
    median: {
      serviceRps: median(cycles.map((cycle) => cycle.service.requestsPerSecond)),
      baselineRps: median(cycles.map((cycle) => cycle.baseline.requestsPerSecond)),
      ratio: median(cycles.map((cycle) => cycle.ratio)),
      serviceP50: median(cycles.map((cycle) => cycle.service.p50)),
      serviceP99: median(cycles.map((cycle) => cycle.service.p99)),
      serviceMax: Math.max(...cycles.map((cycle) => cycle.service.max)),
      baselineP99: median(cycles.map((cycle) => cycle.baseline.p99)),
    },
    errors: {
      service: cycles.reduce((sum, cycle) => sum + cycle.service.errors + cycle.service.non2xx, 0),
      baseline: cycles.reduce((sum, cycle) => sum + cycle.baseline.errors + cycle.baseline.non2xx, 0),
    },
  };
}

const round = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const percent = (ratio: number) => (Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)} %` : '–');

export function markdown(report: BenchReport): string {
  const lines: string[] = [];
  const { settings } = report;
  lines.push(
    `Benchmark of ${report.date}: ${settings.events.toLocaleString('en')} events on ${report.machine.database}, ${report.machine.cpus} cores, Node ${report.machine.node}; ` +
      `${settings.connections} connections, ${settings.cycles} cycles of ${settings.durationSeconds} s (after ${settings.warmupSeconds} s of warm-up), service and baseline interleaved; pool ${settings.poolSize}, LOG_LEVEL=${settings.logLevel}, InnoDB buffer pool ${settings.bufferPoolMb} MB.`,
    '',
    '| Scenario | service req/s | baseline req/s | ratio per cycle | median ratio | service p50 / p99 / max ms | baseline p99 ms | errors (service/baseline) |',
    '|---|---:|---:|---|---:|---|---:|---:|',
  );
  for (const scenario of report.scenarios) {
    const { median: m } = scenario;
    lines.push(
      `| ${scenario.title} | ${round(m.serviceRps)} | ${round(m.baselineRps)} | ${scenario.cycles.map((cycle) => round(cycle.ratio, 2)).join(' ')} | **${percent(m.ratio)}** | ` +
        `${round(m.serviceP50)} / ${round(m.serviceP99)} / ${round(m.serviceMax)} | ${round(m.baselineP99)} | ${scenario.errors.service}/${scenario.errors.baseline} |`,
    );
  }
  if (report.checkout.rounds.length) {
    const rounds = report.checkout.rounds;
    const summary = (target: 'service' | 'baseline') =>
      rounds
        .filter((entry) => entry.target === target)
        .map((entry) => `${round(entry.elapsedMs)} ms (${entry.created}×201, ${entry.soldOut}×409${entry.other ? `, ${entry.other} other` : ''})`)
        .join('; ');
    lines.push(
      '',
      `Checkout of 200 concurrent buyers on a capacity of 50 (every buyer's cart filled first; the time from the first checkout sent to the last answer): ` +
        `median **${round(report.checkout.medianMs.service)} ms** for the service, ${round(report.checkout.medianMs.baseline)} ms for the baseline; oversold: **${report.checkout.oversold}**.`,
      `- service: ${summary('service')}`,
      `- baseline: ${summary('baseline')}`,
    );
  }
  if (report.scaling.length) {
    const first = report.scaling[0];
    lines.push(
      '',
      'Events list (default window), one connection, by database size:',
      '',
      '| events | service p50 / p99 ms | × first size (p50) | baseline p50 / p99 ms | service req/s |',
      '|---:|---|---:|---|---:|',
    );
    for (const point of report.scaling) {
      lines.push(
        `| ${point.events.toLocaleString('en')} | ${round(point.service.p50, 1)} / ${round(point.service.p99, 1)} | ${round(point.service.p50 / first.service.p50, 2)} | ` +
          `${round(point.baseline.p50, 1)} / ${round(point.baseline.p99, 1)} | ${round(point.service.requestsPerSecond)} |`,
      );
    }
  }
  lines.push('', `Peak RSS: service ${round(report.peakRssMb.service)} MB, baseline ${round(report.peakRssMb.baseline)} MB.`);
  const seeds = Object.entries(report.seedSeconds).map(([size, seconds]) => `${Number(size).toLocaleString('en')} events in ${round(seconds)} s`);
  if (seeds.length) lines.push(`Seeding (topping up): ${seeds.join(', ')}.`);
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
