import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CatalogueReadModule } from '../catalogue/catalogue.module';
import { ThrottlingModule } from '../common/throttling/throttling.module';
import { EventsModule } from '../events/events.module';
import { EventsIcsController } from '../ics/events-ics.controller';
import { EventsIcsService } from '../ics/events-ics.service';
import { SeriesModule } from '../series/series.module';
import { ANONYMOUS_EVENT_READ_ROUTE, AnonymousEventReadMiddleware } from './anonymous-event-read.middleware';
import { EventWrites } from './event-writes';
import { EventsController } from './events.controller';

/**
 * The `/events` routes and the iCalendar feed, above the events and series modules: reads go to
 * the events module, writes to whichever of the two owns the event (EventWrites).
 */
@Module({
  imports: [EventsModule, CatalogueReadModule, SeriesModule, ThrottlingModule],
  // The iCalendar routes come first: `events/ics` must not be read as `events/:id`.
  controllers: [EventsIcsController, EventsController],
  providers: [EventWrites, EventsIcsService],
  exports: [EventWrites],
})
export class EventRoutesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // GET routes also answer HEAD (Express).
    consumer.apply(AnonymousEventReadMiddleware).forRoutes({ path: ANONYMOUS_EVENT_READ_ROUTE, method: RequestMethod.GET });
  }
}
