import { DateTime, Zone } from 'luxon';
import { invalidParam } from '../errors/api-error';
import { WALL_CLOCK_FORMAT } from '../dates/date-format';
import { parseDateInput } from '../dates/date-input';

/** `from`: on or after the value; `until`: on or before it. */
export type DateFilterEdge = 'from' | 'until';

export interface DateFilter {
  /** The bound, inclusive: compare with `>=` (from) or `<=` (until). */
  instant: Date;
  /** The bound as wall-clock time in the zone it was read in. */
  local: string;
}

export interface DateFilterOptions {
  /** Widens every value to the start or end of its day, a time of day included (the events list's inclusive mode). */
  wholeDays?: boolean;
}

/**
 * A list's date filter, read in `zone` (the site's or the event's, as each route says). The one
 * end-of-day rule: an `until` bound given as a date alone means the end of that day (its last
 * millisecond), so that the whole day counts. Absent or blank: undefined. Unreadable: 400 naming `field`.
 */
export function readDateFilter(
  raw: unknown,
  field: string,
  zone: Zone,
  edge: DateFilterEdge,
  options: DateFilterOptions = {},
): DateFilter | undefined {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  const parsed = parseDateInput(raw, zone);
  if (!parsed) throw invalidParam(field, `${field} must be a date: YYYY-MM-DD[ HH:MM:SS], ISO 8601 or a unix timestamp`);
  if (!parsed.dateOnly && !options.wholeDays) return { instant: parsed.instant, local: parsed.local };
  const day = DateTime.fromJSDate(parsed.instant, { zone });
  const bound = edge === 'from' ? day.startOf('day') : day.endOf('day');
  return { instant: bound.toJSDate(), local: bound.toFormat(WALL_CLOCK_FORMAT) };
}
