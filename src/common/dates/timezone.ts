import { FixedOffsetZone, IANAZone, Zone } from 'luxon';

const UTC_OFFSET_PATTERN = /^UTC([+-])(\d{1,2})(?:[:.](\d{1,2}))?$/i;

/**
 * Resolves a time zone as the original accepts it: an IANA name ("Europe/Paris"), "UTC",
 * or a WordPress-style manual offset ("UTC+2", "UTC-5:30", "UTC+5.5").
 * Returns null when the value names no zone.
 */
export function resolveTimeZone(name: string): Zone | null {
  let zone = resolvedZones.get(name);
  if (zone === undefined) {
    zone = readTimeZone(name);
    // Zones are immutable and few; the bound only keeps hostile input from growing the map.
    if (resolvedZones.size >= MAX_RESOLVED_ZONES) resolvedZones.clear();
    resolvedZones.set(name, zone);
  }
  return zone;
}

/**
 * Resolved names, kept: luxon checks an IANA name by building an Intl.DateTimeFormat, a few
 * hundred microseconds that every event of every response paid again.
 */
const resolvedZones = new Map<string, Zone | null>();
const MAX_RESOLVED_ZONES = 1000;

function readTimeZone(name: string): Zone | null {
  const trimmed = name.trim();
  if (trimmed === '') return null;
  if (/^utc$/i.test(trimmed)) return FixedOffsetZone.utcInstance;
  const offset = UTC_OFFSET_PATTERN.exec(trimmed);
  if (offset) {
    const sign = offset[1] === '-' ? -1 : 1;
    const hours = Number(offset[2]);
    const fraction = offset[3] ?? '0';
    // "UTC+5.5" means five and a half hours, "UTC+5:30" means five hours thirty.
    const minutes = trimmed.includes('.') ? Math.round(Number(`0.${fraction}`) * 60) : Number(fraction);
    if (hours > 14 || minutes >= 60) return null;
    return FixedOffsetZone.instance(sign * (hours * 60 + minutes));
  }
  return IANAZone.isValidZone(trimmed) ? IANAZone.create(trimmed) : null;
}

export function isValidTimeZone(name: string): boolean {
  return resolveTimeZone(name) !== null;
}

/**
 * The tz database's name for an offset that has no letters (`%z`): "+04", "-0330", "+0545";
 * minutes east of UTC in, hours and only non-zero minutes out.
 */
export function numericAbbreviation(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  const hours = String(Math.floor(minutes / 60)).padStart(2, '0');
  return minutes % 60 === 0 ? `${sign}${hours}` : `${sign}${hours}${String(minutes % 60).padStart(2, '0')}`;
}
