import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLOCK, Clock } from '../common/clock';
import { assertIdsExist } from '../common/list-filters/ids-must-exist';
import type { Recurrence } from '../events/dto/event.response';
import { EVENT_SERIES, EventSeriesFacts, EventSeriesReader } from '../events/event-ports';
import { TICKET_SERIES, TicketSeries } from '../tickets/ticket-ports';
import { EventSeries, EventSeriesOccurrence } from './event-series.entity';
import { ticketTargets } from './series-scope';
import { SeriesRepository } from './series.repository';
import type { SeriesTemplate } from './series.service';
import { TransactionHost } from '../common/database/transaction-host';

function jsonList(text: string): string[] {
  return JSON.parse(text) as string[];
}

export function recurrenceOf(series: Pick<EventSeries, 'rrule' | 'rdates' | 'exdates'>): Recurrence {
  return { rrule: series.rrule, rdate: jsonList(series.rdates), exdate: jsonList(series.exdates) };
}

/**
 * What the series module answers the modules below it (events and tickets) through their query
 * ports: an event's series, and where a ticket made for a whole series goes. Kept apart from
 * SeriesService, which writes events and tickets through their services, so that answering them
 * needs nothing of those services.
 */
@Injectable()
export class SeriesFacts implements EventSeriesReader, TicketSeries {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: SeriesRepository,
  ) {}

  async seriesOf(eventIds: number[]): Promise<Map<number, EventSeriesFacts>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.repository.occurrencesOfEvents(eventIds);
    if (rows.length === 0) return new Map();
    const seriesIds = [...new Set(rows.map((row) => row.seriesId))];
    const series = await this.repository.recurrences(seriesIds);
    const byId = new Map(series.map((entry) => [entry.id, recurrenceOf(entry)]));
    return new Map(rows.map((row) => [row.eventId, { seriesId: row.seriesId, recurrence: byId.get(row.seriesId)! }]));
  }

  async assertSeriesExists(seriesId: number): Promise<void> {
    await assertIdsExist(this.tx.manager, EventSeries, [seriesId], 'series');
  }

  async ticketTargets(eventId: number): Promise<number[] | null> {
    const located = await this.repository.locate({ id: eventId });
    if (!located) return null;
    return ticketTargets(await this.repository.occurrences(located.seriesId), eventId, this.clock.now());
  }

  async rememberTicket(eventId: number, ticket: object): Promise<void> {
    const located = await this.repository.locate({ id: eventId });
    const series = located && (await this.repository.lockSeries(located.seriesId));
    if (!series) return;
    const template = JSON.parse(series.template) as SeriesTemplate;
    const { post_id: _eventId, ...fields } = ticket as Record<string, unknown>;
    template.tickets = [...(template.tickets ?? []), fields];
    await this.repository.setTemplate(series.id, JSON.stringify(template));
  }
}

/** Provides the series module's answers to the query ports of events (EVENT_SERIES) and tickets (TICKET_SERIES). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([EventSeries, EventSeriesOccurrence])],
  providers: [
    SeriesFacts,
    SeriesRepository,
    { provide: EVENT_SERIES, useExisting: SeriesFacts },
    { provide: TICKET_SERIES, useExisting: SeriesFacts },
  ],
  exports: [EVENT_SERIES, TICKET_SERIES],
})
export class SeriesFactsModule {}
