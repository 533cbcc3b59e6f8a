import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { formatInZone } from '../common/dates/date-format';
import { wallClockToInstant } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { ApiError } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { EventRelationsLoader } from '../events/event-relations.loader';
import { Event } from '../events/event.entity';
import { EventReads } from '../catalogue/event-reads.service';
import { buildSeriesCalendar } from '../ics/event-calendar';
import type { IcsFile } from '../ics/events-ics.service';
import { inlineHtmlToText } from '../ics/plain-text';
import { canonicalIanaZone } from '../ics/vtimezone';
import { plusWallClockSeconds, ruleForCalendar } from './recurrence-rule';
import { SeriesService } from './series.service';
import { canReadPost } from '../access/post-access';

function basic(local: string): string {
  return local.replace(/-|:/g, '').replace(' ', 'T');
}

/**
 * The iCalendar file of a series: the first event with RRULE, EXDATE (deleted occurrences and
 * those the caller may not read included) and RDATE, and each occurrence that differs from the
 * rule as its own VEVENT with RECURRENCE-ID.
 */
@Injectable()
export class SeriesCalendarService {
  constructor(
    private readonly series: SeriesService,
    private readonly events: EventReads,
    private readonly relations: EventRelationsLoader,
  ) {}

  async file(seriesId: number, context: RequestContext, url: string): Promise<IcsFile> {
    const found = await this.series.findForCalendar(seriesId);
    if (!found) throw new ApiError('series-not-found', `Series with ID ${seriesId} does not exist.`, 404);
    const { series, recurrence, occurrences } = found;
    const firstId = series.firstEventId ?? occurrences[0]?.event.id;
    if (firstId === undefined) throw new ApiError('series-not-found', `Series with ID ${seriesId} has no events.`, 404);
    // The series is readable as its first event is (same 403 and 404 answers).
    const master = await this.events.findReadableWithRelations({ id: firstId }, context);
    const zone = resolveTimeZone(series.timezone)!;
    const calendarZone = master.event.allDay ? null : canonicalIanaZone(series.timezone);
    const format = (locals: string[]): string => {
      if (master.event.allDay) return `;VALUE=DATE:${locals.map((local) => basic(local).slice(0, 8)).join(',')}`;
      if (calendarZone) return `;TZID=${calendarZone}:${locals.map(basic).join(',')}`;
      return `:${locals.map((local) => DateTime.fromJSDate(wallClockToInstant(local, zone), { zone: 'UTC' }).toFormat("yyyyMMdd'T'HHmmss'Z'")).join(',')}`;
    };

    const shown = occurrences.filter(({ event }) => event.status !== 'trash' && canReadPost(context.user, event, event.id));
    const hidden = occurrences.filter((row) => !shown.includes(row)).map(({ occurrence }) => occurrence.occurrenceLocal);
    const exdates = [...new Set([...recurrence.exdate, ...hidden])].sort();
    const ruleLines = [`RRULE:${ruleForCalendar(recurrence, zone)}`];
    if (exdates.length) ruleLines.push(`EXDATE${format(exdates)}`);
    if (recurrence.rdate.length) ruleLines.push(`RDATE${format(recurrence.rdate)}`);

    const endLocal = plusWallClockSeconds(series.startLocal, series.durationSeconds);
    const startUtc = wallClockToInstant(series.startLocal, zone);
    const masterEvent = Object.assign(new Event(), master.event, {
      startLocal: formatInZone(startUtc, zone),
      endLocal: formatInZone(wallClockToInstant(endLocal, zone), zone),
      startUtc,
      endUtc: wallClockToInstant(endLocal, zone),
    });
    const differing = shown.filter(({ occurrence, event }) => occurrence.detached || event.startLocal !== occurrence.occurrenceLocal);
    const related = await this.relations.load(differing.map(({ event }) => event.id));
    const recurrenceId = (local: string) =>
      master.event.allDay
        ? new Date(`${local.slice(0, 10)}T00:00:00Z`)
        : calendarZone
          ? DateTime.fromJSDate(wallClockToInstant(local, zone), { zone: calendarZone })
          : wallClockToInstant(local, zone);
    const body = buildSeriesCalendar(
      {
        uid: `series-${series.id}@${new URL(context.origin).hostname}`,
        master: { event: masterEvent, relations: master.relations },
        ruleLines,
        overrides: differing.map(({ occurrence, event }) => ({
          event,
          relations: related.get(event.id)!,
          recurrenceId: recurrenceId(occurrence.occurrenceLocal),
        })),
        instants: shown.flatMap(({ event }) => [event.startUtc, event.endUtc]),
      },
      { name: inlineHtmlToText(master.event.title), url, context },
    );
    return { body, total: shown.length, filename: `series-${series.id}.ics` };
  }
}
