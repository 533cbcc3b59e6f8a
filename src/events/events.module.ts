import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { TagsModule } from '../tags/tags.module';
import { VenuesModule } from '../venues/venues.module';
import { MetricsModule } from '../metrics/metrics.module';
import { EventDocuments } from '../catalogue/documents/event-documents';
import { StoredEventDocuments } from '../catalogue/documents/stored-event-documents';
import { StoredEventDocument } from '../catalogue/documents/stored-event-document.entity';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from './event-links.entity';
import { EventListingDay } from '../catalogue/listings/event-listing-day.entity';
import { EventListingPair, EventListingPairDay } from '../catalogue/listings/event-listing-pair.entity';
import { EventListing } from '../catalogue/listings/event-listing.entity';
import { EventListingsReader } from '../catalogue/listings/event-listings';
import { EventRelationsLoader } from './event-relations.loader';
import { Event } from './event.entity';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** The events domain: events, their links, the listings read model and the documents. Its routes live in event-routes/. */
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
  ],
  providers: [EventsService, EventsRepository, EventDocuments, StoredEventDocuments, EventListingsReader, EventRelationsLoader],
  exports: [EventsService, EventRelationsLoader, EventDocuments],
})
export class EventsModule {}
