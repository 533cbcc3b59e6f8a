import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesModule } from '../categories/categories.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { TagsModule } from '../tags/tags.module';
import { VenuesModule } from '../venues/venues.module';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from './event-links.entity';
import { EventRelationsLoader } from './event-relations.loader';
import { Event } from './event.entity';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** The events domain: events and their links, and the rules of their writes. Reads are the catalogue's (catalogue/); the routes live in event-routes/. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Event, EventVenueLink, EventOrganizerLink, EventCategoryLink, EventTagLink]),
    VenuesModule,
    OrganizersModule,
    CategoriesModule,
    TagsModule,
  ],
  providers: [EventsService, EventsRepository, EventRelationsLoader],
  exports: [EventsService, EventRelationsLoader],
})
export class EventsModule {}
