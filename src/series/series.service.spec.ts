import type { ConfigType } from '@nestjs/config';
import type { DataSource, DeepPartial, EntityManager } from 'typeorm';
import type { RequestContext } from '../auth/request-context';
import type { AuthenticatedUser } from '../auth/roles';
import type { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import type { appConfig } from '../config/app.config';
import type { EventResponse } from '../events/dto/event.response';
import type { UpdateEventDto } from '../events/dto/update-event.dto';
import type { EventSelector } from '../events/event-selector';
import type { Event } from '../events/event.entity';
import type { EventsService } from '../events/events.service';
import { DomainEvents } from '../common/domain-events/domain-events';
import type { TicketsService } from '../tickets/tickets.service';
import { SeriesFacts } from './series-facts';
import { EventSeries, EventSeriesOccurrence } from './event-series.entity';
import type { seriesConfig } from './series.config';
import type { OccurrenceRow, SeriesRepository, TemplateLinks } from './series.repository';
import { SeriesService, SeriesTemplate } from './series.service';
import { TransactionHost } from '../common/database/transaction-host';

/**
 * SeriesService's scope paths (which occurrences an edit, a delete or a ticket of a series
 * reaches, the split, the end of a series, the 409 for attendees) against an in-memory series
 * repository and fakes of the events and tickets services. Each read answers copies, as rows read
 * from a database are. What the events service does to one event, and the SQL, are the e2e
 * specs' (test/series.e2e-spec.ts).
 */

type RepositoryPart = Pick<
  SeriesRepository,
  | 'locate'
  | 'lockSeries'
  | 'recurrences'
  | 'insertSeries'
  | 'save'
  | 'setTemplate'
  | 'deleteSeries'
  | 'occurrenceOfEvent'
  | 'occurrencesOfEvents'
  | 'occurrences'
  | 'setOccurrenceDate'
  | 'detach'
  | 'moveOccurrences'
  | 'reparent'
  | 'findEvent'
  | 'templateLinks'
>;

class FakeSeriesRepository implements RepositoryPart {
  readonly series = new Map<number, EventSeries>();
  occurrenceRows: EventSeriesOccurrence[] = [];
  readonly events = new Map<number, Event>();
  /** Writes other than through save: `reparent 8 → 42`, `detach 41`. */
  readonly writes: string[] = [];
  private nextSeriesId = 100;

  locate(selector: EventSelector): Promise<{ eventId: number; seriesId: number } | null> {
    const row = 'id' in selector ? this.occurrenceRows.find((entry) => entry.eventId === selector.id) : undefined;
    return Promise.resolve(row ? { eventId: row.eventId, seriesId: row.seriesId } : null);
  }

  lockSeries(seriesId: number): Promise<EventSeries | null> {
    const found = this.series.get(seriesId);
    return Promise.resolve(found ? Object.assign(new EventSeries(), found) : null);
  }

  recurrences(seriesIds: number[]): Promise<Array<Pick<EventSeries, 'id' | 'rrule' | 'rdates' | 'exdates'>>> {
    return Promise.resolve(
      seriesIds.flatMap((id) => {
        const found = this.series.get(id);
        return found ? [{ id, rrule: found.rrule, rdates: found.rdates, exdates: found.exdates }] : [];
      }),
    );
  }

  insertSeries(values: DeepPartial<EventSeries>): Promise<EventSeries> {
    const inserted = Object.assign(new EventSeries(), values, { id: this.nextSeriesId++ });
    this.series.set(inserted.id, Object.assign(new EventSeries(), inserted));
    return Promise.resolve(inserted);
  }

  save(series: EventSeries): Promise<void> {
    this.series.set(series.id, Object.assign(new EventSeries(), series));
    return Promise.resolve();
  }

  setTemplate(seriesId: number, template: string): Promise<void> {
    this.series.get(seriesId)!.template = template;
    return Promise.resolve();
  }

  deleteSeries(seriesId: number): Promise<void> {
    this.series.delete(seriesId);
    this.occurrenceRows = this.occurrenceRows.filter((row) => row.seriesId !== seriesId);
    return Promise.resolve();
  }

  occurrenceOfEvent(eventId: number): Promise<EventSeriesOccurrence | null> {
    const row = this.occurrenceRows.find((entry) => entry.eventId === eventId);
    return Promise.resolve(row ? { ...row } : null);
  }

  occurrencesOfEvents(eventIds: number[]): Promise<EventSeriesOccurrence[]> {
    return Promise.resolve(this.occurrenceRows.filter((row) => eventIds.includes(row.eventId)).map((row) => ({ ...row })));
  }

  occurrences(seriesId: number): Promise<OccurrenceRow[]> {
    const rows = this.occurrenceRows
      .filter((row) => row.seriesId === seriesId)
      .sort((a, b) => a.occurrenceLocal.localeCompare(b.occurrenceLocal))
      .flatMap((row) => {
        const event = this.events.get(row.eventId);
        return event ? [{ occurrence: { ...row }, event: { ...event } }] : [];
      });
    return Promise.resolve(rows);
  }

  setOccurrenceDate(eventId: number, occurrenceLocal: string): Promise<void> {
    const row = this.occurrenceRows.find((entry) => entry.eventId === eventId)!;
    const clash = this.occurrenceRows.find(
      (entry) => entry !== row && entry.seriesId === row.seriesId && entry.occurrenceLocal === occurrenceLocal,
    );
    // The unique index on (series, date).
    if (clash) return Promise.reject(new Error(`duplicate occurrence date ${occurrenceLocal}`));
    row.occurrenceLocal = occurrenceLocal;
    return Promise.resolve();
  }

  detach(eventId: number): Promise<void> {
    this.occurrenceRows.find((entry) => entry.eventId === eventId)!.detached = true;
    this.writes.push(`detach ${eventId}`);
    return Promise.resolve();
  }

  moveOccurrences(fromSeriesId: number, toSeriesId: number, fromLocal: string): Promise<void> {
    for (const row of this.occurrenceRows) if (row.seriesId === fromSeriesId && row.occurrenceLocal >= fromLocal) row.seriesId = toSeriesId;
    return Promise.resolve();
  }

  reparent(series: EventSeries): Promise<void> {
    this.writes.push(`reparent ${series.id} → ${series.firstEventId}`);
    return Promise.resolve();
  }

  findEvent(eventId: number): Promise<Event | null> {
    const event = this.events.get(eventId);
    return Promise.resolve(event ? { ...event } : null);
  }

  templateLinks(): Promise<TemplateLinks> {
    return Promise.resolve({ venueIds: [], organizerIds: [], categoryIds: [], tagIds: [] });
  }

  // ---------------------------------------------------------------- for the specs

  /** A series of one-hour occurrences at these wall-clock starts in Berlin, events `firstEventId`, +1, ... */
  addSeries(seriesId: number, firstEventId: number, rrule: string, starts: string[], extra: Partial<EventSeries> = {}): void {
    const template: SeriesTemplate = {
      title: 'Yoga',
      description: '',
      excerpt: '',
      image: '',
      website: '',
      cost: '',
      status: 'publish',
      author: 1,
      all_day: false,
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      show_attendee_list: false,
      slug: 'yoga',
      venue: [],
      organizer: [],
      categories: [],
      tags: [],
    };
    this.series.set(
      seriesId,
      Object.assign(new EventSeries(), {
        id: seriesId,
        firstEventId,
        authorId: 1,
        timezone: 'Europe/Berlin',
        startLocal: starts[0],
        durationSeconds: 3600,
        rrule,
        rdates: '[]',
        exdates: '[]',
        template: JSON.stringify(template),
        expandedUntil: new Date('2029-01-01T00:00:00Z'),
        exhausted: false,
        claimedUntil: null,
        ...extra,
      }),
    );
    starts.forEach((start, index) => {
      const id = firstEventId + index;
      this.occurrenceRows.push({ eventId: id, seriesId, occurrenceLocal: start, detached: false });
      this.events.set(id, eventAt(id, start));
    });
  }

  occurrenceOf(eventId: number): EventSeriesOccurrence | undefined {
    return this.occurrenceRows.find((row) => row.eventId === eventId);
  }
}

/** A published one-hour event at `startLocal` in Berlin (UTC+1 in winter, UTC+2 in summer). */
function eventAt(id: number, startLocal: string): Event {
  const offset = startLocal >= '2027-03-28' && startLocal < '2027-10-31' ? 2 : 1;
  const utc = (local: string) => new Date(new Date(`${local.replace(' ', 'T')}Z`).getTime() - offset * 3600_000);
  const endLocal = plusHour(startLocal);
  return {
    id,
    title: 'Yoga',
    status: 'publish',
    authorId: 1,
    timezone: 'Europe/Berlin',
    allDay: false,
    startLocal,
    endLocal,
    startUtc: utc(startLocal),
    endUtc: utc(endLocal),
  } as Event;
}

function plusHour(local: string): string {
  return `${local.slice(0, 11)}${String(Number(local.slice(11, 13)) + 1).padStart(2, '0')}${local.slice(13)}`;
}

type EventsPart = Pick<EventsService, 'updateWithin' | 'removeWithin' | 'respond'>;

/** The single-event writes, on the repository's events: what the scope paths ask of them is the point. */
class FakeEvents implements EventsPart {
  /** `update 41 {"title":"x"}`, `trash 42`, `delete 43`, in order. */
  readonly calls: string[] = [];

  constructor(private readonly repository: FakeSeriesRepository) {}

  updateWithin(selector: EventSelector, input: UpdateEventDto): Promise<Event> {
    const event = this.repository.events.get((selector as { id: number }).id)!;
    this.calls.push(`update ${event.id} ${JSON.stringify(input)}`);
    if (input.title !== undefined) event.title = input.title;
    if (input.timezone) event.timezone = input.timezone;
    if (input.start_date) event.startLocal = String(input.start_date);
    if (input.end_date) event.endLocal = String(input.end_date);
    return Promise.resolve({ ...event });
  }

  removeWithin(selector: EventSelector, force: boolean): Promise<EventResponse> {
    const id = (selector as { id: number }).id;
    this.calls.push(`${force ? 'delete' : 'trash'} ${id}`);
    if (force) {
      this.repository.events.delete(id);
      // The occurrence row goes with its event (ON DELETE CASCADE).
      this.repository.occurrenceRows = this.repository.occurrenceRows.filter((row) => row.eventId !== id);
    } else this.repository.events.get(id)!.status = 'trash';
    return Promise.resolve({ id, status: force ? 'deleted' : 'trash' } as unknown as EventResponse);
  }

  respond(event: Event): Promise<EventResponse> {
    return Promise.resolve({ id: event.id, title: event.title } as unknown as EventResponse);
  }
}

type HooksPart = Pick<TicketsService, 'hasAttendees'>;

class FakeHooks implements HooksPart {
  readonly withAttendees = new Set<number>();

  hasAttendees(eventId: number): Promise<boolean> {
    return Promise.resolve(this.withAttendees.has(eventId));
  }
}

const manager = {} as EntityManager;
/** Enough of a data source for runInTransaction: SQLite's dialect, the callback run at once. */
const dataSource = {
  options: { type: 'better-sqlite3' },
  manager,
  transaction: (work: (manager: EntityManager) => Promise<unknown>) => work(manager),
} as unknown as DataSource;
const tx = new TransactionHost(dataSource);
const editor: AuthenticatedUser = { id: 1, login: 'editor', role: 'editor' };
const context = {} as RequestContext;

/** Weekly on Tuesdays at 10:00 in Berlin, five times from 2 March 2027: events 40 to 44. */
const TUESDAYS = ['2027-03-02 10:00:00', '2027-03-09 10:00:00', '2027-03-16 10:00:00', '2027-03-23 10:00:00', '2027-03-30 10:00:00'];

/** The 409's ids, or what was thrown instead. */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.getStatus(), code: error.code, data: error.extraData };
    throw error;
  }
  throw new Error('not refused');
}

