import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { TagsModule } from '../tags/tags.module';
import { EventsIcsController } from '../ics/events-ics.controller';
import { EventsIcsService } from '../ics/events-ics.service';
import { VenuesModule } from '../venues/venues.module';
import { MetricsModule } from '../metrics/metrics.module';
import { ThrottlingModule } from '../common/throttling/throttling.module';
import { ANONYMOUS_EVENT_READ_ROUTE, AnonymousEventReadMiddleware } from './anonymous-event-read.middleware';
import { EventDocuments } from './event-documents';
import { StoredEventDocuments } from './stored-event-documents';
import { StoredEventDocument } from './stored-event-document.entity';
import { EventHooks } from './event-hooks';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from './event-links.entity';
import { EventListingDay } from './event-listing-day.entity';
import { EventListingPair, EventListingPairDay } from './event-listing-pair.entity';
import { EventListing } from './event-listing.entity';
import { EventListingsReader } from './event-listings';
import { EventRelationsLoader } from './event-relations.loader';
import { EventSeriesHooks } from './event-series-hooks';
import { Event } from './event.entity';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      Event,
      StoredEventDocument,
      EventListing,
      EventListingDay,
      EventListingPair,
      EventListingPairDay,
      EventVenueLink,
      EventOrganizerLink,
      EventCategoryLink,
      EventTagLink,
    ]),
    VenuesModule,
    OrganizersModule,
    CategoriesModule,
    TagsModule,
    MetricsModule,
    ThrottlingModule,
  ],
  // The iCalendar routes come first: `events/ics` must not be read as `events/:id`.
  controllers: [EventsIcsController, EventsController],
  providers: [
    EventsService,
    EventsRepository,
    EventDocuments,
    StoredEventDocuments,
    EventListingsReader,
    EventRelationsLoader,
    EventHooks,
    EventSeriesHooks,
    EventsIcsService,
  ],
  exports: [EventsService, EventHooks, EventSeriesHooks, EventRelationsLoader, EventDocuments],
})
export class EventsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // GET routes also answer HEAD (Express).
    consumer.apply(AnonymousEventReadMiddleware).forRoutes({ path: ANONYMOUS_EVENT_READ_ROUTE, method: RequestMethod.GET });
  }
}
