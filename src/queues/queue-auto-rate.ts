/**
 * The `auto` admission rate: a controller that follows the measured checkout rate and backs off when
 * the database pushes back. Each tick it moves the rate (admissions per minute) by this law:
 *
 * - a checkout answered 503 `database-busy` since the last tick (a transaction gave up on its
 *   locks): halve it;
 * - lock conflicts (deadlocks, lock wait timeouts run again) at more than `CONFLICTS_PER_CHECKOUT` of
 *   the checkouts, and more than `CONFLICT_FLOOR_PER_MINUTE`: take a fifth off;
 * - otherwise follow a ceiling of `HEADROOM` × the admissions that checked out per minute over the
 *   last minutes (never below the start rate): grow towards it by `GROWTH_PER_SECOND` a second (an
 *   admission a tick at least), or come down to it by `FOLLOW_DOWN` a tick.
 *
 * The headroom lets the rate find more capacity (admitted buyers that check out raise the ceiling,
 * slow start); the ceiling keeps it from running away from what checkout actually serves, and the
 * cuts react within a tick to contention, which `max_active` alone only bounds.
 */

export const MIN_AUTO_RATE = 6;
export const MAX_AUTO_RATE = 1_000_000;
export const HEADROOM = 1.5;
export const GROWTH_PER_SECOND = 0.05;
export const FOLLOW_DOWN = 0.9;
export const BUSY_CUT = 0.5;
export const CONFLICT_CUT = 0.8;
export const CONFLICTS_PER_CHECKOUT = 0.2;
export const CONFLICT_FLOOR_PER_MINUTE = 10;
/** How far back checkouts are counted for the measured rate. */
export const CHECKOUT_WINDOW_MS = 120_000;

export interface AutoRateSignals {
  /** The rate the last tick set (per minute); null before the first. */
  previousRate: number | null;
  /** Admissions that checked out, per minute, over CHECKOUT_WINDOW_MS. */
  checkoutsPerMinute: number;
  /** Lock conflicts run again since the last tick. */
  lockConflicts: number;
  /** Transactions that gave up on their locks (503 database-busy) since the last tick. */
  busyAnswers: number;
  /** Time since the last tick. */
  elapsedMs: number;
  maxActive: number;
}

/** Where `auto` starts before anything was measured: half of `max_active` a minute. */
export function startRate(maxActive: number): number {
  return clamp(Math.ceil(maxActive / 2));
}

function clamp(rate: number): number {
  return Math.min(MAX_AUTO_RATE, Math.max(MIN_AUTO_RATE, Math.round(rate)));
}

export function nextAutoRate(signals: AutoRateSignals): number {
  const start = startRate(signals.maxActive);
  if (signals.previousRate === null) return start;
  const previous = signals.previousRate;
  if (signals.busyAnswers > 0) return clamp(Math.floor(previous * BUSY_CUT));
  const elapsedMs = Math.max(signals.elapsedMs, 1);
  const conflictsPerMinute = (signals.lockConflicts * 60_000) / Math.max(elapsedMs, 1_000);
  if (conflictsPerMinute > Math.max(CONFLICT_FLOOR_PER_MINUTE, CONFLICTS_PER_CHECKOUT * signals.checkoutsPerMinute)) {
    return clamp(Math.floor(previous * CONFLICT_CUT));
  }
  const ceiling = Math.max(start, Math.ceil(signals.checkoutsPerMinute * HEADROOM));
  if (previous < ceiling) {
    const step = Math.max(1, Math.ceil((previous * GROWTH_PER_SECOND * Math.min(elapsedMs, 5_000)) / 1_000));
    return clamp(Math.min(ceiling, previous + step));
  }
  return clamp(Math.max(ceiling, Math.floor(previous * FOLLOW_DOWN)));
}