describe('SeriesService', () => {
  let repository: FakeSeriesRepository;
  let events: FakeEvents;
  let hooks: FakeHooks;
  let now: Date;
  let service: SeriesService;
  let facts: SeriesFacts;

  beforeEach(() => {
    repository = new FakeSeriesRepository();
    events = new FakeEvents(repository);
    hooks = new FakeHooks();
    now = new Date('2027-01-01T00:00:00Z');
    const clock: Clock = { now: () => now };
    service = new SeriesService(
      tx,
      {} as ConfigType<typeof appConfig>,
      { horizonMonths: 24 } as ConfigType<typeof seriesConfig>,
      clock,
      events as unknown as EventsService,
      hooks as unknown as TicketsService,
      new DomainEvents(tx),
      repository as unknown as SeriesRepository,
    );
    facts = new SeriesFacts(tx, clock, repository as unknown as SeriesRepository);
    repository.addSeries(7, 40, 'FREQ=WEEKLY;BYDAY=TU;COUNT=5', TUESDAYS);
  });

  const stored = (seriesId: number) => repository.series.get(seriesId);
  const seriesOfEvent = (eventId: number) => repository.occurrenceOf(eventId)?.seriesId;

  describe('reading', () => {
    it('answers the series and recurrence of the events that are occurrences, and nothing for the others', async () => {
      Object.assign(repository.series.get(7)!, { exdates: '["2027-03-09 10:00:00"]' });
      const found = await facts.seriesOf([41, 99]);
      expect([...found]).toEqual([
        [41, { seriesId: 7, recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=5', rdate: [], exdate: ['2027-03-09 10:00:00'] } }],
      ]);
      expect((await facts.seriesOf([99])).size).toBe(0);
    });
  });

  describe('tickets with scope=all', () => {
    it('go to the occurrence and to every other one neither ended nor trashed; outside a series to none', async () => {
      now = new Date('2027-03-10T00:00:00Z');
      repository.events.get(43)!.status = 'trash';
      expect(await facts.ticketTargets(41)).toEqual([41, 42, 44]);
      expect(await facts.ticketTargets(42)).toEqual([42, 44]);
      expect(await facts.ticketTargets(99)).toBeNull();
    });

    it('are remembered on the series without their post_id, for the occurrences created later', async () => {
      await facts.rememberTicket(42, { post_id: 42, name: 'Mat', price: '5' });
      await facts.rememberTicket(40, { post_id: 40, name: 'Seat' });
      await facts.rememberTicket(99, { post_id: 99, name: 'Lost' });
      const template = JSON.parse(stored(7)!.template) as SeriesTemplate;
      expect(template.tickets).toEqual([{ name: 'Mat', price: '5' }, { name: 'Seat' }]);
      expect(template.title).toBe('Yoga');
    });
  });

  describe('deleting', () => {
    it('scope=this trashes one occurrence and adds its date to exdate, once', async () => {
      expect(await service.remove({ id: 42 }, false, undefined, editor, context)).toEqual({ id: 42, status: 'trash' });
      await service.remove({ id: 42 }, false, 'this', editor, context);
      expect(events.calls).toEqual(['trash 42', 'trash 42']);
      expect(stored(7)).toMatchObject({ exdates: '["2027-03-16 10:00:00"]', exhausted: false, firstEventId: 40 });
    });

    it('scope=this with force on the first event makes the next one first', async () => {
      await service.remove({ id: 40 }, true, 'this', editor, context);
      expect(events.calls).toEqual(['delete 40']);
      expect(stored(7)).toMatchObject({ firstEventId: 41, exdates: '["2027-03-02 10:00:00"]' });
      expect(repository.writes).toEqual(['reparent 7 → 41']);
    });

    it('scope=this with force on the first event makes the next one not in the trash first, else the next trashed one', async () => {
      repository.events.get(41)!.status = 'trash';
      await service.remove({ id: 40 }, true, 'this', editor, context);
      expect(stored(7)).toMatchObject({ firstEventId: 42 });

      repository.addSeries(8, 50, 'FREQ=WEEKLY;BYDAY=TU;COUNT=3', TUESDAYS.slice(0, 3));
      repository.events.get(51)!.status = 'trash';
      repository.events.get(52)!.status = 'trash';
      await service.remove({ id: 50 }, true, 'this', editor, context);
      expect(stored(8)).toMatchObject({ firstEventId: 51 });
      expect(repository.writes).toEqual(['reparent 7 → 42', 'reparent 8 → 51']);
    });

    it('leaves events outside a series to the events service, and refuses following or all for them', async () => {
      expect(await service.remove({ id: 99 }, false, undefined, editor, context)).toBeNull();
      expect(await refusal(service.remove({ id: 99 }, false, 'following', editor, context))).toMatchObject({
        status: 400,
        data: { params: { scope: 'scope=following applies to occurrences of a series; this event is none' } },
      });
      expect(await refusal(service.remove({ id: 40 }, false, 'every', editor, context))).toMatchObject({ status: 400 });
      expect(events.calls).toEqual([]);
    });

    it('scope=following removes the occurrence and every later one, skips those already trashed, and ends the series before it', async () => {
      repository.events.get(43)!.status = 'trash';
      repository.occurrenceOf(44)!.detached = true;
      expect(await service.remove({ id: 42 }, false, 'following', editor, context)).toEqual({ id: 42, status: 'trash' });
      expect(events.calls).toEqual(['trash 42', 'trash 44']);
      expect(stored(7)).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270316T095959', exhausted: true, exdates: '[]' });
    });

    it('scope=following or all removes nothing when an occurrence to remove has attendees, and names them', async () => {
      hooks.withAttendees.add(43).add(44).add(40);
      const before = { ...stored(7) };
      expect(await refusal(service.remove({ id: 42 }, true, 'following', editor, context))).toEqual({
        status: 409,
        code: 'series-occurrences-have-attendees',
        data: { occurrences: [43, 44] },
      });
      expect(await refusal(service.remove({ id: 42 }, true, 'all', editor, context))).toMatchObject({
        data: { occurrences: [40, 43, 44] },
      });
      expect(events.calls).toEqual([]);
      expect(stored(7)).toEqual(before);
    });

    it('scope=following from the first occurrence, like all, removes every one and keeps the series unless forced', async () => {
      await service.remove({ id: 40 }, false, 'following', editor, context);
      expect(events.calls).toEqual(['trash 40', 'trash 41', 'trash 42', 'trash 43', 'trash 44']);
      expect(stored(7)).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=5', exhausted: true });

      events.calls.length = 0;
      await service.remove({ id: 42 }, true, 'all', editor, context);
      // With force the trashed ones go for good as well, and the series with them.
      expect(events.calls).toEqual(['delete 40', 'delete 41', 'delete 42', 'delete 43', 'delete 44']);
      expect(stored(7)).toBeUndefined();
    });
  });

  describe('editing', () => {
    it('scope=this edits the occurrence alone and detaches it', async () => {
      expect(await service.update({ id: 41 }, { title: 'Yoga with a guest' }, 'this', editor, context)).toEqual({
        id: 41,
        title: 'Yoga with a guest',
      });
      expect(events.calls).toEqual(['update 41 {"title":"Yoga with a guest"}']);
      expect(repository.writes).toEqual(['detach 41']);
    });

    it('refuses a new rule without scope=all or following, and any rule for an event outside a series', async () => {
      const rule = { recurrence: 'RRULE:FREQ=DAILY;COUNT=3' } as UpdateEventDto;
      expect(await refusal(service.update({ id: 41 }, rule, undefined, editor, context))).toMatchObject({
        data: { params: { recurrence: 'recurrence changes with scope=all or scope=following' } },
      });
      expect(await refusal(service.update({ id: 99 }, rule, undefined, editor, context))).toMatchObject({ status: 400 });
      expect(await service.update({ id: 99 }, { title: 'x' }, undefined, editor, context)).toBeNull();
      expect(await refusal(service.update({ id: 99 }, { title: 'x' }, 'all', editor, context))).toMatchObject({ status: 400 });
      expect(events.calls).toEqual([]);
    });

    it('scope=all edits every occurrence neither detached nor trashed', async () => {
      repository.occurrenceOf(41)!.detached = true;
      repository.events.get(43)!.status = 'trash';
      await service.update({ id: 42 }, { title: 'Yoga II' }, 'all', editor, context);
      expect(events.calls).toEqual([40, 42, 44].map((id) => `update ${id} {"title":"Yoga II"}`));
      expect(repository.writes).toEqual([]);
    });

    it('scope=all keeps the template the edit wrote, for the occurrences created later', async () => {
      await service.update({ id: 42 }, { title: 'Yoga II' }, 'all', editor, context);
      expect((JSON.parse(stored(7)!.template) as SeriesTemplate).title).toBe('Yoga II');
    });

    it('refuses scope=all or following sent at a detached or trashed occurrence, and changes nothing', async () => {
      repository.occurrenceOf(41)!.detached = true;
      repository.events.get(43)!.status = 'trash';
      const before = { ...stored(7) };
      for (const [id, scope] of [
        [41, 'all'],
        [41, 'following'],
        [43, 'all'],
      ] as const) {
        expect(await refusal(service.update({ id }, { title: 'Yoga II' }, scope, editor, context))).toMatchObject({
          status: 400,
          code: 'rest_invalid_param',
          data: { params: { scope: expect.stringContaining(`scope=${scope} edits the occurrences that follow the series`) as string } },
        });
      }
      expect(events.calls).toEqual([]);
      expect(stored(7)).toEqual(before);
      expect(repository.series.size).toBe(1);
    });

    it('scope=following splits the series at the occurrence, the rest of the COUNT going on in the new one', async () => {
      Object.assign(repository.series.get(7)!, { exdates: '["2027-03-09 10:00:00","2027-03-23 10:00:00"]' });
      await service.update({ id: 42 }, { title: 'Yoga II' }, 'following', editor, context);
      expect(stored(7)).toMatchObject({
        firstEventId: 40,
        rrule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270316T095959',
        exdates: '["2027-03-09 10:00:00"]',
        exhausted: true,
      });
      expect(stored(100)).toMatchObject({
        firstEventId: 42,
        startLocal: '2027-03-16 10:00:00',
        rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=3',
        exdates: '["2027-03-23 10:00:00"]',
      });
      expect([40, 41, 42, 43, 44].map(seriesOfEvent)).toEqual([7, 7, 100, 100, 100]);
      expect(repository.writes).toEqual(['reparent 100 → 42']);
      expect(events.calls).toEqual([42, 43, 44].map((id) => `update ${id} {"title":"Yoga II"}`));
    });

    it('scope=all moves every occurrence by the edited one’s shift, keeping their ids', async () => {
      await service.update({ id: 41 }, { start_date: '2027-03-09 18:00:00', end_date: '2027-03-09 19:00:00' }, 'all', editor, context);
      const evening = TUESDAYS.map((start) => start.replace('10:00', '18:00'));
      expect([40, 41, 42, 43, 44].map((id) => repository.events.get(id)!.startLocal)).toEqual(evening);
      expect([40, 41, 42, 43, 44].map((id) => repository.occurrenceOf(id)!.occurrenceLocal)).toEqual(evening);
      expect(stored(7)).toMatchObject({ startLocal: '2027-03-02 18:00:00', rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=5' });
      expect(events.calls.filter((call) => call.startsWith('trash') || call.startsWith('delete'))).toEqual([]);
    });

    it('scope=all refuses to move occurrences with attendees, the edited one first, and moves none', async () => {
      hooks.withAttendees.add(43).add(41);
      const edit = { start_date: '2027-03-09 18:00:00', end_date: '2027-03-09 19:00:00' } as UpdateEventDto;
      expect(await refusal(service.update({ id: 41 }, edit, 'all', editor, context))).toMatchObject({
        status: 409,
        data: { occurrences: [41, 43] },
      });
      expect(repository.occurrenceOf(43)!.occurrenceLocal).toBe('2027-03-23 10:00:00');
      expect(repository.events.get(43)!.startLocal).toBe('2027-03-23 10:00:00');
    });

    it('scope=all names the edited occurrence once when it has attendees, moves and the new rule drops it', async () => {
      hooks.withAttendees.add(41).add(43);
      const edit = {
        start_date: '2027-03-09 18:00:00',
        end_date: '2027-03-09 19:00:00',
        recurrence: 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3',
      } as UpdateEventDto;
      expect(await refusal(service.update({ id: 41 }, edit, 'all', editor, context))).toMatchObject({
        status: 409,
        data: { occurrences: [41, 43] },
      });
    });

    it('scope=all with a new rule deletes the occurrences on dates it drops, and refuses to drop the edited one', async () => {
      const fortnightly = { recurrence: 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3' } as UpdateEventDto;
      await service.update({ id: 40 }, fortnightly, 'all', editor, context);
      expect(events.calls.filter((call) => !call.startsWith('update'))).toEqual(['delete 41', 'delete 43']);
      expect(stored(7)).toMatchObject({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3' });

      const monthly = { recurrence: 'RRULE:FREQ=MONTHLY;COUNT=2' } as UpdateEventDto;
      expect(await refusal(service.update({ id: 42 }, monthly, 'all', editor, context))).toMatchObject({
        status: 400,
        data: { params: { recurrence: expect.stringContaining('does not keep the edited occurrence') as string } },
      });
    });
  });
});
