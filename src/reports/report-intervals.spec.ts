import { intervalStart, intervalsOf, resolveRange } from './report-intervals';

describe('report intervals', () => {
  const today = new Date('2026-11-26T08:00:00Z');

  it('defaults to the 30 days up to today (UTC)', () => {
    expect(resolveRange(undefined, undefined, today)).toEqual({ range: { from: '2026-10-28', to: '2026-11-26' } });
  });

  it('names the bad field: a malformed date, from after to, a range over 366 days', () => {
    expect(resolveRange('2026-13-01', undefined, today)).toEqual({ field: 'from', reason: 'from must be a date (YYYY-MM-DD)' });
    expect(resolveRange(undefined, 'yesterday', today)).toMatchObject({ field: 'to' });
    expect(resolveRange('2026-11-27', '2026-11-26', today)).toMatchObject({ field: 'from', reason: 'from must not be after to' });
    expect(resolveRange('2025-01-01', '2026-01-02', today)).toMatchObject({ field: 'from' });
    expect(resolveRange('2025-01-02', '2026-01-02', today)).toEqual({ range: { from: '2025-01-02', to: '2026-01-02' } });
  });

  it('buckets days into ISO weeks starting on Monday', () => {
    expect(intervalStart('2026-11-26', 'week')).toBe('2026-11-23');
    expect(intervalStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(intervalStart('2026-11-22', 'week')).toBe('2026-11-16');
    expect(intervalStart('2026-11-22', 'day')).toBe('2026-11-22');
  });

  it('lists every interval of the range, cutting the first and last week to it', () => {
    expect(intervalsOf({ from: '2026-11-20', to: '2026-12-01' }, 'week')).toEqual([
      { start: '2026-11-20', end: '2026-11-22' },
      { start: '2026-11-23', end: '2026-11-29' },
      { start: '2026-11-30', end: '2026-12-01' },
    ]);
    expect(intervalsOf({ from: '2026-11-29', to: '2026-12-01' }, 'day').map((bucket) => bucket.start)).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
    ]);
  });
});
