import { Injectable } from '@nestjs/common';
import { DeepPartial, In } from 'typeorm';
import { User } from '../auth/user.entity';
import { insertInSlices } from '../common/database/bulk-insert';
import { SqlDialect } from '../database/sql-dialect';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from '../events/event-links.entity';
import { Event } from '../events/event.entity';
import type { EventSelector } from '../events/event-selector';
import { EventSeries, EventSeriesOccurrence } from './event-series.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** An occurrence row of a series with its event. */
export interface OccurrenceRow {
  occurrence: EventSeriesOccurrence;
  event: Event;
}

/** The links of an event a series template copies, each as the ids it links to. */
export interface TemplateLinks {
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
}

/** Every statement of the series module: series rows, their occurrence rows, and the occurrences' events. */
@Injectable()
export class SeriesRepository {
  constructor(private readonly tx: TransactionHost) {}

  // ---------------------------------------------------------------- series

  findById(seriesId: number): Promise<EventSeries | null> {
    const manager = this.tx.manager;
    return manager.findOne(EventSeries, { where: { id: seriesId } });
  }

  /** The series row, locked for the transaction on MySQL (SQLite serialises writers anyway). */
  lockSeries(seriesId: number): Promise<EventSeries | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(EventSeries, 'series').where('series.id = :id', { id: seriesId });
    SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  /** The recurrence columns of these series. */
  recurrences(seriesIds: number[]): Promise<Array<Pick<EventSeries, 'id' | 'rrule' | 'rdates' | 'exdates'>>> {
    const manager = this.tx.manager;
    return manager.find(EventSeries, {
      select: { id: true, rrule: true, rdates: true, exdates: true },
      where: { id: In(seriesIds) },
    });
  }

  /** Inserts a new series row; answers it with its id. */
  async insertSeries(values: DeepPartial<EventSeries>): Promise<EventSeries> {
    const manager = this.tx.manager;
    const series = manager.create(EventSeries, values);
    await manager.save(series);
    return series;
  }

  async save(series: EventSeries): Promise<void> {
    const manager = this.tx.manager;
    await manager.save(series);
  }

