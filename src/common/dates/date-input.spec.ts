import { FixedOffsetZone, IANAZone } from 'luxon';
import { parseDateInput, wallClockToInstant, withTimeOfDay } from './date-input';

const hongKong = IANAZone.create('Asia/Hong_Kong');
const newYork = IANAZone.create('America/New_York');
const utc = FixedOffsetZone.utcInstance;

describe('parseDateInput', () => {
  it('reads wall-clock strings in the given zone', () => {
    const parsed = parseDateInput('2027-01-15 10:00:00', hongKong);
    expect(parsed?.local).toBe('2027-01-15 10:00:00');
    expect(parsed?.instant.toISOString()).toBe('2027-01-15T02:00:00.000Z');
    expect(parsed?.dateOnly).toBe(false);
  });

  it('accepts minutes without seconds, a T separator and a date alone', () => {
    expect(parseDateInput('2027-01-15 10:30', utc)?.local).toBe('2027-01-15 10:30:00');
    expect(parseDateInput('2027-01-15T10:30:05', utc)?.local).toBe('2027-01-15 10:30:05');
    const dateOnly = parseDateInput('2027-02-01', utc);
    expect(dateOnly).toMatchObject({ local: '2027-02-01 00:00:00', dateOnly: true });
  });

  it('reads ISO 8601 with an offset as that instant, shown in the zone', () => {
    const parsed = parseDateInput('2027-01-15T10:00:00+01:00', hongKong);
    expect(parsed?.instant.toISOString()).toBe('2027-01-15T09:00:00.000Z');
    expect(parsed?.local).toBe('2027-01-15 17:00:00');
    expect(parseDateInput('2027-01-15T10:00:00Z', utc)?.local).toBe('2027-01-15 10:00:00');
  });

  it('reads unix timestamps in seconds, as strings or numbers', () => {
    expect(parseDateInput('1800000000', utc)?.instant.toISOString()).toBe('2027-01-15T08:00:00.000Z');
    expect(parseDateInput(1800000000, hongKong)?.local).toBe('2027-01-15 16:00:00');
  });

  it.each(['', 'tomorrow', '2027-02-30', '2027-13-01', '2027-01-15 25:00', '12345', 'x2027-01-01', '2027-01-15T10:00:00+99:00'])(
    'rejects %p',
    (value) => {
      expect(parseDateInput(value, utc)).toBeNull();
    },
  );

  it('rejects values that are not strings or integers', () => {
    expect(parseDateInput({}, utc)).toBeNull();
    expect(parseDateInput(1.5, utc)).toBeNull();
    expect(parseDateInput(null, utc)).toBeNull();
  });

  it('moves a wall-clock time skipped by a DST change forward by the gap', () => {
    // 2027-03-14 02:30 does not exist in New York (clocks jump from 02:00 to 03:00).
    const parsed = parseDateInput('2027-03-14 02:30:00', newYork);
    expect(parsed?.local).toBe('2027-03-14 03:30:00');
    expect(parsed?.instant.toISOString()).toBe('2027-03-14T07:30:00.000Z');
  });
});

describe('wallClockToInstant and withTimeOfDay', () => {
  it('converts a wall-clock value back to its instant', () => {
    expect(wallClockToInstant('2027-07-01 12:00:00', newYork).toISOString()).toBe('2027-07-01T16:00:00.000Z');
  });

  it('snaps to the start or end of the day', () => {
    expect(withTimeOfDay('2027-07-01 12:34:56', '00:00:00')).toBe('2027-07-01 00:00:00');
    expect(withTimeOfDay('2027-07-01 12:34:56', '23:59:59')).toBe('2027-07-01 23:59:59');
  });
});
