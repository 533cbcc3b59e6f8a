import { DateTime, Zone } from 'luxon';
import { Frequency, Options, RRule } from 'rrule';
import { formatInZone, WALL_CLOCK_FORMAT } from '../common/dates/date-format';
import { parseDateInput, wallClockToInstant } from '../common/dates/date-input';
import { invalidParam } from '../common/errors/api-error';
import type { Recurrence } from '../events/dto/event.response';

/** Most occurrences one write may create (a daily series over five years is about 1 830). */
export const MAX_OCCURRENCES_PER_WRITE = 2000;

/** A validated rule, ready to expand. */
export interface ParsedRecurrence extends Recurrence {
  /** rrule's options without DTSTART; UNTIL, when set, as floating wall-clock time. */
  options: Partial<Options>;
}

const SUPPORTED_FREQUENCIES = new Map<Frequency, string>([
  [Frequency.YEARLY, 'YEARLY'],
  [Frequency.MONTHLY, 'MONTHLY'],
  [Frequency.WEEKLY, 'WEEKLY'],
  [Frequency.DAILY, 'DAILY'],
]);
/** Parts that would give an occurrence another time of day than the series' start, or move DTSTART. */
const REFUSED_PARTS = ['BYHOUR', 'BYMINUTE', 'BYSECOND', 'DTSTART', 'TZID'];
const KNOWN_PARTS = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'WKST', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYMONTH', 'BYSETPOS'];
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;
const MAX_RULE_LENGTH = 500;
const MAX_LISTED_DATES = 1000;

/** `YYYY-MM-DD HH:MM:SS` of a wall-clock value as a "floating" Date: the same fields in UTC. */
export function floating(local: string): Date {
  const [date, time] = local.split(' ');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = time.split(':').map(Number);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
}

export function fromFloating(value: Date): string {
  // ISO 8601 in UTC is the wall-clock value with a T and milliseconds (and much cheaper than luxon).
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A date of RDATE, EXDATE or UNTIL: RFC 5545 basic form (`20270315T100000`, `...Z` in UTC,
 * `20270315` a date) or any form start_date takes; as wall-clock time in `zone`. A date alone
 * takes `timeOfDay`.
 */
function readListedDate(raw: unknown, zone: Zone, timeOfDay: string): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = String(raw).trim();
  const basic = BASIC_DATE.exec(text);
  if (basic) {
    const [, year, month, day, hour, minute, second, utc] = basic;
    if (hour === undefined) return validWallClock(`${year}-${month}-${day} ${timeOfDay}`);
    const wall = `${year}-${month}-${day} ${hour}:${minute}:${second}`;
    if (!utc) return validWallClock(wall);
    const instant = DateTime.fromFormat(wall, WALL_CLOCK_FORMAT, { zone: 'UTC' });
    return instant.isValid ? instant.setZone(zone).toFormat(WALL_CLOCK_FORMAT) : null;
  }
  const parsed = parseDateInput(raw, zone);
  if (!parsed) return null;
  return parsed.dateOnly ? `${parsed.local.slice(0, 10)} ${timeOfDay}` : parsed.local;
}

function validWallClock(local: string): string | null {
  return DateTime.fromFormat(local, WALL_CLOCK_FORMAT, { zone: 'UTC' }).isValid ? local : null;
}

function dateList(raw: unknown, field: string, zone: Zone, timeOfDay: string): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
  if (values.length > MAX_LISTED_DATES) throw invalidParam(field, `${field} may list at most ${MAX_LISTED_DATES} dates`);
  const dates = values.map((value) => {
    const date = readListedDate(value, zone, timeOfDay);
    if (!date)
      throw invalidParam(
        field,
        `${field} must hold dates (20270315T100000, 2027-03-15 10:00:00 or ISO 8601): got ${JSON.stringify(value)}`,
      );
    return date;
  });
  return [...new Set(dates)].sort();
}

/**
 * Reads `recurrence` as sent: RFC 5545 lines in one string (`RRULE:...`, `RDATE:...`,
 * `EXDATE:...`, separated by line breaks) or an object `{rrule, rdate?, exdate?}`. Dates are read
 * in `zone`; a date alone takes the time of day of `startLocal`. Every fault is a 400 naming
 * `recurrence` (or the object's member).
 */
