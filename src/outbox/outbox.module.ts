import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';

/** Writing into the outbox, for every feature module that causes notifications (global: no import cycles). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMessage])],
  providers: [OutboxService, OutboxRepository],
  exports: [OutboxService],
})
export class OutboxModule {}
