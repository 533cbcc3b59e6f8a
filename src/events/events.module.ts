import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from './event-links.entity';
import { Event } from './event.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Event, EventVenueLink, EventOrganizerLink, EventCategoryLink, EventTagLink])],
})
export class EventsModule {}
