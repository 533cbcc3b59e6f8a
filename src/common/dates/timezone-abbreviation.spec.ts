import { timeZoneAbbreviation } from './timezone-abbreviation';

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
  ])('gives the tz database abbreviation of %s in winter and summer', (zone, january, july) => {
    expect(timeZoneAbbreviation(zone, winter)).toBe(january);
    expect(timeZoneAbbreviation(zone, summer)).toBe(july);
  });

  it('gives manual offsets and unknown names back as given', () => {
    expect(timeZoneAbbreviation('UTC+2', winter)).toBe('UTC+2');
    expect(timeZoneAbbreviation('Mars/Olympus', winter)).toBe('Mars/Olympus');
    expect(timeZoneAbbreviation('UTC', winter)).toBe('UTC');
  });
});
