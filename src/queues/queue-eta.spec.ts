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

  it('divides a window by the part of it the queue was open for: 3 s at 10 a second is 10 a second', () => {
    const opened = new Date(ago(3));
    expect(estimateWait(100, steady(10, 3), NOW, 60, opened)).toEqual({ p50: 10, p90: 10 });
    // Unaware of the opening, the same samples would read as 3 a second.
    expect(estimateWait(100, steady(10, 3), NOW, 60)?.p50).toBe(34);
    // Under two seconds open: too little to measure, the configured rate stands in.
    expect(estimateWait(100, steady(10, 1), NOW, 60, new Date(ago(1)))).toEqual({ p50: 100, p90: 200 });
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
