import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';

/**
 * Offsets are sampled at this step and each change is then narrowed down to the minute. Six hours
 * is shorter than any gap between two real transitions, so none is missed.
 */
const SAMPLE_STEP_MS = 6 * 3600_000;
const MINUTE_MS = 60_000;
const LOCAL_FORMAT = "yyyyLLdd'T'HHmmss";

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
  const trimmed = name.trim();
  if (/^utc([+-].*)?$/i.test(trimmed) || !IANAZone.isValidZone(trimmed)) return null;
  return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
}

function findTransitions(zone: IANAZone, start: number, end: number): Transition[] {
  const transitions: Transition[] = [];
  let previousAt = start;
  let previousOffset = zone.offset(start);
  for (let at = start + SAMPLE_STEP_MS; at <= end + SAMPLE_STEP_MS; at += SAMPLE_STEP_MS) {
    const offset = zone.offset(at);
    if (offset === previousOffset) {
      previousAt = at;
      continue;
    }
    // The offset changed within (previousAt, at]: find the first minute of the new one.
    let low = previousAt;
    let high = at;
    while (high - low > MINUTE_MS) {
      const middle = low + Math.max(1, Math.floor((high - low) / 2 / MINUTE_MS)) * MINUTE_MS;
      if (zone.offset(middle) === previousOffset) low = middle;
      else high = middle;
    }
    if (high <= end) transitions.push({ at: high, from: previousOffset, to: offset });
    previousAt = at;
    previousOffset = offset;
  }
  return transitions;
}

function observance(kind: 'STANDARD' | 'DAYLIGHT', start: string, from: number, to: number, name: string): string[] {
  return [`BEGIN:${kind}`, `DTSTART:${start}`, `TZOFFSETFROM:${formatUtcOffset(from)}`, `TZOFFSETTO:${formatUtcOffset(to)}`, `TZNAME:${name}`, `END:${kind}`];
}

/**
 * A VTIMEZONE component for an IANA zone covering the whole years from `from` to `to`: one
 * observance for the offset in force when that span starts, then one per offset change inside it,
 * each starting at the wall-clock time of the offset it replaces (RFC 5545 §3.6.5). Listing the
 * changes instead of writing RRULEs keeps past rule changes right, at the cost of a few lines per
 * year. Null when the name is not an IANA zone.
 */
export function buildVTimezone(zoneName: string, from: Date, to: Date): string | null {
  const canonical = canonicalIanaZone(zoneName);
  if (!canonical) return null;
  const zone = IANAZone.create(canonical);
  const start = DateTime.fromJSDate(from, { zone }).startOf('year');
  const end = DateTime.fromJSDate(to, { zone }).endOf('year');
  const initialOffset = start.offset;
  const lines = [
    'BEGIN:VTIMEZONE',
    `TZID:${canonical}`,
    ...observance(start.isInDST ? 'DAYLIGHT' : 'STANDARD', start.toFormat(LOCAL_FORMAT), initialOffset, initialOffset, start.offsetNameShort ?? formatUtcOffset(initialOffset)),
  ];
  for (const transition of findTransitions(zone, start.toMillis(), end.toMillis())) {
    const after = DateTime.fromMillis(transition.at, { zone });
    const localStart = DateTime.fromMillis(transition.at, { zone: FixedOffsetZone.instance(transition.from) }).toFormat(LOCAL_FORMAT);
    const kind = after.isInDST ? 'DAYLIGHT' : 'STANDARD';
    lines.push(...observance(kind, localStart, transition.from, transition.to, after.offsetNameShort ?? formatUtcOffset(transition.to)));
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}
