import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LRUCache } from 'lru-cache';
import { DateTime, Info, Zone } from 'luxon';

/** `YYYY-MM-DD HH:MM:SS`, the only date format of responses. */
export const WALL_CLOCK_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** Zero-padded parts of a date, all strings. */
@ApiSchema({ name: 'DateDetails' })
export class DateDetails {
  @ApiProperty() year: string;
  @ApiProperty() month: string;
  @ApiProperty() day: string;
  @ApiProperty() hour: string;
  @ApiProperty() minutes: string;
  @ApiProperty() seconds: string;
}

/**
 * The instant as wall-clock time in `zone` (UTC when omitted), as luxon's
 * `DateTime.fromJSDate(instant, { zone }).toFormat(WALL_CLOCK_FORMAT)` writes it.
 *
 * luxon's zone gives the offset; the shifted instant's ISO form gives the digits. That is luxon's
 * own arithmetic (it shifts the instant by the zone's offset and reads its UTC fields) without its
 * formatter, which parses the format and formats each number for every call: in a profile of the
 * manager's tickets list, 25 tickets a page with their dates in the site's zone, luxon took 15 % of
 * the CPU, its formatter more than half of that.
 */
export function formatInZone(instant: Date, zone: Zone | string = 'UTC'): string {
  const at = instant.getTime();
  const offsetMinutes = zone === 'UTC' ? 0 : offsetAt(zoneOf(zone), at);
  const shifted = offsetMinutes === 0 ? instant : new Date(at + offsetMinutes * 60_000);
  const year = shifted.getUTCFullYear();
  // Invalid instants and zones, and years that are not four digits: luxon's own answer.
  if (!(year >= 1000 && year <= 9999)) return DateTime.fromJSDate(instant, { zone }).toFormat(WALL_CLOCK_FORMAT);
  return shifted.toISOString().slice(0, 19).replace('T', ' ');
}

/** The calendar day of the instant in `zone`, `YYYY-MM-DD`. */
export function formatDayInZone(instant: Date, zone: Zone | string = 'UTC'): string {
  return formatInZone(instant, zone).slice(0, 10);
}

/**
 * A zone's offset at an instant, in minutes. luxon asks Intl for it on every call (formatToParts:
 * 5 % of the CPU of a manager's attendees list, whose 25 attendees show their tickets' sale dates),
 * and lists show the same instants again and again: the same tickets' dates, the same check-ins.
 */
const knownOffsets = new LRUCache<string, number, { zone: Zone; at: number }>({
  max: 20_000,
  memoMethod: (_key, _stale, { context }) => context.zone.offset(context.at),
});

function offsetAt(zone: Zone, at: number): number {
  return knownOffsets.memo(`${zone.name} ${at}`, { context: { zone, at } });
}

function zoneOf(zone: Zone | string): Zone {
  // luxon keeps one zone object per name; an unknown name is an invalid zone whose offset is NaN.
  return typeof zone === 'string' ? Info.normalizeZone(zone) : zone;
}

/** Zero-padded string parts of a `YYYY-MM-DD HH:MM:SS` value, as the original's `*_details`. */
export function dateDetails(wallClock: string): DateDetails {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wallClock);
  if (!match) return { year: '', month: '', day: '', hour: '', minutes: '', seconds: '' };
  const [, year, month, day, hour, minutes, seconds] = match;
  return { year, month, day, hour, minutes, seconds };
}
