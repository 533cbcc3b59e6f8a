import { DateTime } from 'luxon';

export const REPORT_INTERVALS = ['day', 'week'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** Longest range a sales report covers, in days. */
export const MAX_REPORT_DAYS = 366;
/** Days a report covers when `from` is not given. */
export const DEFAULT_REPORT_DAYS = 30;

export interface DayRange {
  from: string;
  to: string;
}

/** One interval of a report: its first and last UTC day, both within the report's range. */
export interface IntervalBucket {
  start: string;
  end: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` calendar day, or null when it is not one. */
export function parseDay(value: string): DateTime | null {
  if (!DAY.test(value)) return null;
  const day = DateTime.fromISO(value, { zone: 'utc' });
  return day.isValid ? day : null;
}

/**
 * The report's range: `to` defaults to today (UTC), `from` to DEFAULT_REPORT_DAYS days before `to`.
 * Answers the problem of the first bad field instead when there is one.
 */
export function resolveRange(
  from: string | undefined,
  to: string | undefined,
  today: Date,
): { range: DayRange } | { field: 'from' | 'to'; reason: string } {
  const end = to === undefined ? DateTime.fromJSDate(today, { zone: 'utc' }).startOf('day') : parseDay(to);
  if (!end) return { field: 'to', reason: 'to must be a date (YYYY-MM-DD)' };
  const start = from === undefined ? end.minus({ days: DEFAULT_REPORT_DAYS - 1 }) : parseDay(from);
  if (!start) return { field: 'from', reason: 'from must be a date (YYYY-MM-DD)' };
  if (start > end) return { field: 'from', reason: 'from must not be after to' };
  if (end.diff(start, 'days').days + 1 > MAX_REPORT_DAYS)
    return { field: 'from', reason: `a report covers at most ${MAX_REPORT_DAYS} days` };
  return { range: { from: start.toISODate() as string, to: end.toISODate() as string } };
}

/** The first day of the interval holding `day`: the day itself, or the Monday of its ISO week. */
export function intervalStart(day: string, interval: ReportInterval): string {
  if (interval === 'day') return day;
  return DateTime.fromISO(day, { zone: 'utc' }).startOf('week').toISODate() as string;
}

/** Every interval of the range, in order; the first and last are cut to the range. */
export function intervalsOf(range: DayRange, interval: ReportInterval): IntervalBucket[] {
  const last = DateTime.fromISO(range.to, { zone: 'utc' });
  const buckets: IntervalBucket[] = [];
  let cursor = DateTime.fromISO(range.from, { zone: 'utc' });
  while (cursor <= last) {
    const end = interval === 'day' ? cursor : DateTime.min(cursor.endOf('week').startOf('day'), last);
    buckets.push({ start: cursor.toISODate() as string, end: end.toISODate() as string });
    cursor = end.plus({ days: 1 });
  }
  return buckets;
}
