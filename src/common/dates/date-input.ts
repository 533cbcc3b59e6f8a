import { DateTime, Zone } from 'luxon';
import { WALL_CLOCK_FORMAT } from './date-format';

export interface ParsedDateInput {
  /** The instant the input denotes. */
  instant: Date;
  /** The same instant as wall-clock time in the zone it was read in. */
  local: string;
  /** Whether the input named no time of day (`2027-02-01`). */
  dateOnly: boolean;
}

const WALL_CLOCK = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const UNIX_TIMESTAMP = /^-?\d{9,11}$/;
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * Reads a date as the API accepts it, in `zone`:
 * - `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` (also with `T`): wall-clock time in `zone`;
 * - ISO 8601 with an offset or `Z`: that instant, shown in `zone`;
 * - a unix timestamp in seconds.
 * Returns null for anything else, including impossible dates (2027-02-30).
 *
 * A wall-clock time that a DST change skips (02:30 on a spring-forward night) moves forward by the
 * gap; an ambiguous one (the repeated hour in autumn) is read with the earlier offset.
 */
export function parseDateInput(raw: unknown, zone: Zone): ParsedDateInput | null {
  if (typeof raw === 'number' && Number.isInteger(raw)) return fromInstant(DateTime.fromSeconds(raw, { zone }), false);
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (UNIX_TIMESTAMP.test(text)) return fromInstant(DateTime.fromSeconds(Number(text), { zone }), false);

  const wallClock = WALL_CLOCK.exec(text);
  if (wallClock) {
    const [, year, month, day, hour, minute, second] = wallClock;
    const parsed = DateTime.fromObject(
      {
        year: Number(year),
        month: Number(month),
        day: Number(day),
        hour: Number(hour ?? 0),
        minute: Number(minute ?? 0),
        second: Number(second ?? 0),
      },
      { zone },
    );
    return fromInstant(parsed, hour === undefined);
  }

  if (HAS_OFFSET.test(text)) {
    const parsed = DateTime.fromISO(text, { setZone: true });
    const realOffset = parsed.isValid && Math.abs(parsed.offset) <= MAX_OFFSET_MINUTES;
    return realOffset ? fromInstant(parsed.setZone(zone), false) : null;
  }
  return null;
}

function fromInstant(value: DateTime, dateOnly: boolean): ParsedDateInput | null {
  if (!value.isValid || value.year < 1000 || value.year > 9999) return null;
  return { instant: value.toJSDate(), local: value.toFormat(WALL_CLOCK_FORMAT), dateOnly };
}

/** The wall-clock time `local` (YYYY-MM-DD HH:MM:SS) in `zone`, as an instant. */
export function wallClockToInstant(local: string, zone: Zone): Date {
  // Read by hand: DateTime.fromFormat builds a parser for every call, which made it the dearest
  // step of writing a series' occurrences (about 1 ms a call on a busy machine).
  const parts = WALL_CLOCK_VALUE.exec(local);
  if (!parts) return DateTime.fromFormat(local, WALL_CLOCK_FORMAT, { zone }).toJSDate();
  const [, year, month, day, hour, minute, second] = parts;
  return DateTime.fromObject(
    { year: Number(year), month: Number(month), day: Number(day), hour: Number(hour), minute: Number(minute), second: Number(second) },
    { zone },
  ).toJSDate();
}

const WALL_CLOCK_VALUE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Sets the time of day of a wall-clock value: all-day events run 00:00:00 to 23:59:59. */
export function withTimeOfDay(local: string, time: '00:00:00' | '23:59:59'): string {
  return `${local.slice(0, 10)} ${time}`;
}