  async setTemplate(seriesId: number, template: string): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(EventSeries, { id: seriesId }, { template });
  }

  /** The series stops growing and nobody holds it any more. */
  async markExhausted(seriesId: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(EventSeries, { id: seriesId }, { exhausted: true, claimedUntil: null });
  }

  /** The series was expanded up to `expandedUntil`; the claim of the instance that did it ends. */
  async markExtended(seriesId: number, expandedUntil: Date, exhausted: boolean): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(EventSeries, { id: seriesId }, { expandedUntil, exhausted, claimedUntil: null });
  }

  async deleteSeries(seriesId: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.delete(EventSeries, { id: seriesId });
  }

  /** Series whose horizon is before `horizon` and that no instance holds at `now`, oldest horizon first. */
  async dueSeries(horizon: Date, now: Date, limit: number): Promise<number[]> {
    const manager = this.tx.manager;
    const rows = await manager
      .createQueryBuilder(EventSeries, 'series')
      .select('series.id')
      .where('series.exhausted = :open', { open: false })
      .andWhere('series.expandedUntil < :horizon', { horizon })
      .andWhere('(series.claimedUntil IS NULL OR series.claimedUntil < :now)', { now })
      .orderBy('series.expandedUntil', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map((row) => row.id);
  }

  /** Takes the series until `until`, unless another holds it at `now`: one conditional UPDATE. */
  async claim(seriesId: number, until: Date, now: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(EventSeries)
      .set({ claimedUntil: until })
      .where('id = :id', { id: seriesId })
      .andWhere('(claimed_until IS NULL OR claimed_until < :now)', { now })
      .execute();
    return result.affected === 1;
  }

  // ---------------------------------------------------------------- occurrences

  /** The event's occurrence and series ids, found by the event's id or slug. */
  async locate(selector: EventSelector): Promise<{ eventId: number; seriesId: number } | null> {
    const manager = this.tx.manager;
    const query = manager
      .createQueryBuilder(EventSeriesOccurrence, 'occurrence')
      .innerJoin(Event, 'event', 'event.id = occurrence.eventId')
      .select(['occurrence.eventId', 'occurrence.seriesId']);
    if ('id' in selector) query.where('event.id = :id', { id: selector.id });
    else query.where('event.slug = :slug', { slug: selector.slug });
    const row = await query.getOne();
    return row ? { eventId: row.eventId, seriesId: row.seriesId } : null;
  }

  occurrenceOfEvent(eventId: number): Promise<EventSeriesOccurrence | null> {
    const manager = this.tx.manager;
    return manager.findOne(EventSeriesOccurrence, { where: { eventId } });
  }

  /** The occurrence rows of these events (events of no series have none). */
  occurrencesOfEvents(eventIds: number[]): Promise<EventSeriesOccurrence[]> {
    const manager = this.tx.manager;
    return manager.find(EventSeriesOccurrence, { where: { eventId: In(eventIds) } });
  }

  /** Every occurrence of the series with its event, by occurrence date. */
  async occurrences(seriesId: number): Promise<OccurrenceRow[]> {
    const manager = this.tx.manager;
    const rows = await manager.find(EventSeriesOccurrence, { where: { seriesId }, order: { occurrenceLocal: 'ASC' } });
    const events = new Map<number, Event>();
    for (let index = 0; index < rows.length; index += 500) {
      const slice = rows.slice(index, index + 500).map((row) => row.eventId);
      for (const event of await manager.find(Event, { where: { id: In(slice) } })) events.set(event.id, event);
    }
    return rows.flatMap((occurrence) => {
      const event = events.get(occurrence.eventId);
      return event ? [{ occurrence, event }] : [];
    });
  }

  /** The dates of the series' occurrences, detached ones included. */
  async occurrenceDates(seriesId: number): Promise<string[]> {
    const manager = this.tx.manager;
    const rows = await manager.find(EventSeriesOccurrence, { select: { occurrenceLocal: true }, where: { seriesId } });
    return rows.map((row) => row.occurrenceLocal);
  }

  async insertOccurrence(occurrence: EventSeriesOccurrence): Promise<void> {
    const manager = this.tx.manager;
    await manager.insert(EventSeriesOccurrence, occurrence);
  }

  /** Occurrence rows of many events, in multi-row INSERTs. */
  async insertOccurrences(occurrences: Array<EventSeriesOccurrence>): Promise<void> {
    const manager = this.tx.manager;
    await insertInSlices(manager, EventSeriesOccurrence, occurrences);
  }

  async setOccurrenceDate(eventId: number, occurrenceLocal: string): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(EventSeriesOccurrence, { eventId }, { occurrenceLocal });
  }

  async detach(eventId: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(EventSeriesOccurrence, { eventId }, { detached: true });
  }

  /** The occurrences of `fromSeriesId` on or after `fromLocal` move to `toSeriesId`. */
  async moveOccurrences(fromSeriesId: number, toSeriesId: number, fromLocal: string): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(EventSeriesOccurrence)
      .set({ seriesId: toSeriesId })
      .where('series_id = :seriesId AND occurrence_local >= :from', { seriesId: fromSeriesId, from: fromLocal })
      .execute();
  }

  /** Points every occurrence's post_parent at the series' first event (which has none). */
  async reparent(series: EventSeries): Promise<void> {
    const manager = this.tx.manager;
    const ids = (await manager.find(EventSeriesOccurrence, { select: { eventId: true }, where: { seriesId: series.id } })).map(
      (row) => row.eventId,
    );
    const others = ids.filter((id) => id !== series.firstEventId);
    if (series.firstEventId !== null) await manager.update(Event, { id: series.firstEventId }, { postParentId: null });
    for (let index = 0; index < others.length; index += 500) {
      await manager.update(Event, { id: In(others.slice(index, index + 500)) }, { postParentId: series.firstEventId });
    }
  }

  // ---------------------------------------------------------------- events and authors

  findEvent(eventId: number): Promise<Event | null> {
    const manager = this.tx.manager;
    return manager.findOne(Event, { where: { id: eventId } });
  }

  /** The links a template copies from the event: venues and organizers in their order. */
  async templateLinks(eventId: number): Promise<TemplateLinks> {
    const manager = this.tx.manager;
    const [venues, organizers, categories, tags] = await Promise.all([
      manager.find(EventVenueLink, { where: { eventId }, order: { position: 'ASC' } }),
      manager.find(EventOrganizerLink, { where: { eventId }, order: { position: 'ASC' } }),
      manager.find(EventCategoryLink, { where: { eventId } }),
      manager.find(EventTagLink, { where: { eventId } }),
    ]);
    return {
      venueIds: venues.map((link) => link.venueId),
      organizerIds: organizers.map((link) => link.organizerId),
      categoryIds: categories.map((link) => link.categoryId),
      tagIds: tags.map((link) => link.tagId),
    };
  }

  findAuthor(userId: number): Promise<User | null> {
    const manager = this.tx.manager;
    return manager.findOne(User, { where: { id: userId } });
  }
}