export function parseRecurrence(raw: unknown, zone: Zone, startLocal: string): ParsedRecurrence {
  const timeOfDay = startLocal.slice(11);
  let rruleText: unknown;
  let rdateRaw: unknown;
  let exdateRaw: unknown;
  let prefix = 'recurrence';
  if (typeof raw === 'string') {
    const rdates: string[] = [];
    const exdates: string[] = [];
    for (const line of raw
      .split(/\r\n|\r|\n/)
      .map((text) => text.trim())
      .filter(Boolean)) {
      const match = /^([A-Z]+)((?:;[^:]*)?):(.*)$/i.exec(line);
      if (!match) {
        if (rruleText === undefined && /^FREQ=/i.test(line)) {
          rruleText = line;
          continue;
        }
        throw invalidParam(
          'recurrence',
          `recurrence holds a line that is not RRULE, RDATE or EXDATE: ${JSON.stringify(line.slice(0, 80))}`,
        );
      }
      const [, name, , value] = match;
      const key = name.toUpperCase();
      if (key === 'RRULE') {
        if (rruleText !== undefined) throw invalidParam('recurrence', 'recurrence may hold one RRULE');
        rruleText = value;
      } else if (key === 'RDATE') rdates.push(...value.split(','));
      else if (key === 'EXDATE') exdates.push(...value.split(','));
      else throw invalidParam('recurrence', `recurrence holds ${key}; only RRULE, RDATE and EXDATE are read`);
    }
    rdateRaw = rdates;
    exdateRaw = exdates;
  } else if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const object = raw as Record<string, unknown>;
    const unknown = Object.keys(object).filter((key) => !['rrule', 'rdate', 'exdate'].includes(key));
    if (unknown.length) throw invalidParam('recurrence', `recurrence has unknown members: ${unknown.join(', ')}`);
    rruleText = object.rrule;
    rdateRaw = object.rdate;
    exdateRaw = object.exdate;
    prefix = 'recurrence.';
  } else {
    throw invalidParam(
      'recurrence',
      'recurrence must be RFC 5545 lines (RRULE:FREQ=WEEKLY;COUNT=10) or an object {rrule, rdate?, exdate?}',
    );
  }
  const field = (member: string) => (prefix === 'recurrence' ? 'recurrence' : `recurrence.${member}`);
  if (typeof rruleText !== 'string' || rruleText.trim() === '')
    throw invalidParam(field('rrule'), `${field('rrule')} is required: an RRULE such as FREQ=WEEKLY;COUNT=10`);
  const { text, options } = parseRule(rruleText, zone, field('rrule'));
  return {
    rrule: text,
    options,
    rdate: dateList(rdateRaw, field('rdate'), zone, timeOfDay),
    exdate: dateList(exdateRaw, field('exdate'), zone, timeOfDay),
  };
}

/** Validates the RRULE value and returns it normalised (upper case, no `RRULE:`) with rrule's options. */
export function parseRule(raw: string, zone: Zone, field = 'recurrence'): { text: string; options: Partial<Options> } {
  const text = raw
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase();
  if (text.length > MAX_RULE_LENGTH) throw invalidParam(field, `${field} may be at most ${MAX_RULE_LENGTH} characters`);
  const parts = readRuleParts(text, field);
  let options: Partial<Options>;
  try {
    // UNTIL is read below, in the event's zone; rrule would read it as UTC.
    const withoutUntil = [...parts]
      .filter(([name]) => name !== 'UNTIL')
      .map(([name, value]) => `${name}=${value}`)
      .join(';');
    options = RRule.parseString(withoutUntil);
  } catch (error) {
    throw invalidParam(field, `${field} is not a valid RRULE: ${(error as Error).message}`);
  }
  checkRuleOptions(options, field);
  if (parts.has('UNTIL')) {
    const until = readListedDate(parts.get('UNTIL'), zone, '23:59:59');
    if (!until) throw invalidParam(field, `${field}: UNTIL must be a date (20270601, 20270601T100000 or 20270601T080000Z)`);
    options.until = floating(until);
  }
  // rrule accepts some malformed values silently (NaN); trying the rule once catches them.
  try {
    const probe = new RRule({ ...options, dtstart: new Date(Date.UTC(2000, 0, 1)) });
    probe.after(new Date(Date.UTC(2000, 0, 1)), true);
  } catch (error) {
    throw invalidParam(field, `${field} is not a valid RRULE: ${(error as Error).message}`);
  }
  return { text, options };
}

/** The rule's NAME=value parts, each known, allowed and given once; FREQ required, not COUNT with UNTIL. */
function readRuleParts(text: string, field: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of text.split(';').filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!name || value === undefined || value === '') throw invalidParam(field, `${field} holds a malformed part: ${JSON.stringify(part)}`);
    if (REFUSED_PARTS.includes(name)) {
      throw invalidParam(field, `${field} may not hold ${name}: the time of day and zone come from start_date and timezone`);
    }
    if (!KNOWN_PARTS.includes(name)) throw invalidParam(field, `${field} holds an unknown part: ${name}`);
    if (parts.has(name)) throw invalidParam(field, `${field} holds ${name} twice`);
    parts.set(name, value);
  }
  if (!parts.has('FREQ')) throw invalidParam(field, `${field} needs FREQ`);
  if (parts.has('COUNT') && parts.has('UNTIL')) throw invalidParam(field, `${field} may hold COUNT or UNTIL, not both`);
  return parts;
}

