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
  const local = inZone(instant, zone);
  // Invalid instants and zones, and years that are not four digits: luxon's own answer.
  if (!local) return DateTime.fromJSDate(instant, { zone }).toFormat(WALL_CLOCK_FORMAT);
  return local.shifted.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The instant in ISO 8601 with its offset in `zone`, as luxon's
 * `DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true })` writes it (`Z` for
 * a fixed zone of offset 0, `+00:00` for a zone that is at 0 only for now), the same way as
 * formatInZone: the JSON-LD offers of a ticketed event are written on every single GET.
 */
export function formatIsoInZone(instant: Date, zone: Zone | string = 'UTC'): string {
  const local = inZone(instant, zone);
  if (!local) return DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true }) ?? instant.toISOString();
  const digits = local.shifted.toISOString();
  const milliseconds = local.shifted.getUTCMilliseconds() === 0 ? '' : digits.slice(19, 23);
  return `${digits.slice(0, 19)}${milliseconds}${offsetText(local.zone, local.offsetMinutes)}`;
}

/** The instant shifted by the zone's offset there (its UTC fields are the wall clock); undefined where luxon must answer. */
function inZone(instant: Date, zone: Zone | string): { shifted: Date; offsetMinutes: number; zone: Zone } | undefined {
  const at = instant.getTime();
  const resolved = zoneOf(zone);
  const offsetMinutes = zone === 'UTC' ? 0 : offsetAt(resolved, at);
  const shifted = offsetMinutes === 0 ? instant : new Date(at + offsetMinutes * 60_000);
  const year = shifted.getUTCFullYear();
  return year >= 1000 && year <= 9999 ? { shifted, offsetMinutes, zone: resolved } : undefined;
}

/** luxon's offset in an ISO date: `Z` for a fixed zone at 0, otherwise `±HH:MM`. */
function offsetText(zone: Zone, offsetMinutes: number): string {
  if (zone.isUniversal && offsetMinutes === 0) return 'Z';
  const minutes = Math.abs(Math.trunc(offsetMinutes));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
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
