import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import { timeZoneAbbreviation } from '../common/dates/timezone-abbreviation';

/**
 * Offsets are sampled daily and each change is then narrowed down to the minute. Transitions of
 * today's rules are weeks apart at the closest (Morocco's around Ramadan), so none is missed.
 */
const SAMPLE_STEP_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;
const LOCAL_FORMAT = "yyyyLLdd'T'HHmmss";
/** Zone names remembered by canonicalIanaZone; the time zone database holds about 600. */
const CANONICAL_CACHE_SIZE = 1000;
const canonicalNames = new Map<string, string | null>();
/** Scanned years remembered, by zone and year: a few observance lines each. */
const YEAR_CACHE_SIZE = 5000;
const scannedYears = new Map<string, string[]>();

interface Transition {
  at: number;
  from: number;
  to: number;
}

/** `+0800`, `-0430`: an offset in minutes as iCalendar's UTC-OFFSET value. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}${String(absolute % 60).padStart(2, '0')}`;
}

/**
 * The IANA name as the time zone database spells it ("europe/paris" is accepted on input), or null
 * for anything that is not an IANA zone (UTC and the original's manual offsets such as "UTC+2",
 * which iCalendar files write as UTC times instead).
 */
export function canonicalIanaZone(name: string): string | null {
  const known = canonicalNames.get(name);
  if (known !== undefined) return known;
  const trimmed = name.trim();
  const canonical =
    /^utc([+-].*)?$/i.test(trimmed) || !IANAZone.isValidZone(trimmed)
      ? null
      : new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  // Looking a zone up costs an Intl formatter; a feed asks for the same few names hundreds of times.
  if (canonicalNames.size >= CANONICAL_CACHE_SIZE) canonicalNames.clear();
  canonicalNames.set(name, canonical);
  return canonical;
}

function findTransitions(zone: IANAZone, start: number, end: number): Transition[] {
  const transitions: Transition[] = [];
  let previousAt = start;
  let previousOffset = zone.offset(start);
  for (let at = Math.min(start + SAMPLE_STEP_MS, end); previousAt < end; at = Math.min(at + SAMPLE_STEP_MS, end)) {
    const offset = zone.offset(at);
    if (offset !== previousOffset) {
      // The offset changed within (previousAt, at]: find the first minute of the new one.
      let low = previousAt;
      let high = at;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.max(1, Math.floor((high - low) / 2 / MINUTE_MS)) * MINUTE_MS;
        if (zone.offset(middle) === previousOffset) low = middle;
        else high = middle;
      }
      transitions.push({ at: high, from: previousOffset, to: offset });
    }
    previousAt = at;
    previousOffset = offset;
  }
  return transitions;
}

function observance(kind: 'STANDARD' | 'DAYLIGHT', start: string, from: number, to: number, name: string): string[] {
  return [
    `BEGIN:${kind}`,
    `DTSTART:${start}`,
    `TZOFFSETFROM:${formatUtcOffset(from)}`,
    `TZOFFSETTO:${formatUtcOffset(to)}`,
    `TZNAME:${name}`,
    `END:${kind}`,
  ];
}

/** The observances that start inside one local calendar year of the zone: one per offset change. */
function changesInYear(canonical: string, zone: IANAZone, year: number): string[] {
  const key = `${canonical}|${year}`;
  const cached = scannedYears.get(key);
  if (cached) return cached;
  const start = DateTime.fromObject({ year, month: 1, day: 1 }, { zone }).toMillis();
  const end = DateTime.fromObject({ year: year + 1, month: 1, day: 1 }, { zone }).toMillis();
  const lines = findTransitions(zone, start, end).flatMap((transition) => {
    const after = DateTime.fromMillis(transition.at, { zone });
    // The onset is written in the wall-clock time of the offset it replaces (RFC 5545 §3.6.5).
    const localStart = DateTime.fromMillis(transition.at, { zone: FixedOffsetZone.instance(transition.from) }).toFormat(LOCAL_FORMAT);
    return observance(
      after.isInDST ? 'DAYLIGHT' : 'STANDARD',
      localStart,
      transition.from,
      transition.to,
      timeZoneAbbreviation(canonical, new Date(transition.at)),
    );
  });
  if (scannedYears.size >= YEAR_CACHE_SIZE) scannedYears.clear();
  scannedYears.set(key, lines);
  return lines;
}

/**
 * A VTIMEZONE component for an IANA zone that defines the offset at each of `instants`: for every
 * run of consecutive years they fall in, the offset in force on 1 January, then each change in
 * those years. Listing the changes instead of writing RRULEs keeps past rule changes right; only
 * the years of the instants are looked at, so an event that ends centuries after it starts costs
 * two years, not centuries. Null when the name is not an IANA zone.
 */
export function buildVTimezone(zoneName: string, instants: Date[]): string | null {
  const canonical = canonicalIanaZone(zoneName);
  if (!canonical || instants.length === 0) return null;
  const zone = IANAZone.create(canonical);
  const years = [...new Set(instants.map((instant) => DateTime.fromJSDate(instant, { zone }).year))].sort(
    (first, second) => first - second,
  );
  const lines = ['BEGIN:VTIMEZONE', `TZID:${canonical}`];
  years.forEach((year, index) => {
    if (index === 0 || years[index - 1] !== year - 1) {
      const newYear = DateTime.fromObject({ year, month: 1, day: 1 }, { zone });
      const name = timeZoneAbbreviation(canonical, newYear.toJSDate());
      lines.push(
        ...observance(newYear.isInDST ? 'DAYLIGHT' : 'STANDARD', newYear.toFormat(LOCAL_FORMAT), newYear.offset, newYear.offset, name),
      );
    }
    lines.push(...changesInYear(canonical, zone, year));
  });
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}
