import { estimateWait, parseSamples, RateSample, withSample } from './queue-eta';

const NOW = new Date('2026-06-01T10:01:00Z');
const ago = (seconds: number) => NOW.getTime() - seconds * 1000;

/** One sample a second for the last `seconds`, `perSecond` each. */
function steady(perSecond: number, seconds = 60): RateSample[] {
  return Array.from({ length: seconds }, (_, index) => [ago(seconds - index - 0.5), perSecond] as RateSample);
}

describe('estimateWait', () => {
  it('is zero for the entry at the head', () => {
    expect(estimateWait(0, steady(5), NOW, 300)).toEqual({ p50: 0, p90: 0 });
  });

  it('divides the entries ahead by a steady rate: 100 ahead at 5 a second is 20 s at both ends', () => {
    expect(estimateWait(100, steady(5), NOW, null)).toEqual({ p50: 20, p90: 20 });
  });

  it('puts p90 at the slow end of an uneven rate', () => {
    // Five windows at 10/s, one at 2/s.
    const samples: RateSample[] = [...steady(10, 50), ...Array.from({ length: 10 }, (_, i) => [ago(60 - i - 0.5), 2] as RateSample)];
    const estimate = estimateWait(100, samples, NOW, null) as { p50: number; p90: number };
    expect(estimate.p50).toBe(10);
    expect(estimate.p90).toBe(50);
  });

  it('uses the configured rate before any admission, the p90 at half of it', () => {
    expect(estimateWait(120, [], NOW, 60)).toEqual({ p50: 120, p90: 240 });
  });

  it('knows nothing in auto mode before any admission', () => {
    expect(estimateWait(10, [], NOW, null)).toBeNull();
  });

  it('divides a window by the part of it the queue was open for: 12 s at 10 a second is 10 a second', () => {
    const opened = new Date(ago(12));
    expect(estimateWait(100, steady(10, 12), NOW, 60, opened)).toEqual({ p50: 10, p90: 10 });
    // Unaware of the opening, the window it opened in would read as 2 a second (the median of 2 and 10).
    expect(estimateWait(100, steady(10, 12), NOW, 60)?.p50).toBe(50);
    // Under two seconds open: too little to measure, the configured rate stands in.
    expect(estimateWait(100, steady(10, 1), NOW, 60, new Date(ago(1)))).toEqual({ p50: 100, p90: 200 });
  });

  it('blends the configured rate with what was measured until the measure covers ten seconds', () => {
    // 4 s open at 10 a second, configured 1 a second: 0.4 × 10 + 0.6 × 1 = 4.6 a second.
    expect(estimateWait(46, steady(10, 4), NOW, 60, new Date(ago(4)))?.p50).toBe(10);
  });

  it('counts only what came after the free slots filled: the fill is no rate', () => {
    const opened = new Date(ago(60));
    // 20 s filling 200 slots at 10 a second, then 40 s at 2 a second as turns end.
    const samples: RateSample[] = [
      ...Array.from({ length: 20 }, (_, i) => [ago(60 - i - 1), 10, 10 * (i + 1)] as RateSample),
      ...Array.from({ length: 40 }, (_, i) => [ago(40 - i - 1), 2, 200] as RateSample),
    ];
    expect(estimateWait(100, samples, NOW, 600, opened, 200)?.p50).toBe(50);
    // 15 s after the fill: unaware of max_active, the fill's windows read as 6 a second (100 in 17 s).
    const earlier = new Date(ago(25));
    const then = samples.filter(([time]) => time <= earlier.getTime());
    expect(estimateWait(100, then, earlier, 600, opened)?.p50).toBe(17);
    expect(estimateWait(100, then, earlier, 600, opened, 200)?.p50).toBe(50);
  });

  it('after the fill, with no turn ended yet, expects at most one admission in that time', () => {
    const samples: RateSample[] = Array.from({ length: 20 }, (_, i) => [ago(60 - i - 1), 10, 10 * (i + 1)] as RateSample);
    // Full for the last 40 s without an admission: one in 40 s at most.
    expect(estimateWait(10, samples, NOW, 600, new Date(ago(60)), 200)?.p50).toBe(400);
  });

  it('ignores samples older than a minute', () => {
    expect(estimateWait(10, [[ago(120), 1000]], NOW, 60)).toEqual({ p50: 10, p90: 20 });
  });
});

