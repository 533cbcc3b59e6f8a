import {
  BUSY_CUT,
  CONFLICT_CUT,
  FOLLOW_DOWN,
  HEADROOM,
  MAX_AUTO_RATE,
  MIN_AUTO_RATE,
  nextAutoRate,
  startRate,
  type AutoRateSignals,
} from './queue-auto-rate';

const calm: AutoRateSignals = {
  previousRate: 100,
  checkoutsPerMinute: 100,
  lockConflicts: 0,
  busyAnswers: 0,
  elapsedMs: 1_000,
  maxActive: 100,
};

describe('the auto admission rate', () => {
  it('starts at half of max_active a minute, never below the floor', () => {
    expect(nextAutoRate({ ...calm, previousRate: null })).toBe(50);
    expect(startRate(3)).toBe(MIN_AUTO_RATE);
  });

  it('grows towards HEADROOM × the measured checkout rate, a bounded step per tick', () => {
    const next = nextAutoRate(calm);
    expect(next).toBeGreaterThan(100);
    expect(next).toBeLessThanOrEqual(105);
    // Never past the ceiling.
    expect(nextAutoRate({ ...calm, previousRate: 149, elapsedMs: 5_000 })).toBe(100 * HEADROOM);
  });

  it('keeps growing over ticks while checkouts keep up (slow start), and stops at the ceiling', () => {
    let rate: number | null = null;
    for (let tick = 0; tick < 600; tick += 1) {
      rate = nextAutoRate({ ...calm, previousRate: rate, checkoutsPerMinute: (rate ?? 0) * 0.9 });
    }
    // 0.9 of the admitted check out: the ceiling 1.35 × rate keeps moving up.
    expect(rate).toBeGreaterThan(10_000);
    let capped: number | null = 50;
    for (let tick = 0; tick < 600; tick += 1) capped = nextAutoRate({ ...calm, previousRate: capped, checkoutsPerMinute: 200 });
    expect(capped).toBe(200 * HEADROOM);
  });

  it('comes down to the ceiling gradually when checkouts slow, never below the start rate', () => {
    expect(nextAutoRate({ ...calm, previousRate: 1000, checkoutsPerMinute: 100 })).toBe(1000 * FOLLOW_DOWN);
    expect(nextAutoRate({ ...calm, previousRate: 160, checkoutsPerMinute: 100 })).toBe(150);
    expect(nextAutoRate({ ...calm, previousRate: 60, checkoutsPerMinute: 0 })).toBe(54);
    expect(nextAutoRate({ ...calm, previousRate: 50, checkoutsPerMinute: 0 })).toBe(50);
  });

  it('halves on a 503 database-busy, whatever the checkouts say', () => {
    expect(nextAutoRate({ ...calm, previousRate: 400, busyAnswers: 1 })).toBe(400 * BUSY_CUT);
    expect(nextAutoRate({ ...calm, previousRate: 8, busyAnswers: 3 })).toBe(MIN_AUTO_RATE);
  });

  it('takes a fifth off when lock conflicts pass both the floor and their share of checkouts', () => {
    // 1 conflict a second: 60 a minute, over 0.2 × 100 checkouts.
    expect(nextAutoRate({ ...calm, previousRate: 400, lockConflicts: 1 })).toBe(400 * CONFLICT_CUT);
    // A few conflicts among many checkouts are the normal price of a sale.
    expect(nextAutoRate({ ...calm, previousRate: 100, checkoutsPerMinute: 1000, lockConflicts: 1 })).toBeGreaterThan(100);
    // Under the floor: no cut.
    expect(nextAutoRate({ ...calm, previousRate: 100, lockConflicts: 1, elapsedMs: 10_000 })).toBeGreaterThan(100);
  });

  it('recovers after a cut (additive increase, multiplicative decrease)', () => {
    let rate = nextAutoRate({ ...calm, previousRate: 400, busyAnswers: 1 });
    for (let tick = 0; tick < 30; tick += 1) rate = nextAutoRate({ ...calm, previousRate: rate, checkoutsPerMinute: 300 });
    expect(rate).toBeGreaterThan(200);
    expect(rate).toBeLessThanOrEqual(450);
  });

  it('stays within its bounds', () => {
    expect(nextAutoRate({ ...calm, previousRate: MAX_AUTO_RATE, checkoutsPerMinute: MAX_AUTO_RATE * 10 })).toBe(MAX_AUTO_RATE);
  });
});
