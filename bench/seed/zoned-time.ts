import type { Zone } from 'luxon';
import { formatInZone } from '../../src/common/dates/date-format';
import { wallClockToInstant } from '../../src/common/dates/date-input';
import { resolveTimeZone } from '../../src/common/dates/timezone';

const DAY_MS = 86_400_000;
const LAST_SECOND_OF_DAY_MS = DAY_MS - 1000;

/** `YYYY-MM-DD HH:MM:SS` of a UTC epoch value, read as UTC (also how wall-clock strings are built). */
export function utcWallClock(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
}

/** A wall-clock string read as if it were UTC, in ms: arithmetic on wall-clock times without zones. */
export function wallClockMs(local: string): number {
  return Date.UTC(
    Number(local.slice(0, 4)),
    Number(local.slice(5, 7)) - 1,
    Number(local.slice(8, 10)),
    Number(local.slice(11, 13)),
    Number(local.slice(14, 16)),
    Number(local.slice(17, 19)),
  );
}

/**
 * The service's own conversions (`wallClockToInstant`, `formatInZone`, as events.service.ts stores
 * an event), made cheap for a million events: luxon is asked once per zone and day, and days
 * without an offset change (all but two a year) are then plain arithmetic. Days with a change go
 * to luxon for every value, so DST gaps and repeated hours come out exactly as the service's.
 */
export class ZonedTime {
  private readonly zones = new Map<string, Zone>();
  /** Offset in ms for a zone and local day (wall-clock day) without a change, or null on change days. */
  private readonly localDayOffsets = new Map<string, number | null>();
  /** The same for a UTC day, for formatting instants. */
  private readonly utcDayOffsets = new Map<string, number | null>();

  zone(name: string): Zone {
    let zone = this.zones.get(name);
    if (!zone) {
      const resolved = resolveTimeZone(name);
      if (!resolved) throw new Error(`Unknown time zone ${name}`);
      zone = resolved;
      this.zones.set(name, zone);
    }
    return zone;
  }

  /** What the service stores for a wall-clock time given in `zoneName`: the instant and the wall clock it names. */
  fromWallClock(local: string, zoneName: string): { instantMs: number; local: string } {
    const localMs = wallClockMs(local);
    const dayKey = `${zoneName}|${local.slice(0, 10)}`;
    let offset = this.localDayOffsets.get(dayKey);
    if (offset === undefined) {
      offset = this.uniformOffsetOfLocalDay(local.slice(0, 10), localMs - (localMs % DAY_MS), zoneName);
      this.localDayOffsets.set(dayKey, offset);
    }
    if (offset !== null) return { instantMs: localMs - offset, local };
    const zone = this.zone(zoneName);
    const instant = wallClockToInstant(local, zone);
    return { instantMs: instant.getTime(), local: formatInZone(instant, zone) };
  }

  /** The wall clock of an instant in `zoneName`, as `formatInZone`. */
  toWallClock(instantMs: number, zoneName: string): string {
    const wholeSeconds = instantMs - (((instantMs % 1000) + 1000) % 1000);
    const utcDayStart = wholeSeconds - (((wholeSeconds % DAY_MS) + DAY_MS) % DAY_MS);
    const dayKey = `${zoneName}|${utcDayStart}`;
    let offset = this.utcDayOffsets.get(dayKey);
    if (offset === undefined) {
      offset = this.uniformOffsetOfUtcDay(utcDayStart, zoneName);
      this.utcDayOffsets.set(dayKey, offset);
    }
    if (offset !== null) return utcWallClock(wholeSeconds + offset);
    return formatInZone(new Date(instantMs), this.zone(zoneName));
  }

  private uniformOffsetOfLocalDay(date: string, localDayStartMs: number, zoneName: string): number | null {
    const zone = this.zone(zoneName);
    const first = wallClockToInstant(`${date} 00:00:00`, zone).getTime();
    const last = wallClockToInstant(`${date} 23:59:59`, zone).getTime();
    const firstOffset = localDayStartMs - first;
    const lastOffset = localDayStartMs + LAST_SECOND_OF_DAY_MS - last;
    if (firstOffset !== lastOffset) return null;
    // Midnight itself inside a gap would read back differently: leave such a day to luxon.
    if (formatInZone(new Date(first), zone) !== `${date} 00:00:00`) return null;
    return firstOffset;
  }

  private uniformOffsetOfUtcDay(utcDayStartMs: number, zoneName: string): number | null {
    const zone = this.zone(zoneName);
    const firstOffset = wallClockMs(formatInZone(new Date(utcDayStartMs), zone)) - utcDayStartMs;
    const lastInstant = utcDayStartMs + LAST_SECOND_OF_DAY_MS;
    const lastOffset = wallClockMs(formatInZone(new Date(lastInstant), zone)) - lastInstant;
    return firstOffset === lastOffset ? firstOffset : null;
  }
}
