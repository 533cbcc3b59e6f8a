import { Global, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ADMISSION_GATE } from '../cart/admission-gate';
import { ThrottlingModule } from '../common/throttling/throttling.module';
import { MetricsModule } from '../metrics/metrics.module';
import { AdmissionTokens } from './admission-tokens';
import { LiveQueues } from './live-queues';
import { Queue, QueueAdmission, QueueEntry } from './queue.entity';
import { QueueAdmissionGate } from './queue-admission-gate';
import { QUEUE_ENTRY_ROUTE, QUEUE_STATUS_ROUTE, QueuePollMiddleware } from './queue-poll.middleware';
import { QueueEntryPlaces } from './queue-entry-places';
import { QueueSnapshots } from './queue-snapshots';
import { QueueSoldOut } from './queue-sold-out';
import { QueueTicker } from './queue-ticker.service';
import { QueuesController } from './queues.controller';
import { QueuesRepository } from './queues.repository';
import { QueuesService } from './queues.service';

/**
 * Waiting rooms for on-sales (`{prefix}/tickets/v1/queues`, docs/waiting-room.md). Global only to
 * answer the cart's and the checkout's ADMISSION_GATE port, so neither imports this module.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Queue, QueueEntry, QueueAdmission]), MetricsModule, ThrottlingModule],
  controllers: [QueuesController],
  providers: [
    QueuesRepository,
    QueuesService,
    AdmissionTokens,
    LiveQueues,
    QueueSnapshots,
    QueueEntryPlaces,
    QueueAdmissionGate,
    QueueTicker,
    QueueSoldOut,
    { provide: ADMISSION_GATE, useExisting: QueueAdmissionGate },
  ],
  exports: [ADMISSION_GATE],
})
export class QueuesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // The crowd's status polls, before Nest's router (GET routes also answer HEAD).
    consumer
      .apply(QueuePollMiddleware)
      .forRoutes({ path: QUEUE_STATUS_ROUTE, method: RequestMethod.GET }, { path: QUEUE_ENTRY_ROUTE, method: RequestMethod.GET });
  }
}