function checkRuleOptions(options: Partial<Options>, field: string): void {
  if (options.freq === undefined || !SUPPORTED_FREQUENCIES.has(options.freq)) {
    throw invalidParam(field, `${field}: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY`);
  }
  if (options.interval !== undefined && (!Number.isInteger(options.interval) || options.interval < 1 || options.interval > 1000)) {
    throw invalidParam(field, `${field}: INTERVAL must be a whole number from 1 to 1000`);
  }
  if (
    options.count !== undefined &&
    options.count !== null &&
    (!Number.isInteger(options.count) || options.count < 1 || options.count > 100_000)
  ) {
    throw invalidParam(field, `${field}: COUNT must be a whole number from 1 to 100000`);
  }
}

/** The rule with this COUNT or UNTIL (wall-clock, in the event zone) instead of its own end. */
export function withEnd(rule: string, end: { count: number } | { untilLocal: string }): string {
  const parts = rule.split(';').filter((part) => part && !/^(COUNT|UNTIL)=/.test(part));
  parts.push(
    'count' in end ? `COUNT=${end.count}` : `UNTIL=${end.untilLocal.replace(/[-: ]/g, (character) => (character === ' ' ? 'T' : ''))}`,
  );
  return parts.join(';');
}

/** The RRULE value as RFC 5545 wants it beside a DTSTART with TZID: UNTIL in UTC. */
export function ruleForCalendar(recurrence: ParsedRecurrence, zone: Zone): string {
  const until = recurrence.options.until;
  if (!until) return recurrence.rrule;
  const instant = DateTime.fromJSDate(wallClockToInstant(fromFloating(until), zone), { zone: 'UTC' });
  return recurrence.rrule.replace(/UNTIL=[^;]*/, `UNTIL=${instant.toFormat("yyyyMMdd'T'HHmmss'Z'")}`);
}

export interface ExpansionWindow {
  /** Occurrences whose wall-clock start is after this one (exclusive); null: from the first. */
  afterLocal: string | null;
  /** Occurrences that start before this instant. */
  before: Date;
}

/**
 * The wall-clock starts (`YYYY-MM-DD HH:MM:SS`, event zone) of a series' occurrences in the
 * window, in order: the rule expanded from `startLocal` in floating time (no zone: DST cannot move
 * it), plus RDATE, minus EXDATE. Each is then an instant in `zone` (wallClockToInstant), so an
 * occurrence keeps its time of day across DST changes. `limit` more than `max` throws a 400 naming
 * `recurrence`. Also tells whether the rule (and RDATE) has occurrences after the window.
 */
export function expandRecurrence(
  recurrence: ParsedRecurrence,
  startLocal: string,
  zone: Zone,
  window: ExpansionWindow,
  max = MAX_OCCURRENCES_PER_WRITE,
): { starts: string[]; exhausted: boolean } {
  const dtstart = floating(startLocal);
  let options: Partial<Options> = { ...recurrence.options, dtstart };
  // DTSTART is always the first occurrence and counts for COUNT (RFC 5545 §3.3.10), which rrule
  // does only when the rule itself matches it.
  const matchesStart = new RRule({ ...options, count: null }).after(dtstart, true)?.getTime() === dtstart.getTime();
  if (!matchesStart && options.count) options = { ...options, count: options.count - 1 };
  const rule = new RRule(options);
  const beforeLocal = formatInZone(window.before, zone);
  // A day of slack either side: the exact cut is made on instants below.
  const upper = new Date(floating(beforeLocal).getTime() + 86_400_000);
  const after = window.afterLocal ? floating(window.afterLocal) : null;
  const excluded = new Set(recurrence.exdate);
  const starts = new Set<string>();
  let exhausted = true;
  const consider = (local: string): boolean => {
    if (after && floating(local).getTime() <= after.getTime()) return true;
    if (wallClockToInstant(local, zone).getTime() >= window.before.getTime()) {
      exhausted = false;
      return false;
    }
    if (!excluded.has(local)) starts.add(local);
    if (starts.size > max) {
      throw invalidParam('recurrence', `recurrence gives more than ${max} occurrences within the horizon; shorten it with COUNT or UNTIL`);
    }
    return true;
  };
  // The first date of the series is always an occurrence (RFC 5545 counts DTSTART as the first).
  consider(startLocal);
  const iterateFrom = after ? new Date(after.getTime()) : floating(startLocal);
  if (options.count !== 0) rule.between(iterateFrom, upper, true, (date) => consider(fromFloating(date)));
  if (exhausted && options.count !== 0 && rule.after(upper, false) !== null) exhausted = false;
  for (const local of recurrence.rdate) {
    if (local < startLocal) continue;
    consider(local);
  }
  const sorted = [...starts].sort();
  return { starts: sorted, exhausted };
}

/** A wall-clock value plus a number of seconds, in wall-clock terms (no zone). */
export function plusWallClockSeconds(local: string, seconds: number): string {
  return fromFloating(new Date(floating(local).getTime() + seconds * 1000));
}

export function wallClockSecondsBetween(startLocal: string, endLocal: string): number {
  return Math.round((floating(endLocal).getTime() - floating(startLocal).getTime()) / 1000);
}
