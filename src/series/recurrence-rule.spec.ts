import { DateTime } from 'luxon';
import { resolveTimeZone } from '../common/dates/timezone';
import { ApiError } from '../common/errors/api-error';
import { expandRecurrence, parseRecurrence, ruleForCalendar, withEnd } from './recurrence-rule';

const far = new Date(Date.UTC(2040, 0, 1));

function expand(raw: unknown, start: string, zoneName: string, before = far) {
  const zone = resolveTimeZone(zoneName)!;
  return expandRecurrence(parseRecurrence(raw, zone, start), start, zone, { afterLocal: null, before });
}

function utcOf(local: string, zoneName: string): string {
  return DateTime.fromFormat(local, 'yyyy-MM-dd HH:mm:ss', { zone: zoneName }).toUTC().toFormat('yyyy-MM-dd HH:mm');
}

function fieldOf(call: () => unknown): string[] {
  try {
    call();
  } catch (error) {
    return Object.keys((error as ApiError).toBody().data.params ?? {});
  }
  throw new Error('no error');
}

describe('recurrence rules', () => {
  it('expands a weekly rule with COUNT, keeping 10:00 across the spring DST change in Berlin', () => {
    const { starts, exhausted } = expand('RRULE:FREQ=WEEKLY;COUNT=4', '2027-03-15 10:00:00', 'Europe/Berlin');
    expect(starts).toEqual(['2027-03-15 10:00:00', '2027-03-22 10:00:00', '2027-03-29 10:00:00', '2027-04-05 10:00:00']);
    expect(exhausted).toBe(true);
    // CET (+1) before 28 March, CEST (+2) after.
    expect(starts.map((local) => utcOf(local, 'Europe/Berlin'))).toEqual([
      '2027-03-15 09:00',
      '2027-03-22 09:00',
      '2027-03-29 08:00',
      '2027-04-05 08:00',
    ]);
  });

  it('keeps 09:30 across the autumn change in New York and the April change in Sydney', () => {
    const newYork = expand('FREQ=DAILY;UNTIL=20271109', '2027-11-05 09:30:00', 'America/New_York').starts;
    expect(newYork).toHaveLength(5);
    expect(newYork.map((local) => utcOf(local, 'America/New_York'))).toEqual([
      '2027-11-05 13:30',
      '2027-11-06 13:30',
      '2027-11-07 14:30',
      '2027-11-08 14:30',
      '2027-11-09 14:30',
    ]);
    const sydney = expand('FREQ=WEEKLY;COUNT=2', '2027-04-01 09:30:00', 'Australia/Sydney').starts;
    expect(sydney.map((local) => utcOf(local, 'Australia/Sydney'))).toEqual(['2027-03-31 22:30', '2027-04-07 23:30']);
  });

  it('reads UNTIL in UTC form in the event zone', () => {
    const starts = expand('FREQ=DAILY;UNTIL=20270110T090000Z', '2027-01-08 10:00:00', 'Europe/Berlin').starts;
    expect(starts).toEqual(['2027-01-08 10:00:00', '2027-01-09 10:00:00', '2027-01-10 10:00:00']);
  });

  it('expands monthly by-day rules and applies RDATE and EXDATE', () => {
    const { starts } = expand(
      { rrule: 'FREQ=MONTHLY;BYDAY=1TU;COUNT=3', exdate: ['2027-02-02 19:00:00'], rdate: '20270220T190000' },
      '2027-01-05 19:00:00',
      'Europe/Paris',
    );
    expect(starts).toEqual(['2027-01-05 19:00:00', '2027-02-20 19:00:00', '2027-03-02 19:00:00']);
  });

  it('counts a start the rule does not match as the first occurrence', () => {
    // 2027-03-01 is a Monday; the rule names Tuesdays and Thursdays.
    const { starts } = expand('FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3', '2027-03-01 18:00:00', 'UTC');
    expect(starts).toEqual(['2027-03-01 18:00:00', '2027-03-02 18:00:00', '2027-03-04 18:00:00']);
  });

  it('stops at the horizon and says the rule goes on', () => {
    const { starts, exhausted } = expand('FREQ=WEEKLY', '2027-01-04 10:00:00', 'UTC', new Date(Date.UTC(2027, 0, 25)));
    expect(starts).toHaveLength(3);
    expect(exhausted).toBe(false);
  });

  it('expands after a given occurrence only', () => {
    const zone = resolveTimeZone('UTC')!;
    const rule = parseRecurrence('FREQ=DAILY;COUNT=5', zone, '2027-01-01 08:00:00');
    const { starts } = expandRecurrence(rule, '2027-01-01 08:00:00', zone, { afterLocal: '2027-01-03 08:00:00', before: far });
    expect(starts).toEqual(['2027-01-04 08:00:00', '2027-01-05 08:00:00']);
  });

  it('refuses unsupported frequencies, time parts, bad syntax and too many occurrences, naming the field', () => {
    const zone = resolveTimeZone('UTC')!;
    expect(fieldOf(() => parseRecurrence('FREQ=HOURLY', zone, '2027-01-01 08:00:00'))).toEqual(['recurrence']);
    expect(fieldOf(() => parseRecurrence('FREQ=DAILY;BYHOUR=9', zone, '2027-01-01 08:00:00'))).toEqual(['recurrence']);
    expect(fieldOf(() => parseRecurrence('FREQ=DAILY;COUNT=abc', zone, '2027-01-01 08:00:00'))).toEqual(['recurrence']);
    expect(fieldOf(() => parseRecurrence('RRULE:FREQ=DAILY\nDTSTART:20270101', zone, '2027-01-01 08:00:00'))).toEqual(['recurrence']);
    expect(fieldOf(() => parseRecurrence({ rrule: 'FREQ=DAILY', exdate: ['soon'] }, zone, '2027-01-01 08:00:00'))).toEqual([
      'recurrence.exdate',
    ]);
    expect(fieldOf(() => parseRecurrence({ rdate: [] }, zone, '2027-01-01 08:00:00'))).toEqual(['recurrence.rrule']);
    expect(fieldOf(() => parseRecurrence(42, zone, '2027-01-01 08:00:00'))).toEqual(['recurrence']);
    expect(fieldOf(() => expand('FREQ=DAILY', '2027-01-01 08:00:00', 'UTC'))).toEqual(['recurrence']);
  });

  it('rewrites the end of a rule and writes UNTIL in UTC for calendars', () => {
    expect(withEnd('FREQ=WEEKLY;COUNT=10;BYDAY=MO', { untilLocal: '2027-03-14 23:59:59' })).toBe(
      'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270314T235959',
    );
    const zone = resolveTimeZone('Europe/Berlin')!;
    const rule = parseRecurrence('FREQ=WEEKLY;UNTIL=20270314T235959', zone, '2027-03-01 10:00:00');
    expect(ruleForCalendar(rule, zone)).toBe('FREQ=WEEKLY;UNTIL=20270314T225959Z');
  });
});
