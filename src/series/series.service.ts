import { DeclaredFieldValues, seriesCopiedFields } from '../events/event-fields';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DateTime, Zone } from 'luxon';
import type { AuthenticatedUser } from '../auth/roles';
import { isRole } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { formatInZone } from '../common/dates/date-format';
import { parseDateInput } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { TransactionOptions } from '../common/database/transactions';
import { ApiError, invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { slugify } from '../posts/slugs';
import { appConfig } from '../config/app.config';
import { CreateEventDto } from '../events/dto/create-event.dto';
import { UpdateEventDto } from '../events/dto/update-event.dto';
import { Event } from '../events/event.entity';
import type { EventResponse } from '../events/dto/event.response';
import { EventSelector, EventsService } from '../events/events.service';
import { DomainEvents } from '../common/domain-events/domain-events';
import { CreateTicketDto } from '../tickets/dto/create-ticket.dto';
import { TicketsService } from '../tickets/tickets.service';
import { EventSeries, EventSeriesOccurrence } from './event-series.entity';
import {
  expandRecurrence,
  MAX_OCCURRENCES_PER_WRITE,
  ParsedRecurrence,
  parseRecurrence,
  parseRule,
  plusWallClockSeconds,
  wallClockSecondsBetween,
} from './recurrence-rule';
import { seriesConfig } from './series.config';
import { OccurrenceRow, SeriesRepository } from './series.repository';
import {
  assertFollowsSeries,
  continueFrom,
  endBefore,
  nextFirst,
  occurrencesToRemove,
  planReschedule,
  readScope,
  scopeReach,
  seriesMembers,
  withExdate,
} from './series-scope';
import { TransactionHost } from '../common/database/transaction-host';
import { assertCanEdit } from '../access/post-access';

/** As event writes (see EventsService): no gap locks between writers of neighbouring link rows. */
const SERIES_WRITE: TransactionOptions = { readCommitted: true };

/** The event fields every new occurrence of a series gets: those of the event the series was made or last edited from. */
export interface SeriesTemplate extends DeclaredFieldValues {
  title: string;
  description: string;
  excerpt: string;
  image: string;
  website: string;
  cost: string;
  status: Event['status'];
  author: number;
  all_day: boolean;
  /** The slug occurrences' slugs start with (the date follows). */
  slug: string;
  venue: number[];
  organizer: number[];
  categories: number[];
  tags: number[];
  /** Tickets created on the series (scope=all), as sent without post_id: each new occurrence gets them. */
  tickets?: Array<Record<string, unknown>>;
}

/** Fields of an update that change when and how often a series happens. */
const SCHEDULE_FIELDS = ['start_date', 'end_date', 'timezone', 'all_day', 'recurrence'] as const;

function jsonList(text: string): string[] {
  return JSON.parse(text) as string[];
}

/**
 * Recurring events (docs/recurring-events.md). A series is a rule plus one real event per
 * occurrence. The first is written through the events service's single-event path; the others,
 * and those the horizon job or an edit adds, through its bulk path (createManyWithin), inside the
 * same transaction, so that whatever event writes maintain (term counts, count generations, read
 * models) holds for occurrences too, in a number of statements that does not grow with them.
 */
@Injectable()
export class SeriesService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(seriesConfig.KEY) private readonly settings: ConfigType<typeof seriesConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: EventsService,
    private readonly tickets: TicketsService,
    private readonly domainEvents: DomainEvents,
    private readonly repository: SeriesRepository,
  ) {}

  /** A series with its first event and every occurrence, for the iCalendar file of the series. */
  async findForCalendar(
    seriesId: number,
  ): Promise<{ series: EventSeries; recurrence: ParsedRecurrence; occurrences: OccurrenceRow[] } | null> {
    const series = await this.repository.findById(seriesId);
    if (!series) return null;
    const occurrences = await this.repository.occurrences(series.id);
    return { series, recurrence: this.parsedRecurrence(series), occurrences };
  }

  // ---------------------------------------------------------------- creating

  async create(input: CreateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    const first = await this.tx.run(async () => {
      const slugBase = slugify(input.slug ?? input.title ?? '') || 'event';
      const first = await this.events.createWithin({ ...input, slug: `${slugBase}-${this.slugDate(input)}` }, user);
      const zone = resolveTimeZone(first.timezone)!;
      const recurrence = parseRecurrence(input.recurrence, zone, first.startLocal);
      if (recurrence.exdate.includes(first.startLocal))
        throw invalidParam('recurrence', 'exdate may not leave out the first occurrence (start_date)');
      const template = await this.templateOf(first, slugBase);
      const values = {
        firstEventId: first.id,
        authorId: first.authorId!,
        timezone: first.timezone,
        startLocal: first.startLocal,
        durationSeconds: wallClockSecondsBetween(first.startLocal, first.endLocal),
        rrule: recurrence.rrule,
        rdates: JSON.stringify(recurrence.rdate),
        exdates: JSON.stringify(recurrence.exdate),
        template: JSON.stringify(template),
        expandedUntil: this.horizon(first.startUtc),
        exhausted: false,
        claimedUntil: null,
      };
      const { starts, exhausted } = expandRecurrence(recurrence, values.startLocal, zone, {
        afterLocal: null,
        before: values.expandedUntil,
      });
      const series = await this.repository.insertSeries({ ...values, exhausted });
      await this.repository.insertOccurrence({
        eventId: first.id,
        seriesId: series.id,
        occurrenceLocal: first.startLocal,
        detached: false,
      });
      const occurrences = await this.createOccurrences(
        series,
        template,
        starts.filter((start) => start !== first.startLocal),
        user,
      );
      await this.domainEvents.publish({
        kind: 'SeriesOccurrencesCreated',
        reason: 'created',
        series,
        occurrences: [first, ...occurrences],
      });
      return first;
    }, SERIES_WRITE);
    return this.events.respond(first, context);
  }

  /** The date part of the first occurrence's slug, from start_date as sent (the create validates it). */
  private slugDate(input: CreateEventDto): string {
    const zone = resolveTimeZone(input.timezone?.trim() || this.config.siteTimezone) ?? resolveTimeZone('UTC')!;
    return parseDateInput(input.start_date, zone)?.local.slice(0, 10) ?? 'series';
  }

  /** The end of the horizon: now plus RECURRENCE_HORIZON_MONTHS, and at least past `atLeast`. */
  private horizon(atLeast?: Date): Date {
    const end = DateTime.fromJSDate(this.clock.now()).plus({ months: this.settings.horizonMonths }).toJSDate();
    return atLeast && atLeast.getTime() >= end.getTime() ? new Date(atLeast.getTime() + 1000) : end;
  }

  private async templateOf(event: Event, slug: string): Promise<SeriesTemplate> {
    const links = await this.repository.templateLinks(event.id);
    return {
      title: event.title,
      description: event.description ?? '',
      excerpt: event.excerpt ?? '',
      image: event.image ?? '',
      website: event.website ?? '',
      cost: event.cost ?? '',
      status: event.status,
      author: event.authorId!,
      all_day: event.allDay,
      ...seriesCopiedFields(event),
      slug,
      venue: links.venueIds,
      organizer: links.organizerIds,
      categories: links.categoryIds,
      tags: links.tagIds,
    };
  }

  /**
   * One event per start, with the template's links, terms and tickets, and their occurrence rows,
   * in a number of statements that does not grow with the number of starts (the events service's
   * and tickets service's bulk creates).
   */
  private async createOccurrences(
    series: EventSeries,
    template: SeriesTemplate,
    starts: string[],
    user: AuthenticatedUser,
  ): Promise<Event[]> {
    if (starts.length === 0) return [];
    const { slug, tickets, ...fields } = template;
    const input: Omit<CreateEventDto, 'start_date' | 'end_date' | 'slug'> = { ...fields, timezone: series.timezone };
    const created = await this.events.createManyWithin(
      input,
      starts.map((start) => ({
        slug: `${slug}-${start.slice(0, 10)}`,
        start_date: start,
        end_date: plusWallClockSeconds(start, series.durationSeconds),
      })),
      user,
      series.firstEventId,
    );
    for (const ticket of tickets ?? []) await this.tickets.createCopiesWithin(ticket as Omit<CreateTicketDto, 'post_id'>, created, user);
    await this.repository.insertOccurrences(
      created.map((event, index) => ({ eventId: event.id, seriesId: series.id, occurrenceLocal: starts[index], detached: false })),
    );
    return created;
  }

  // ---------------------------------------------------------------- horizon

  /**
   * Creates the occurrences of one series that came into the horizon since it was last extended.
   * The caller holds the series' claim; the series row is read again under a lock.
   */
  async extend(seriesId: number): Promise<number> {
    return this.tx.run(async () => {
      const series = await this.repository.lockSeries(seriesId);
      const horizon = this.horizon();
      if (!series || series.exhausted || series.expandedUntil.getTime() >= horizon.getTime()) return 0;
      const author = await this.repository.findAuthor(series.authorId);
      if (!author || !isRole(author.role)) {
        // Nobody may write the occurrences of a series whose author is gone: it stops growing.
        await this.repository.markExhausted(series.id);
        return 0;
      }
      const zone = resolveTimeZone(series.timezone)!;
      const afterLocal = formatInZone(new Date(series.expandedUntil.getTime() - 1000), zone);
      const { starts, exhausted } = expandRecurrence(this.parsedRecurrence(series), series.startLocal, zone, {
        afterLocal,
        before: horizon,
      });
      const existing = new Set(await this.repository.occurrenceDates(series.id));
      const fresh = starts.filter((start) => !existing.has(start));
      const user: AuthenticatedUser = { id: author.id, login: author.login, role: author.role };
      const created = await this.createOccurrences(series, JSON.parse(series.template) as SeriesTemplate, fresh, user);
      await this.domainEvents.publish({ kind: 'SeriesOccurrencesCreated', reason: 'extended', series, occurrences: created });
      await this.repository.markExtended(series.id, horizon, exhausted);
      return fresh.length;
    }, SERIES_WRITE);
  }

  /** Series whose horizon is behind and that no instance holds, oldest horizon first. */
  async dueSeries(limit: number): Promise<number[]> {
    const now = this.clock.now();
    return this.repository.dueSeries(this.horizon(), now, limit);
  }

  /** Takes the series for this instance for `seconds`, unless another holds it: one conditional UPDATE. */
  async claim(seriesId: number, seconds: number): Promise<boolean> {
    const now = this.clock.now();
    return this.repository.claim(seriesId, new Date(now.getTime() + seconds * 1000), now);
  }

  // ---------------------------------------------------------------- editing

  async update(
    selector: EventSelector,
    input: UpdateEventDto,
    rawScope: unknown,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<EventResponse | null> {
    const scope = readScope(rawScope);
    const located = await this.repository.locate(selector);
    if (!located) {
      if (scope === 'following' || scope === 'all')
        throw invalidParam('scope', `scope=${scope} applies to occurrences of a series; this event is none`);
      if (input.recurrence !== undefined && input.recurrence !== null) {
        throw invalidParam('recurrence', 'recurrence is set when an event is created; an existing event cannot become a series');
      }
      return null;
    }
    if ((scope ?? 'this') === 'this' && input.recurrence !== undefined && input.recurrence !== null) {
      throw invalidParam('recurrence', 'recurrence changes with scope=all or scope=following');
    }
    const saved = await this.tx.run(async () => {
      const series = await this.repository.lockSeries(located.seriesId);
      const occurrence = await this.repository.occurrenceOfEvent(located.eventId);
      if (!series || !occurrence) throw new ApiError('rest-event-not-found', `Event with ID ${located.eventId} does not exist.`, 404);
      const reach = scopeReach(scope, occurrence.occurrenceLocal, series.startLocal);
      if (reach === 'occurrence') {
        const event = await this.events.updateWithin({ id: occurrence.eventId }, input, user);
        if (!occurrence.detached) await this.repository.detach(occurrence.eventId);
        return event;
      }
      const edited = await this.repository.findEvent(occurrence.eventId);
      assertCanEdit(user, edited!, edited!.id);
      assertFollowsSeries({ occurrence, event: edited! }, scope!);
      const target = reach === 'following' ? await this.split(series, occurrence) : series;
      await this.applyToSeries(target, occurrence, input, user, context);
      return (await this.repository.findEvent(occurrence.eventId)) ?? edited!;
    }, SERIES_WRITE);
    return this.events.respond(saved, context);
  }

  /**
   * Splits a series at an occurrence: the old one ends before it (UNTIL), a new one holds it and
   * every later occurrence, with the rest of a COUNT, and has it as first event.
   */
  private async split(series: EventSeries, at: EventSeriesOccurrence): Promise<EventSeries> {
    const zone = resolveTimeZone(series.timezone)!;
    const recurrence = this.parsedRecurrence(series);
    const rest = continueFrom(recurrence, series.startLocal, zone, at.occurrenceLocal);
    const successor = await this.repository.insertSeries({
      firstEventId: at.eventId,
      authorId: series.authorId,
      timezone: series.timezone,
      startLocal: at.occurrenceLocal,
      durationSeconds: series.durationSeconds,
      rrule: rest.rrule,
      rdates: JSON.stringify(rest.rdate),
      exdates: JSON.stringify(rest.exdate),
      template: series.template,
      expandedUntil: series.expandedUntil,
      exhausted: series.exhausted,
      claimedUntil: null,
    });
    await this.repository.moveOccurrences(series.id, successor.id, at.occurrenceLocal);
    await this.repository.reparent(successor);
    this.endBefore(series, at.occurrenceLocal);
    await this.repository.save(series);
    return successor;
  }

  /**
   * scope=all (or following, on the series split off): the update applies to every occurrence not
   * detached. A change of dates, zone or rule moves the series by the edited occurrence's shift and
   * expands it again: occurrences on a date the new rule keeps move there, others are deleted,
   * new dates get new events. Occurrences with attendees that would move or go stop it all (409).
   */
  private async applyToSeries(
    series: EventSeries,
    edited: EventSeriesOccurrence,
    input: UpdateEventDto,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<void> {
    const occurrences = seriesMembers(await this.repository.occurrences(series.id));
    const fields: UpdateEventDto = { ...input };
    for (const name of [...SCHEDULE_FIELDS, 'slug'] as const) delete fields[name];
    const scheduleChanged = SCHEDULE_FIELDS.some((name) => input[name] !== undefined && input[name] !== null);

    if (!scheduleChanged) {
      for (const { event } of occurrences) await this.events.updateWithin({ id: event.id }, fields, user);
      await this.refreshTemplate(series, (await this.repository.findEvent(edited.eventId))!);
      return;
    }

    // As it was: the edited occurrence follows the series (assertFollowsSeries), so it is among them.
    const editedEvent = occurrences.find(({ occurrence }) => occurrence.eventId === edited.eventId)!.event;
    // The edited occurrence with its new schedule, through the single-event path (validates it).
    const probe = await this.events.updateWithin({ id: edited.eventId }, { ...fields, ...pickSchedule(input) }, user);
    const zoneName = probe.timezone;
    const zone = resolveTimeZone(zoneName)!;
    const shift = wallClockSecondsBetween(edited.occurrenceLocal, probe.startLocal);
    const startLocal = plusWallClockSeconds(series.startLocal, shift);
    const durationSeconds = wallClockSecondsBetween(probe.startLocal, probe.endLocal);
    const old = this.parsedRecurrence(series);
    const recurrence: ParsedRecurrence =
      input.recurrence !== undefined && input.recurrence !== null
        ? parseRecurrence(input.recurrence, zone, startLocal)
        : {
            ...old,
            rdate: old.rdate.map((date) => plusWallClockSeconds(date, shift)),
            exdate: old.exdate.map((date) => plusWallClockSeconds(date, shift)),
          };
    const before = new Date(Math.max(series.expandedUntil.getTime(), this.horizon().getTime()));
    const { starts, exhausted } = expandRecurrence(recurrence, startLocal, zone, { afterLocal: null, before });

    const { moves, removals, touched } = planReschedule(occurrences, {
      editedEventId: edited.eventId,
      shiftSeconds: shift,
      starts,
      durationSeconds,
      timezone: zoneName,
    });
    const endOf = (start: string) => plusWallClockSeconds(start, durationSeconds);
    // The edited one first when it moves; once, though the new rule may also drop it (a removal).
    const editedMoves = editedEvent.startLocal !== probe.startLocal || editedEvent.endLocal !== probe.endLocal;
    const candidates = new Set([...(editedMoves ? [edited.eventId] : []), ...touched.map((row) => row.event.id)]);
    const blocked: number[] = [];
    for (const eventId of candidates) if (await this.tickets.hasAttendees(eventId)) blocked.push(eventId);
    if (blocked.length) throw occurrencesHaveAttendees(blocked, 'move or be deleted');
    if (removals.some(({ event }) => event.id === edited.eventId)) {
      throw invalidParam('recurrence', 'the new rule does not keep the edited occurrence; edit another one or delete this one first');
    }

    // Rows first (occurrence dates are unique per series), then the events.
    for (const { row } of moves) await this.repository.setOccurrenceDate(row.event.id, `~${row.event.id}`);
    for (const { row, start } of moves) {
      await this.repository.setOccurrenceDate(row.event.id, start);
      await this.events.updateWithin(
        { id: row.event.id },
        { ...fields, timezone: zoneName, all_day: probe.allDay, start_date: start, end_date: endOf(start) },
        user,
      );
    }
    for (const row of removals) await this.events.removeWithin({ id: row.event.id }, true, user, context);
    Object.assign(series, {
      timezone: zoneName,
      startLocal,
      durationSeconds,
      rrule: recurrence.rrule,
      rdates: JSON.stringify(recurrence.rdate),
      exdates: JSON.stringify(recurrence.exdate),
      expandedUntil: before,
      exhausted,
    });
    const template = await this.refreshTemplate(series, (await this.repository.findEvent(edited.eventId))!);
    const occupied = new Set(moves.map(({ start }) => start));
    // Detached occurrences keep their dates: no new event on them.
    for (const { occurrence } of await this.repository.occurrences(series.id)) occupied.add(occurrence.occurrenceLocal);
    const fresh = starts.filter((start) => !occupied.has(start));
    if (fresh.length > MAX_OCCURRENCES_PER_WRITE)
      throw invalidParam('recurrence', `recurrence gives more than ${MAX_OCCURRENCES_PER_WRITE} occurrences within the horizon`);
    const created = await this.createOccurrences(series, template, fresh, user);
    await this.domainEvents.publish({ kind: 'SeriesOccurrencesCreated', reason: 'extended', series, occurrences: created });
  }

  /** The template becomes the edited occurrence as it now is (and the series is saved). */
  private async refreshTemplate(series: EventSeries, event: Event): Promise<SeriesTemplate> {
    const previous = JSON.parse(series.template) as SeriesTemplate;
    const template = { ...(await this.templateOf(event, previous.slug)), tickets: previous.tickets };
    series.template = JSON.stringify(template);
    await this.repository.save(series);
    return template;
  }

  // ---------------------------------------------------------------- deleting

  async remove(
    selector: EventSelector,
    force: boolean,
    rawScope: unknown,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<EventResponse | null> {
    const scope = readScope(rawScope);
    const located = await this.repository.locate(selector);
    if (!located) {
      if (scope === 'following' || scope === 'all')
        throw invalidParam('scope', `scope=${scope} applies to occurrences of a series; this event is none`);
      return null;
    }
    return this.tx.run(async () => {
      const series = await this.repository.lockSeries(located.seriesId);
      const occurrence = await this.repository.occurrenceOfEvent(located.eventId);
      if (!series || !occurrence) throw new ApiError('rest-event-not-found', `Event with ID ${located.eventId} does not exist.`, 404);
      const reach = scopeReach(scope, occurrence.occurrenceLocal, series.startLocal);
      if (reach === 'occurrence') {
        const removed = await this.events.removeWithin({ id: occurrence.eventId }, force, user, context);
        series.exdates = JSON.stringify(withExdate(jsonList(series.exdates), occurrence.occurrenceLocal));
        if (force && series.firstEventId === occurrence.eventId) {
          // The next occurrence becomes the first, every other's post_parent (nextFirst: not a trashed one if it can).
          const next = nextFirst(await this.repository.occurrences(series.id), occurrence.eventId);
          series.firstEventId = next?.event.id ?? null;
          if (next) await this.repository.reparent(series);
        }
        await this.repository.save(series);
        return removed;
      }
      const going = occurrencesToRemove(await this.repository.occurrences(series.id), occurrence, reach, force);
      const blocked: number[] = [];
      for (const row of going) if (await this.tickets.hasAttendees(row.event.id)) blocked.push(row.event.id);
      if (blocked.length) throw occurrencesHaveAttendees(blocked, 'be deleted');
      let answer: EventResponse | null = null;
      for (const row of going) {
        const removed = await this.events.removeWithin({ id: row.event.id }, force, user, context);
        if (row.event.id === occurrence.eventId) answer = removed;
      }
      if (reach === 'series') {
        series.exhausted = true;
        if (force) await this.repository.deleteSeries(series.id);
        else await this.repository.save(series);
      } else {
        this.endBefore(series, occurrence.occurrenceLocal);
        await this.repository.save(series);
      }
      return answer!;
    }, SERIES_WRITE);
  }

  // ---------------------------------------------------------------- helpers

  /** The series (not saved) ends the second before `atLocal` and grows no more. */
  private endBefore(series: EventSeries, atLocal: string): void {
    const ended = endBefore({ rrule: series.rrule, rdate: jsonList(series.rdates), exdate: jsonList(series.exdates) }, atLocal);
    series.rrule = ended.rrule;
    series.rdates = JSON.stringify(ended.rdate);
    series.exdates = JSON.stringify(ended.exdate);
    series.exhausted = true;
  }

  parsedRecurrence(series: EventSeries): ParsedRecurrence {
    const zone: Zone = resolveTimeZone(series.timezone) ?? resolveTimeZone('UTC')!;
    const { options } = parseRule(series.rrule, zone);
    return { rrule: series.rrule, options, rdate: jsonList(series.rdates), exdate: jsonList(series.exdates) };
  }
}

function pickSchedule(input: UpdateEventDto): UpdateEventDto {
  const schedule: UpdateEventDto = {};
  if (input.start_date !== undefined) schedule.start_date = input.start_date;
  if (input.end_date !== undefined) schedule.end_date = input.end_date;
  if (input.timezone !== undefined) schedule.timezone = input.timezone;
  if (input.all_day !== undefined) schedule.all_day = input.all_day;
  return schedule;
}

export function occurrencesHaveAttendees(eventIds: number[], what: string): ApiError {
  return new ApiError(
    'series-occurrences-have-attendees',
    `Occurrences with attendees would ${what}: ${eventIds.join(', ')}. Edit or delete them one by one (scope=this), or move their attendees first.`,
    409,
    { occurrences: eventIds },
  );
}
