import { ConflictLost } from '../common/database/transactions';

/** What the serving counter's advance reads. */
export interface CounterState {
  servingCounter: number;
  /** The last position given: the counter never passes it. */
  lastPosition: number;
  /** Up to when earlier admissions were counted; null before the first tick. */
  counterAt: Date | null;
  /** Admissions per minute; null: auto (fill whatever room `maxActive` leaves). */
  ratePerMinute: number | null;
  maxActive: number;
  /** Admitted entries whose turn is not over. */
  active: number;
  now: Date;
}

export interface CounterAdvance {
  servingCounter: number;
  counterAt: Date;
  admitted: number;
}

/** A paused or idle queue earns no burst: at most this much time counts towards one advance. */
const MAX_CREDIT_MS = 5_000;

/**
 * The serving counter's next value: `min(rate × Δt, max_active − active)` positions more, never past
 * the last position. Only whole admissions are made; the time their fraction stands for stays on
 * the clock (`counterAt` moves by the time the admissions made used), unless room or entries ran
 * out, when the clock catches up with now so that no credit piles up.
 */
export function advanceCounter(state: CounterState): CounterAdvance {
  const { now } = state;
  const room = Math.max(0, state.maxActive - state.active);
  const waiting = Math.max(0, state.lastPosition - state.servingCounter);
  if (state.counterAt === null) return { servingCounter: state.servingCounter, counterAt: now, admitted: 0 };
  const elapsed = Math.min(Math.max(0, now.getTime() - state.counterAt.getTime()), MAX_CREDIT_MS);
  const start = new Date(now.getTime() - elapsed);
  if (state.ratePerMinute === null) {
    const admitted = Math.min(room, waiting);
    return { servingCounter: state.servingCounter + admitted, counterAt: now, admitted };
  }
  const earned = Math.floor((state.ratePerMinute * elapsed) / 60_000);
  const admitted = Math.min(earned, room, waiting);
  if (admitted < earned || state.ratePerMinute === 0) return { servingCounter: state.servingCounter + admitted, counterAt: now, admitted };
  const used = Math.floor((admitted * 60_000) / state.ratePerMinute);
  return { servingCounter: state.servingCounter + admitted, counterAt: new Date(start.getTime() + used), admitted };
}

/**
 * The ticker's transactions give way at a lock conflict (`giveWay`): several instances tick at once,
 * and on Galera the round that certifies second fails its commit with a deadlock (1213). A round that
 * lost wrote nothing and admits nobody; the winner moved the row, and the time this round did not use
 * stays on the clock (`counterAt`) for the next. Not run again, not logged, and not counted as
 * contention, which the `auto` rate reads as the checkouts' (queue-auto-rate.ts). Other errors pass.
 */
export function lostRound<T>(nothing: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof ConflictLost) return nothing;
    throw error;
  };
}
