import { DateTime, Zone } from 'luxon';
import { numericAbbreviation, resolveTimeZone } from './timezone';
import generated from './timezone-abbreviations.json';

/**
 * The zone's abbreviation at an instant, as the original prints it (PHP's `T` format): the tz
 * database's own ("EST"/"EDT", "GMT"/"BST", "HKT", "IST", "AEST"/"AEDT", "+04" where the database
 * has no letters). ICU, which Node and luxon use, names many zones by offset instead ("GMT+8" for
 * Asia/Hong_Kong), so luxon gives the offset at the instant and timezone-abbreviations.json, written
 * from the tz database by scripts/generate-timezone-abbreviations.ts for 2000 to 2037, gives the
 * letters for that offset. An offset the table does not name (outside the window, or a tzdata
 * release newer than the table) gets the database's numeric form, so the letters always agree
 * with the offset the times are written in. Manual offsets ("UTC+2") and unknown names come back
 * as given; a zone ICU knows and the table does not gets luxon's short name.
 */
export function timeZoneAbbreviation(timezone: string, instant: Date): string {
  const zone = resolveTimeZone(timezone);
  if (!zone || zone.type === 'fixed') return timezone;
  const at = instant.getTime();
  const offset = zone.offset(at);
  const eras = ZONES.get(zone.name.toLowerCase());
  if (eras) return eraAt(eras, at).abbreviations[offset] ?? numericAbbreviation(offset);
  return outsideTable(timezone, zone, offset, instant);
}

type Era = { since?: string; abbreviations: Partial<Record<string, string>> };
type ParsedEra = { since: number; abbreviations: Partial<Record<string, string>> };

/** Names as the tz database spells them, looked up in any case as ICU accepts them. */
const ZONES = new Map<string, ParsedEra[]>(
  Object.entries(generated.zones as Record<string, Era[]>).map(([name, eras]) => [
    name.toLowerCase(),
    eras.map(({ since, abbreviations }) => ({ since: since === undefined ? -Infinity : Date.parse(since), abbreviations })),
  ]),
);

function eraAt(eras: ParsedEra[], at: number): ParsedEra {
  let index = eras.length - 1;
  while (index > 0 && eras[index].since > at) index--;
  return eras[index];
}

/** luxon's short name costs an Intl format; a zone's name follows its offset, so one serves every instant at it. */
function outsideTable(timezone: string, zone: Zone, offset: number, instant: Date): string {
  const key = `${timezone}|${offset}`;
  let abbreviation = fallbacks.get(key);
  if (abbreviation === undefined) {
    abbreviation = DateTime.fromJSDate(instant, { zone }).offsetNameShort ?? timezone;
    // The bound only keeps hostile zone names from growing the map.
    if (fallbacks.size >= MAX_FALLBACKS) fallbacks.clear();
    fallbacks.set(key, abbreviation);
  }
  return abbreviation;
}

const fallbacks = new Map<string, string>();
const MAX_FALLBACKS = 1000;
