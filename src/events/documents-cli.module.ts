import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { AppConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { OutboxModule } from '../outbox/outbox.module';
import { EventsModule } from './events.module';

/** What `documents:store` needs: the events module on the database, without the HTTP server or the workers. */
@Module({
  imports: [AppConfigModule, DatabaseModule, CommonModule, OutboxModule, EventsModule],
})
export class DocumentsCliModule {}
