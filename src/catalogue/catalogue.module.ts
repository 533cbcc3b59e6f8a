import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module';
import { EventsModule } from '../events/events.module';
import { MetricsModule } from '../metrics/metrics.module';
import { CountCache } from './caching/count-cache';
import { CountCacheInvalidation } from './caching/count-cache-invalidation';
import { EventDocuments } from './documents/event-documents';
import { StoredEventDocument } from './documents/stored-event-document.entity';
import { StoredEventDocuments } from './documents/stored-event-documents';
import { EventReadsRepository } from './event-reads.repository';
import { EventReads } from './event-reads.service';
import { EventListingDay } from './listings/event-listing-day.entity';
import { EventListingPair, EventListingPairDay } from './listings/event-listing-pair.entity';
import { EventListing } from './listings/event-listing.entity';
import { EventListingsReader } from './listings/event-listings';
import { PurgeKeyCollector } from './purges/purge-key-collector';

/**
 * The catalogue's read side, above the events domain. Its inputs are what writes leave: domain
 * events (the count caches' generations, the surrogate keys to purge) and the rows the database
 * triggers keep (the listings, the documents' versions). Its outputs are bytes: the single GET's
 * stored document, the list's pages, the counts lists show.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([StoredEventDocument, EventListing, EventListingDay, EventListingPair, EventListingPairDay]),
    EventsModule,
    CategoriesModule,
    MetricsModule,
  ],
  providers: [
    EventReads,
    EventReadsRepository,
    EventDocuments,
    StoredEventDocuments,
    EventListingsReader,
    CountCache,
    CountCacheInvalidation,
    PurgeKeyCollector,
  ],
  exports: [EventReads, EventDocuments, CountCache],
})
export class CatalogueReadModule {}
