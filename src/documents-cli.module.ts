import { Module } from '@nestjs/common';
import { CatalogueReadModule } from './catalogue/catalogue.module';
import { CommonModule } from './common/common.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { OutboxModule } from './outbox/outbox.module';
import { SeriesFactsModule } from './series/series-facts';
import { EventTicketingModule } from './tickets/tickets.module';
import { EventsModule } from './events/events.module';

/**
 * What `documents:store` needs: the events module on the database, with the ports that tell it an
 * event's tickets and series (documents show both), without the HTTP server or the workers.
 */
@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    CommonModule,
    OutboxModule,
    EventsModule,
    CatalogueReadModule,
    EventTicketingModule,
    SeriesFactsModule,
  ],
})
export class DocumentsCliModule {}
