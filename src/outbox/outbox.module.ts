import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxNotifications } from './outbox-notifications';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';

/**
 * Writing into the outbox: the notifications of the domain events features publish
 * (OutboxNotifications), and direct messages for the modules that queue them (global: no import cycles).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMessage])],
  providers: [OutboxService, OutboxRepository, OutboxNotifications],
  exports: [OutboxService],
})
export class OutboxModule {}
