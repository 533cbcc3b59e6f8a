import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { dateDetails, formatDayInZone, formatInZone, formatIsoInZone, WALL_CLOCK_FORMAT } from './date-format';

const luxonIso = (instant: Date, zone: string | FixedOffsetZone) =>
  DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true }) ?? instant.toISOString();

const luxonWallClock = (instant: Date, zone: string | FixedOffsetZone) =>
  DateTime.fromJSDate(instant, { zone }).toFormat(WALL_CLOCK_FORMAT);

// Zones with daylight saving either way, half- and quarter-hour offsets, a zone that skipped a day
// (Pacific/Apia, 2011) and local mean times of the 19th century (seconds in the offset).
const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Apia',
  'Pacific/Chatham',
  'Africa/Casablanca',
  'Europe/Dublin',
  'Asia/Kolkata',
  'America/Sao_Paulo',
];

describe('formatInZone', () => {
  it('writes what luxon writes, in every zone, for any instant of years 1000 to 9999', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1000, 0, 2), max: Date.UTC(9999, 11, 30) }), (zone, at) => {
        const instant = new Date(at);
        expect(formatInZone(instant, zone)).toBe(luxonWallClock(instant, zone));
      }),
      { numRuns: 5000 },
    );
  });

  it('writes what luxon writes around daylight-saving changes, to the second', () => {
    // 2026-03-29 01:00 UTC (Paris springs forward), 2026-11-01 06:00 UTC (New York falls back).
    for (const [zone, change] of [
      ['Europe/Paris', Date.UTC(2026, 2, 29, 1)],
      ['America/New_York', Date.UTC(2026, 10, 1, 6)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)],
    ] as const) {
      for (let second = -3; second <= 3; second += 1) {
        const instant = new Date(change + second * 1000);
        expect(formatInZone(instant, zone)).toBe(luxonWallClock(instant, zone));
      }
    }
    expect(formatInZone(new Date(Date.UTC(2026, 2, 29, 0, 59, 59)), 'Europe/Paris')).toBe('2026-03-29 01:59:59');
    expect(formatInZone(new Date(Date.UTC(2026, 2, 29, 1, 0, 0)), 'Europe/Paris')).toBe('2026-03-29 03:00:00');
  });

  it('answers from its kept offsets as luxon does: the same instant again, and in another zone', () => {
    const instants = [Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 10, 1, 6)].map((at) => new Date(at));
    for (let pass = 0; pass < 2; pass += 1) {
      for (const zone of ['Europe/Paris', 'America/New_York', 'Asia/Kolkata']) {
        for (const instant of instants) expect(formatInZone(instant, zone)).toBe(luxonWallClock(instant, zone));
      }
    }
    expect(formatInZone(instants[1], FixedOffsetZone.instance(-150))).toBe('2026-03-28 22:30:00');
  });

  it('takes a luxon zone object as well as a name', () => {
    const instant = new Date(Date.UTC(2026, 0, 15, 12, 30, 5));
    expect(formatInZone(instant, FixedOffsetZone.instance(330))).toBe('2026-01-15 18:00:05');
    expect(formatInZone(instant)).toBe('2026-01-15 12:30:05');
  });

  it('answers as luxon does for an invalid instant, an unknown zone and a year outside four digits', () => {
    const invalid = new Date(Number.NaN);
    expect(formatInZone(invalid, 'Europe/Paris')).toBe(luxonWallClock(invalid, 'Europe/Paris'));
    const instant = new Date(Date.UTC(2026, 0, 15));
    expect(formatInZone(instant, 'Mars/Olympus_Mons')).toBe(luxonWallClock(instant, 'Mars/Olympus_Mons'));
    const early = new Date(Date.UTC(999, 11, 31, 22));
    expect(formatInZone(early, 'Asia/Kolkata')).toBe(luxonWallClock(early, 'Asia/Kolkata'));
  });
});

describe('formatDayInZone', () => {
  it('is the calendar day in the zone', () => {
    const lateEvening = new Date(Date.UTC(2026, 5, 30, 23, 30));
    expect(formatDayInZone(lateEvening, 'UTC')).toBe('2026-06-30');
    expect(formatDayInZone(lateEvening, 'Europe/Paris')).toBe('2026-07-01');
    expect(formatDayInZone(lateEvening, 'America/New_York')).toBe('2026-06-30');
  });
});

describe('formatIsoInZone', () => {
  it('writes what luxon writes, in every zone, for any instant of years 1000 to 9999, with and without milliseconds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1000, 0, 2), max: Date.UTC(9999, 11, 30) }),
        fc.boolean(),
        (zone, at, wholeSecond) => {
          const instant = new Date(wholeSecond ? at - (at % 1000) : at);
          expect(formatIsoInZone(instant, zone)).toBe(luxonIso(instant, zone));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('writes Z for a fixed zone at 0 only, and fixed offsets either way, as luxon does', () => {
    const instant = new Date(Date.UTC(2026, 0, 15, 12, 30, 5));
    for (const zone of ['UTC', 'Europe/London', 'Etc/GMT', 'UTC+0', 'UTC-3:30', 'Etc/GMT+3', FixedOffsetZone.instance(-90)]) {
      expect(formatIsoInZone(instant, zone)).toBe(luxonIso(instant, zone));
    }
    expect(formatIsoInZone(instant, 'UTC')).toBe('2026-01-15T12:30:05Z');
    expect(formatIsoInZone(instant, 'Europe/London')).toBe('2026-01-15T12:30:05+00:00');
  });

  it('answers as luxon does for a year outside four digits and an unknown zone', () => {
    const early = new Date(Date.UTC(999, 11, 31, 23));
    expect(formatIsoInZone(early, 'Europe/Paris')).toBe(luxonIso(early, 'Europe/Paris'));
    const instant = new Date(Date.UTC(2026, 0, 15));
    expect(formatIsoInZone(instant, 'Not/AZone')).toBe(luxonIso(instant, 'Not/AZone'));
  });
});

describe('dateDetails', () => {
  it('splits a wall-clock value into zero-padded parts, and anything else into empty ones', () => {
    expect(dateDetails('2026-07-01 09:05:00')).toEqual({ year: '2026', month: '07', day: '01', hour: '09', minutes: '05', seconds: '00' });
    expect(dateDetails('soon')).toEqual({ year: '', month: '', day: '', hour: '', minutes: '', seconds: '' });
  });
});
