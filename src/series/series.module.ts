import { ConfigModule } from '@nestjs/config';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueReadModule } from '../catalogue/catalogue.module';
import { EventsModule } from '../events/events.module';
import { TicketsModule } from '../tickets/tickets.module';
import { EventSeries, EventSeriesOccurrence } from './event-series.entity';
import { SeriesCalendarService } from './series-calendar.service';
import { SeriesHorizonService } from './series-horizon.service';
import { seriesConfig } from './series.config';
import { SeriesController } from './series.controller';
import { SeriesRepository } from './series.repository';
import { SeriesService } from './series.service';

/** Recurring events: series of real events (docs/recurring-events.md). */
@Module({
  imports: [
    TypeOrmModule.forFeature([EventSeries, EventSeriesOccurrence]),
    ConfigModule.forFeature(seriesConfig),
    EventsModule,
    CatalogueReadModule,
    TicketsModule,
  ],
  controllers: [SeriesController],
  providers: [SeriesService, SeriesRepository, SeriesHorizonService, SeriesCalendarService],
  exports: [SeriesService, SeriesHorizonService],
})
export class SeriesModule {}
