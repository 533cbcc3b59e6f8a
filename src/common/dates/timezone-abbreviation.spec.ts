import { IANAZone } from 'luxon';
import { tz } from 'moment-timezone';
import { timeZoneAbbreviation } from './timezone-abbreviation';
import { numericAbbreviation } from './timezone';
import generated from './timezone-abbreviations.json';

describe('timeZoneAbbreviation', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it.each([
    ['Europe/London', 'GMT', 'BST'],
    ['America/New_York', 'EST', 'EDT'],
    ['Asia/Hong_Kong', 'HKT', 'HKT'],
    ['Asia/Kolkata', 'IST', 'IST'],
    ['Australia/Sydney', 'AEDT', 'AEST'],
    ['Asia/Dubai', '+04', '+04'],
    ['Asia/Kathmandu', '+0545', '+0545'],
    ['America/St_Johns', 'NST', 'NDT'],
  ])('gives the tz database abbreviation of %s in winter and summer', (zone, january, july) => {
    expect(timeZoneAbbreviation(zone, winter)).toBe(january);
    expect(timeZoneAbbreviation(zone, summer)).toBe(july);
  });

  it('reads zone names in any case, and links as their zone', () => {
    expect(timeZoneAbbreviation('europe/paris', summer)).toBe('CEST');
    expect(timeZoneAbbreviation('US/Eastern', summer)).toBe('EDT');
    expect(timeZoneAbbreviation('Asia/Calcutta', summer)).toBe('IST');
  });

  it('keeps the name an offset had before the zone renamed it', () => {
    // Whitehorse was at -7 h as PDT in summer 2020 and has been at -7 h as MST since November 2020.
    expect(timeZoneAbbreviation('America/Whitehorse', new Date('2020-07-15T12:00:00Z'))).toBe('PDT');
    expect(timeZoneAbbreviation('America/Whitehorse', new Date('2021-01-15T12:00:00Z'))).toBe('MST');
    expect(timeZoneAbbreviation('America/Whitehorse', new Date('2021-07-15T12:00:00Z'))).toBe('MST');
  });

  it('gives manual offsets and unknown names back as given', () => {
    expect(timeZoneAbbreviation('UTC+2', winter)).toBe('UTC+2');
    expect(timeZoneAbbreviation('Mars/Olympus', winter)).toBe('Mars/Olympus');
    expect(timeZoneAbbreviation('UTC', winter)).toBe('UTC');
  });

  it('writes offsets without letters in the tz database numeric form', () => {
    expect([0, 240, -210, 345, -600, 840].map(numericAbbreviation)).toEqual(['+00', '+04', '-0330', '+0545', '-10', '+14']);
  });

  it('agrees with the tz database (moment-timezone) for every zone, twice a month from 2020 to 2030', () => {
    const names = [...new Set([...Object.keys(generated.zones), ...Intl.supportedValuesOf('timeZone')])];
    const instants: number[] = [];
    for (let year = 2020; year <= 2030; year++) {
      for (let month = 0; month < 12; month++) instants.push(Date.UTC(year, month, 1, 12), Date.UTC(year, month, 15, 12));
    }
    const differences: string[] = [];
    let compared = 0;
    for (const name of names) {
      const reference = tz.zone(name);
      if (!reference || !IANAZone.isValidZone(name)) continue;
      const zone = IANAZone.create(name);
      for (const at of instants) {
        // Where Node's ICU and moment-timezone ship different tzdata releases they may disagree on
        // the offset itself; the abbreviation then follows the offset the times are written in.
        if (zone.offset(at) !== -reference.utcOffset(at)) continue;
        compared++;
        const expected = reference.abbr(at);
        const actual = timeZoneAbbreviation(name, new Date(at));
        if (actual !== expected) differences.push(`${name} ${new Date(at).toISOString()}: ${actual}, tz database ${expected}`);
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(names.length * 200);
  });

  it('lists every zone ICU knows', () => {
    const missing = Intl.supportedValuesOf('timeZone').filter((name) => !tz.zone(name) && !(name in generated.zones));
    expect(missing).toEqual([]);
  });
});
