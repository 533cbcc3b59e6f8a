import type { Queue } from './queue.entity';
import { startRate } from './queue-auto-rate';

/**
 * One tick's admissions: when, how many, and how many admitted turns were active after them (absent
 * from samples written before the count was kept).
 */
export type RateSample = [epochMs: number, admitted: number, active?: number];

/** How far back the ETA looks at admissions. */
export const ETA_WINDOW_MS = 60_000;
/** Samples kept on the queue row (one per tick that admitted someone). */
export const MAX_RATE_SAMPLES = 120;
/** The length of the windows whose rates the ETA takes the quantiles of. */
const RATE_WINDOW_MS = 10_000;
/** Measured admissions stand in for the configured rate in full only once they cover this long. */
export const SUSTAINED_MS = 10_000;

export interface WaitEstimate {
  p50: number;
  p90: number;
}

/** A window shorter than this (the queue opened within it) says too little about the rate. */
const MIN_WINDOW_MS = 2_000;

/**
 * Admissions per second over each of the last few windows of ten seconds, oldest first. A window
 * with no sample counts as 0 only when later windows admitted (the queue was stuck); before the
 * first admission there is no measured rate. A window the measure began within (the queue opened,
 * or its fill ended: `since`) is divided by the part after it, and left out when under two seconds.
 */
function windowRates(samples: readonly RateSample[], now: number, since: number | null): number[] {
  const windows = ETA_WINDOW_MS / RATE_WINDOW_MS;
  const counts = new Array<number>(windows).fill(0);
  for (const [time, admitted] of samples) {
    const age = now - time;
    if (age < 0 || age >= ETA_WINDOW_MS) continue;
    counts[windows - 1 - Math.floor(age / RATE_WINDOW_MS)] += admitted;
  }
  const first = counts.findIndex((count) => count > 0);
  if (first === -1) return [];
  const rates: number[] = [];
  for (let index = first; index < windows; index += 1) {
    const end = now - (windows - 1 - index) * RATE_WINDOW_MS;
    const start = Math.max(end - RATE_WINDOW_MS, since ?? -Infinity);
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
 * The admissions that measure what the queue can sustain. Once a tick filled every free slot
 * (`active` reached `maxActive`), admissions follow the turns that end (orders placed, turns
 * lapsed), and those before it only filled slots that were free at the opening (or after a pause):
 * not throughput. From the first tick within the window that left no slot free on, only what came
 * after counts; `since` is when the measure begins. A queue that never
 * filled its slots admits at its rate, which every sample measures.
 */
function sustainedSamples(
  samples: readonly RateSample[],
  now: number,
  maxActive: number | null,
): { samples: readonly RateSample[]; since: number | null } {
  if (maxActive === null) return { samples, since: null };
  const recent = samples.filter(([time]) => now - time < ETA_WINDOW_MS && time <= now);
  // The first tick that left no slot free; later ones that fill what ended turns freed are throughput.
  const filled = recent.findIndex(([, , active]) => active !== undefined && active >= maxActive);
  if (filled === -1) return { samples, since: null };
  return { samples: recent.slice(filled + 1), since: recent[filled][0] };
}

/**
 * Seconds until `ahead` more entries are admitted, at the median (p50) and at a pessimistic (p90)
 * admission rate. The rates are those of the last minute's ten-second windows of sustained
 * admissions (`sustainedSamples`: the fill of free slots is no rate), the p90 wait taken at their
 * 10th percentile. Until they cover SUSTAINED_MS, they are blended with the configured rate (per
 * minute; auto: where it is) in proportion to the time they cover. With nothing measured the
 * configured rate stands in, the p90 at half of it; with neither, null.
 */
export function estimateWait(
  ahead: number,
  samples: readonly RateSample[],
  now: Date,
  configuredPerMinute: number | null,
  admittingSince: Date | null = null,
  maxActive: number | null = null,
): WaitEstimate | null {
  if (ahead <= 0) return { p50: 0, p90: 0 };
  const at = now.getTime();
  const sustained = sustainedSamples(samples, at, maxActive);
  const opened = admittingSince?.getTime() ?? null;
  const since = sustained.since === null ? opened : Math.max(sustained.since, opened ?? -Infinity);
  const rates = windowRates(sustained.samples, at, since)
    .filter((rate) => rate > 0)
    .sort((a, b) => a - b);
  const configured = configuredPerMinute ? configuredPerMinute / 60 : null;
  let median: number;
  let slow: number;
  if (rates.length > 0) {
    median = quantile(rates, 0.5);
    slow = quantile(rates, 0.1);
  } else if (sustained.since !== null) {
    // The slots filled and no turn ended since: at most one admission in that time.
    median = slow = 1 / Math.max(1, (at - sustained.since) / 1000);
  } else {
    if (configured === null) return null;
    return { p50: Math.ceil(ahead / configured), p90: Math.ceil(ahead / (configured / 2)) };
  }
  // How long the measure covers: since the fill or the opening, else since the first tick it holds.
  const firstTick = sustained.samples.find(([time]) => at - time < ETA_WINDOW_MS && time <= at)?.[0];
  const start = since ?? (firstTick === undefined ? at : firstTick - 1_000);
  const covered = Math.max(0, at - start);
  if (configured !== null && covered < SUSTAINED_MS) {
    const weight = covered / SUSTAINED_MS;
    median = weight * median + (1 - weight) * configured;
    slow = weight * slow + (1 - weight) * (configured / 2);
  }
  return { p50: Math.ceil(ahead / median), p90: Math.ceil(ahead / slow) };
}

/**
 * The samples with one more tick's admissions (and the turns active after them), older than the
 * window (and past the limit) dropped.
 */
export function withSample(samples: readonly RateSample[], now: Date, admitted: number, active?: number): RateSample[] {
  const since = now.getTime() - ETA_WINDOW_MS;
  const kept = samples.filter(([time]) => time >= since);
  if (admitted > 0) kept.push(active === undefined ? [now.getTime(), admitted] : [now.getTime(), admitted, active]);
  return kept.slice(-MAX_RATE_SAMPLES);
}

/** The samples stored on the queue row; anything unreadable is none. */
export function parseSamples(text: string): RateSample[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (sample): sample is RateSample =>
        Array.isArray(sample) &&
        typeof sample[0] === 'number' &&
        typeof sample[1] === 'number' &&
        (sample[2] === undefined || typeof sample[2] === 'number'),
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
  const eta = queueWait(queue, position - queue.servingCounter, now);
  return eta ? new Date(now.getTime() + eta.p50 * 1000) : null;
}

/** The wait of an entry `ahead` places from the counter (itself included), from what the queue row keeps. */
export function queueWait(
  queue: Pick<Queue, 'maxAdmitPerMinute' | 'autoRate' | 'maxActive' | 'rateSamples' | 'openedAt'>,
  ahead: number,
  now: Date,
): WaitEstimate | null {
  return estimateWait(ahead, parseSamples(queue.rateSamples), now, configuredRate(queue), queue.openedAt, queue.maxActive);
}
