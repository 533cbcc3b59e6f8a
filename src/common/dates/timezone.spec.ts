import { isValidTimeZone, resolveTimeZone } from './timezone';

describe('resolveTimeZone', () => {
  it('accepts IANA names and UTC', () => {
    expect(resolveTimeZone('Europe/Paris')?.name).toBe('Europe/Paris');
    expect(resolveTimeZone('UTC')?.offset(0)).toBe(0);
  });

  it('accepts WordPress manual offsets', () => {
    expect(resolveTimeZone('UTC+2')?.offset(0)).toBe(120);
    expect(resolveTimeZone('UTC-5:30')?.offset(0)).toBe(-330);
    expect(resolveTimeZone('UTC+5.5')?.offset(0)).toBe(330);
  });

  it('rejects names that are no zone', () => {
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('UTC+99')).toBe(false);
  });
});
