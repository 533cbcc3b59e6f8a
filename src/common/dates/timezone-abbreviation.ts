import { tz } from 'moment-timezone';
import { DateTime } from 'luxon';
import { resolveTimeZone } from './timezone';

/**
 * The zone's abbreviation at an instant, as the original prints it (PHP's `T` format): the tz
 * database's own ("EST"/"EDT", "GMT"/"BST", "HKT", "IST", "AEST"/"AEDT", "+04" where the database
 * has no letters). ICU, which Node and luxon use, names many zones by offset instead ("GMT+8" for
 * Asia/Hong_Kong), so the abbreviations come from the tz database that moment-timezone ships.
 * Manual offsets ("UTC+2") and unknown names come back as given.
 */
export function timeZoneAbbreviation(timezone: string, instant: Date): string {
  const zone = resolveTimeZone(timezone);
  if (!zone || zone.type === 'fixed') return timezone;
  // A zone's abbreviation follows its offset (EST/EDT), so one lookup serves every instant at that offset.
  const key = `${timezone}|${zone.offset(instant.getTime())}`;
  let abbreviation = abbreviations.get(key);
  if (abbreviation === undefined) {
    abbreviation = tz.zone(zone.name)?.abbr(instant.getTime()) ?? DateTime.fromJSDate(instant, { zone }).offsetNameShort ?? timezone;
    // The bound only keeps hostile zone names from growing the map.
    if (abbreviations.size >= MAX_ABBREVIATIONS) abbreviations.clear();
    abbreviations.set(key, abbreviation);
  }
  return abbreviation;
}

const abbreviations = new Map<string, string>();
const MAX_ABBREVIATIONS = 1000;
