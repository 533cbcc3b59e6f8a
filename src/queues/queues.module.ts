import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ADMISSION_GATE } from '../cart/admission-gate';
import { MetricsModule } from '../metrics/metrics.module';
import { AdmissionTokens } from './admission-tokens';
import { LiveQueues } from './live-queues';
import { Queue, QueueAdmission, QueueEntry } from './queue.entity';
import { QueueAdmissionGate } from './queue-admission-gate';
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
  imports: [TypeOrmModule.forFeature([Queue, QueueEntry, QueueAdmission]), MetricsModule],
  controllers: [QueuesController],
  providers: [
    QueuesRepository,
    QueuesService,
    AdmissionTokens,
    LiveQueues,
    QueueSnapshots,
    QueueAdmissionGate,
    QueueTicker,
    QueueSoldOut,
    { provide: ADMISSION_GATE, useExisting: QueueAdmissionGate },
  ],
  exports: [ADMISSION_GATE],
})
export class QueuesModule {}
