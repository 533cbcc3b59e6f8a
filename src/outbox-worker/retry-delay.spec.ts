import { retryDelayMs } from './outbox-worker.service';

describe('retryDelayMs', () => {
  it('doubles from the base with ±20 % jitter', () => {
    expect(retryDelayMs(1000, 1, 0.5)).toBe(1000);
    expect(retryDelayMs(1000, 2, 0.5)).toBe(2000);
    expect(retryDelayMs(1000, 5, 0.5)).toBe(16000);
    expect(retryDelayMs(1000, 1, 0)).toBe(800);
    expect(retryDelayMs(1000, 1, 1)).toBe(1200);
  });

  it('waits at most six hours (plus jitter) between attempts', () => {
    expect(retryDelayMs(30_000, 40, 0.5)).toBe(6 * 3600_000);
  });
});
