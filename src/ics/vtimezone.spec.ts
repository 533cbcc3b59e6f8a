import { buildVTimezone, canonicalIanaZone, formatUtcOffset } from './vtimezone';

const lines = (component: string | null) => component?.split('\r\n') ?? [];

describe('buildVTimezone', () => {
  it('lists the 2027 daylight saving changes of New York at their local onset times', () => {
    const component = buildVTimezone('America/New_York', [new Date('2027-06-01T00:00:00Z'), new Date('2027-07-01T00:00:00Z')]);
    expect(lines(component)).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:America/New_York',
      'BEGIN:STANDARD',
      'DTSTART:20270101T000000',
      'TZOFFSETFROM:-0500',
      'TZOFFSETTO:-0500',
      'TZNAME:EST',
      'END:STANDARD',
      // Second Sunday of March, 2:00 EST; first Sunday of November, 2:00 EDT.
      'BEGIN:DAYLIGHT',
      'DTSTART:20270314T020000',
      'TZOFFSETFROM:-0500',
      'TZOFFSETTO:-0400',
      'TZNAME:EDT',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20271107T020000',
      'TZOFFSETFROM:-0400',
      'TZOFFSETTO:-0500',
      'TZNAME:EST',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('covers each year an instant falls in, starting each run of years on 1 January', () => {
    const component = buildVTimezone('Europe/Paris', [
      new Date('2027-12-31T12:00:00Z'),
      new Date('2028-03-01T00:00:00Z'),
      new Date('2030-01-05T00:00:00Z'),
    ]);
    const starts = lines(component).filter((line) => line.startsWith('DTSTART:'));
    // Last Sundays of March (2:00 CET) and October (3:00 CEST); nothing of 2029, which no instant is in.
    expect(starts).toEqual([
      'DTSTART:20270101T000000',
      'DTSTART:20270328T020000',
      'DTSTART:20271031T030000',
      'DTSTART:20280326T020000',
      'DTSTART:20281029T030000',
      'DTSTART:20300101T000000',
      'DTSTART:20300331T020000',
      'DTSTART:20301027T030000',
    ]);
  });

  it('looks at the years of the instants only, however far apart they are', () => {
    const component = lines(buildVTimezone('Europe/Paris', [new Date('2027-06-01T00:00:00Z'), new Date('9999-06-01T00:00:00Z')]));
    expect(component.filter((line) => line.startsWith('DTSTART:')).map((line) => line.slice(8, 12))).toEqual([
      '2027',
      '2027',
      '2027',
      '9999',
      '9999',
      '9999',
    ]);
  });

  it('gives a zone without daylight saving time one observance', () => {
    const component = lines(buildVTimezone('Asia/Hong_Kong', [new Date('2027-03-10T11:30:00Z'), new Date('2027-03-10T14:00:00Z')]));
    expect(component.filter((line) => line.startsWith('BEGIN:'))).toEqual(['BEGIN:VTIMEZONE', 'BEGIN:STANDARD']);
    expect(component).toEqual(expect.arrayContaining(['TZID:Asia/Hong_Kong', 'TZOFFSETFROM:+0800', 'TZOFFSETTO:+0800', 'TZNAME:HKT']));
  });

  it('spells zone names as the database does and leaves UTC and manual offsets out', () => {
    expect(canonicalIanaZone('europe/paris')).toBe('Europe/Paris');
    expect(buildVTimezone('europe/paris', [new Date()])).toContain('TZID:Europe/Paris');
    expect(canonicalIanaZone('UTC')).toBeNull();
    expect(canonicalIanaZone('UTC+2')).toBeNull();
    expect(buildVTimezone('UTC-5:30', [new Date()])).toBeNull();
    expect(buildVTimezone('Mars/Olympus_Mons', [new Date()])).toBeNull();
  });
});

describe('formatUtcOffset', () => {
  it.each([
    [480, '+0800'],
    [-300, '-0500'],
    [330, '+0530'],
    [-570, '-0930'],
    [0, '+0000'],
  ])('writes %p minutes as %p', (minutes, expected) => {
    expect(formatUtcOffset(minutes)).toBe(expected);
  });
});