describe('withSample / parseSamples', () => {
  it('keeps a minute of samples and reads them back', () => {
    const kept = withSample(
      [
        [ago(90), 3],
        [ago(30), 4],
      ],
      NOW,
      5,
    );
    expect(kept).toEqual([
      [ago(30), 4],
      [NOW.getTime(), 5],
    ]);
    expect(parseSamples(JSON.stringify(kept))).toEqual(kept);
  });

  it('reads garbage as no samples', () => {
    expect(parseSamples('not json')).toEqual([]);
    expect(parseSamples('{"a":1}')).toEqual([]);
  });
});

/**
 * An opening as the ticker runs it: a tick a second admits `min(rate, max_active − active)`; each
 * admitted turn lasts a drawn time (seeded), then frees its slot. Returns when each position was
 * admitted and the samples the queue row held at each second.
 */
function simulateOpening(ratePerSecond: number, maxActive: number, turnSeconds: (random: () => number) => number, seconds: number) {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const opened = NOW.getTime();
  const admittedAt: number[] = [];
  const held: RateSample[][] = [];
  let ends: number[] = [];
  let samples: RateSample[] = [];
  for (let second = 1; second <= seconds; second += 1) {
    ends = ends.filter((end) => end > second);
    const admitted = Math.min(ratePerSecond, maxActive - ends.length);
    for (let i = 0; i < admitted; i += 1) {
      admittedAt.push(second);
      ends.push(second + turnSeconds(random));
    }
    samples = withSample(samples, new Date(opened + second * 1000), admitted, ends.length);
    held[second] = samples;
  }
  /** The median error of the p50 predicted at `second` for the next `count` positions. */
  const medianError = (second: number, count: number, maxActiveKnown: number | null): number => {
    const counter = admittedAt.filter((at) => at <= second).length;
    const errors: number[] = [];
    for (let position = counter + 1; position <= counter + count; position += 1) {
      const predicted = estimateWait(
        position - counter,
        held[second],
        new Date(opened + second * 1000),
        ratePerSecond * 60,
        new Date(opened),
        maxActiveKnown,
      )?.p50 as number;
      errors.push(Math.abs(admittedAt[position - 1] - second - predicted) / predicted);
    }
    return errors.sort((a, b) => a - b)[Math.floor(errors.length / 2)];
  };
  return { medianError };
}

describe('estimateWait over a simulated opening', () => {
  const exponential = (mean: number) => (random: () => number) => Math.round(-mean * Math.log(1 - random()));

  it('predicts a queue bound by its turns within 25 % once ten seconds after the fill were seen: fill at 10 a second, then turns end', () => {
    // 200 slots filled in 20 s at 10 a second; turns of 3 s + about 30 s keep it to about 6 a second.
    const opening = simulateOpening(10, 200, (random) => 3 + exponential(30)(random), 400);
    for (const second of [45, 60, 90]) expect(opening.medianError(second, 1000, 200)).toBeLessThanOrEqual(0.25);
    // Counting the fill as rate was off by more than half at 45 s.
    expect(opening.medianError(45, 1000, null)).toBeGreaterThan(0.5);
  });

  it('predicts a burst that fills every slot at once, then the rate turns allow, within 25 % from 30 s on', () => {
    // 200 slots filled in 2 s at 100 a second; turns of 5–35 s.
    const opening = simulateOpening(100, 200, (random) => 5 + Math.round(30 * random()), 400);
    for (const second of [30, 45, 60, 90]) expect(opening.medianError(second, 2000, 200)).toBeLessThanOrEqual(0.25);
  });

  it('predicts a queue bound by its rate (turns end faster than it admits) exactly from the opening', () => {
    const opening = simulateOpening(10, 200, (random) => 2 + Math.round(8 * random()), 400);
    for (const second of [1, 5, 10, 20, 60]) expect(opening.medianError(second, 1000, 200)).toBeLessThanOrEqual(0.05);
  });
});
