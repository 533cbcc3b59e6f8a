import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { PeriodicTask } from '../common/background/periodic-task';
import { appConfig } from '../config/app.config';
import { QueuesService } from './queues.service';

/**
 * Every QUEUE_TICK_MS: opens the queues whose opens_at came (the pre-queue's shuffle), closes those
 * past closes_at, ends lapsed turns and advances each serving counter. Several instances may tick at
 * once: the opening and the closing are conditional UPDATEs, and the counter's advance is written only
 * over the version it was computed from, so one instance's advance wins each round. A round that
 * loses a lock conflict (on Galera, the other node's round certified first) gives way: it admitted
 * nobody, and is neither run again nor logged (lostRound, queue-counter.ts).
 */
@Injectable()
export class QueueTicker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(QueueTicker.name);
  private readonly ticks = new PeriodicTask('queue tick', () => this.queues.tickAll(), this.logger, 'warn');

  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly queues: QueuesService,
  ) {}

  onApplicationBootstrap(): void {
    this.ticks.start(this.config.tickets.queueTickMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.ticks.stop();
  }

  /** A round now, after the one in progress (tests, the benchmark). */
  runNow(): Promise<void> {
    return this.ticks.runNow();
  }
}
