import type { Queue } from './queue.entity';
import { startRate } from './queue-auto-rate';

/** One tick's admissions: when, and how many. */
export type RateSample = [epochMs: number, admitted: number];

/** How far back the ETA looks at admissions. */
export const ETA_WINDOW_MS = 60_000;
/** Samples kept on the queue row (one per tick that admitted someone). */
export const MAX_RATE_SAMPLES = 120;

export interface WaitEstimate {
  p50: number;
  p90: number;
}

/** A window shorter than this (the queue opened within it) says too little about the rate. */
const MIN_WINDOW_MS = 2_000;

/**
 * Admissions per second over each of the last few windows of ten seconds, oldest first. A window
 * with no sample counts as 0 only when later windows admitted (the queue was stuck); before the
 * first admission there is no measured rate. A window the queue was admitting for only part of
 * (it opened within it: `since`) is divided by that part, and left out when under two seconds.
 */
function windowRates(samples: readonly RateSample[], now: number, since: number | null): number[] {
  const windowMs = 10_000;
  const windows = ETA_WINDOW_MS / windowMs;
  const counts = new Array<number>(windows).fill(0);
  for (const [time, admitted] of samples) {
    const age = now - time;
    if (age < 0 || age >= ETA_WINDOW_MS) continue;
    counts[windows - 1 - Math.floor(age / windowMs)] += admitted;
  }
  const first = counts.findIndex((count) => count > 0);
  if (first === -1) return [];
  const rates: number[] = [];
  for (let index = first; index < windows; index += 1) {
    const end = now - (windows - 1 - index) * windowMs;
    const start = Math.max(end - windowMs, since ?? -Infinity);
    if (end - start < MIN_WINDOW_MS) continue;
    rates.push(counts[index] / ((end - start) / 1000));
  }
  return rates;
}

function quantile(sorted: readonly number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

/**
 * Seconds until `ahead` more entries are admitted, at the median (p50) and at a pessimistic (p90)
 * admission rate: the rates of the last minute's ten-second windows, the p90 wait taken at their
 * 10th percentile rate. Without a measured rate, the configured one (per minute) stands in for both
 * ends, the p90 at half of it; with neither (auto mode before any admission), null.
 */
export function estimateWait(
  ahead: number,
  samples: readonly RateSample[],
  now: Date,
  configuredPerMinute: number | null,
  admittingSince: Date | null = null,
): WaitEstimate | null {
  if (ahead <= 0) return { p50: 0, p90: 0 };
  const rates = windowRates(samples, now.getTime(), admittingSince?.getTime() ?? null)
    .filter((rate) => rate > 0)
    .sort((a, b) => a - b);
  if (rates.length === 0) {
    if (!configuredPerMinute) return null;
    const perSecond = configuredPerMinute / 60;
    return { p50: Math.ceil(ahead / perSecond), p90: Math.ceil(ahead / (perSecond / 2)) };
  }
  const median = quantile(rates, 0.5);
  const slow = quantile(rates, 0.1);
  return { p50: Math.ceil(ahead / median), p90: Math.ceil(ahead / slow) };
}

/** The samples with one more tick's admissions, older than the window (and past the limit) dropped. */
export function withSample(samples: readonly RateSample[], now: Date, admitted: number): RateSample[] {
  const since = now.getTime() - ETA_WINDOW_MS;
  const kept = samples.filter(([time]) => time >= since);
  if (admitted > 0) kept.push([now.getTime(), admitted]);
  return kept.slice(-MAX_RATE_SAMPLES);
}

/** The samples stored on the queue row; anything unreadable is none. */
export function parseSamples(text: string): RateSample[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (sample): sample is RateSample => Array.isArray(sample) && typeof sample[0] === 'number' && typeof sample[1] === 'number',
    );
  } catch {
    return [];
  }
}

/** Admissions per minute over the last minute of samples. */
export function admittedLastMinute(samples: readonly RateSample[], now: Date): number {
  const since = now.getTime() - ETA_WINDOW_MS;
  return samples.filter(([time]) => time >= since && time <= now.getTime()).reduce((sum, [, admitted]) => sum + admitted, 0);
}

/** The admission rate a queue runs at when nothing was measured: its own, or the `auto` rate (where it starts). */
export function configuredRate(queue: Pick<Queue, 'maxAdmitPerMinute' | 'autoRate' | 'maxActive'>): number {
  return queue.maxAdmitPerMinute ?? queue.autoRate ?? startRate(queue.maxActive);
}

/** When the entry at `position` is predicted to be admitted (the ETA's p50 from `now`), kept to measure the ETA's error. */
export function predictedAdmission(
  queue: Pick<Queue, 'maxAdmitPerMinute' | 'autoRate' | 'maxActive' | 'servingCounter' | 'rateSamples' | 'openedAt'>,
  position: number,
  now: Date,
): Date | null {
  const eta = estimateWait(position - queue.servingCounter, parseSamples(queue.rateSamples), now, configuredRate(queue), queue.openedAt);
  return eta ? new Date(now.getTime() + eta.p50 * 1000) : null;
}
