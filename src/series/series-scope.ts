import type { Zone } from 'luxon';
import { wallClockToInstant } from '../common/dates/date-input';
import { invalidParam } from '../common/errors/api-error';
import type { Event } from '../events/event.entity';
import type { EventSeriesOccurrence } from './event-series.entity';
import { expandRecurrence, ParsedRecurrence, plusWallClockSeconds, withEnd } from './recurrence-rule';

/**
 * Which occurrences of a series an edit, a delete or a ticket with a `scope` touches
 * (docs/recurring-events.md), decided on rows already read: no statement here. SeriesService reads
 * the rows, asks these, checks attendees and writes.
 */

export type SeriesScope = 'this' | 'following' | 'all';
const SCOPES: readonly SeriesScope[] = ['this', 'following', 'all'];

/** `scope` as sent; undefined when absent or empty (the default, `this`). */
export function readScope(raw: unknown): SeriesScope | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' && (SCOPES as readonly string[]).includes(raw)) return raw as SeriesScope;
  throw invalidParam('scope', 'scope must be this, following or all');
}

/** What the scope rules read of an occurrence row (the repository's OccurrenceRow is one). */
export interface ScopedRow {
  occurrence: Pick<EventSeriesOccurrence, 'eventId' | 'occurrenceLocal' | 'detached'>;
  event: Pick<Event, 'id' | 'status' | 'endUtc' | 'startLocal' | 'endLocal' | 'timezone'>;
}

/**
 * How far a write at one occurrence reaches: that occurrence alone (`this`, the default); it and
 * every later one (`following`: an edit splits the series there, a delete ends it there); or the
 * whole series (`all`, and `following` from the series' first occurrence, which is the same).
 */
export type ScopeReach = 'occurrence' | 'following' | 'series';

export function scopeReach(scope: SeriesScope | undefined, occurrenceLocal: string, seriesStartLocal: string): ScopeReach {
  if ((scope ?? 'this') === 'this') return 'occurrence';
  if (scope === 'all' || occurrenceLocal <= seriesStartLocal) return 'series';
  return 'following';
}

/** The events a ticket created with scope=all at `eventId` goes to: that one, and every other neither trashed nor ended at `now`. */
export function ticketTargets(rows: ScopedRow[], eventId: number, now: Date): number[] {
  return rows
    .filter(({ event }) => event.id === eventId || (event.status !== 'trash' && event.endUtc.getTime() > now.getTime()))
    .map(({ event }) => event.id);
}

/** The occurrences a series-wide edit applies to: those not edited on their own (detached) and not in the trash. */
export function seriesMembers<R extends ScopedRow>(rows: R[]): R[] {
  return rows.filter(({ occurrence, event }) => !occurrence.detached && event.status !== 'trash');
}

/**
 * An edit reaching `following` or `series` is sent at an occurrence that still follows the series:
 * one detached (edited on its own) or in the trash is outside what such edits change, so the edit
 * would change every other occurrence and not the one it was sent at (400 naming `scope`).
 */
export function assertFollowsSeries(row: ScopedRow, scope: SeriesScope): void {
  const why = row.occurrence.detached ? 'was edited on its own (detached)' : row.event.status === 'trash' ? 'is in the trash' : null;
  if (why)
    throw invalidParam(
      'scope',
      `scope=${scope} edits the occurrences that follow the series, and this one ${why}: edit it alone (scope=this), or send the edit for the series to another occurrence`,
    );
}

/**
 * The occurrence that becomes first when the series' first event is deleted for good: the earliest
 * of the others not in the trash; when only trashed ones are left, the earliest of them (trashing
 * the first event leaves a trashed first as well, and post_parent stays a real event that a
 * restore brings back); null when none is left.
 */
export function nextFirst<R extends ScopedRow>(rows: R[], removedEventId: number): R | null {
  const others = rows.filter(({ event }) => event.id !== removedEventId);
  return others.find(({ event }) => event.status !== 'trash') ?? others[0] ?? null;
}

/**
 * The occurrences a delete reaching `following` or `series` from `at` removes: every one from `at`
 * on (or every one), detached ones included; those already in the trash only when `force` deletes
 * them for good, and `at` itself always.
 */
export function occurrencesToRemove<R extends ScopedRow>(
  rows: R[],
  at: Pick<EventSeriesOccurrence, 'eventId' | 'occurrenceLocal'>,
  reach: Exclude<ScopeReach, 'occurrence'>,
  force: boolean,
): R[] {
  return rows.filter(
    (row) =>
      (reach === 'series' || row.occurrence.occurrenceLocal >= at.occurrenceLocal) &&
      (force || row.event.status !== 'trash' || row.event.id === at.eventId),
  );
}

/** The exdate list with a deleted occurrence's date in it, sorted when it was added. */
export function withExdate(exdates: string[], occurrenceLocal: string): string[] {
  return exdates.includes(occurrenceLocal) ? exdates : [...exdates, occurrenceLocal].sort();
}

/** A rule with its RDATE and EXDATE lists, as a series row stores them. */
export interface RecurrenceLists {
  rrule: string;
  rdate: string[];
  exdate: string[];
}

/** The series ended the second before `atLocal` (UNTIL, in place of any COUNT); its listed dates from then on dropped. */
export function endBefore(recurrence: RecurrenceLists, atLocal: string): RecurrenceLists {
  return {
    rrule: withEnd(recurrence.rrule, { untilLocal: plusWallClockSeconds(atLocal, -1) }),
    rdate: recurrence.rdate.filter((date) => date < atLocal),
    exdate: recurrence.exdate.filter((date) => date < atLocal),
  };
}

/**
 * The series split off at `atLocal`: the same rule, with what is left of a COUNT (the rule's own
 * occurrences before the split count, RDATE and EXDATE do not; at least 1), and the listed dates
 * from `atLocal` on.
 */
export function continueFrom(recurrence: ParsedRecurrence, seriesStartLocal: string, zone: Zone, atLocal: string): RecurrenceLists {
  let rrule = recurrence.rrule;
  if (recurrence.options.count) {
    const before = expandRecurrence(
      { ...recurrence, rdate: [], exdate: [] },
      seriesStartLocal,
      zone,
      { afterLocal: null, before: wallClockToInstant(atLocal, zone) },
      Number.MAX_SAFE_INTEGER,
    );
    rrule = withEnd(recurrence.rrule, { count: Math.max(1, recurrence.options.count - before.starts.length) });
  }
  return {
    rrule,
    rdate: recurrence.rdate.filter((date) => date >= atLocal),
    exdate: recurrence.exdate.filter((date) => date >= atLocal),
  };
}

/** A series-wide change of schedule, as the edited occurrence shows it. */
export interface ScheduleChange {
  editedEventId: number;
  /** How far the edited occurrence moved, in wall-clock seconds. */
  shiftSeconds: number;
  /** The starts of the series under its new rule, in order. */
  starts: string[];
  durationSeconds: number;
  timezone: string;
}

export interface ReschedulePlan<R> {
  /** Occurrences that keep their event, each on the start that falls on its day after the shift (the first one there wins). */
  moves: Array<{ row: R; start: string }>;
  /** Occurrences the new schedule leaves no start for: deleted. */
  removals: R[];
  /** The occurrences whose attendees stop the edit: those moves that change start, end or zone (the edited one aside), then the removals. */
  touched: R[];
}

/** Which occurrences a change of dates, zone or rule moves, keeps or deletes. */
export function planReschedule<R extends ScopedRow>(rows: R[], change: ScheduleChange): ReschedulePlan<R> {
  const byDay = new Map(change.starts.map((start) => [start.slice(0, 10), start]));
  const moves: Array<{ row: R; start: string }> = [];
  const removals: R[] = [];
  const taken = new Set<string>();
  for (const row of rows) {
    const day = plusWallClockSeconds(row.occurrence.occurrenceLocal, change.shiftSeconds).slice(0, 10);
    const start = byDay.get(day);
    if (start && !taken.has(start)) {
      taken.add(start);
      moves.push({ row, start });
    } else removals.push(row);
  }
  const moving = moves.filter(
    ({ row, start }) =>
      row.event.id !== change.editedEventId &&
      (row.event.startLocal !== start ||
        row.event.endLocal !== plusWallClockSeconds(start, change.durationSeconds) ||
        row.event.timezone !== change.timezone),
  );
  return { moves, removals, touched: [...moving.map(({ row }) => row), ...removals] };
}
