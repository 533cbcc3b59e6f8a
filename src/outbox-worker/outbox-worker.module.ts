import { Module } from '@nestjs/common';
import { EmailsModule } from '../emails/emails.module';
import { HttpCacheModule } from '../http-cache/http-cache.module';
import { MetricsModule } from '../metrics/metrics.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { OutboxWorker } from './outbox-worker.service';
import { OutboxRepository } from '../outbox/outbox.repository';

/**
 * The worker that delivers the outbox (OUTBOX_WORKER=false: this instance only writes into it). It
 * hands each channel to the feature that delivers it (emails, webhooks, cache purges), so it sits
 * above them, apart from src/outbox/, which every feature writes into.
 */
@Module({
  imports: [EmailsModule, WebhooksModule, MetricsModule, HttpCacheModule],
  providers: [OutboxWorker, OutboxRepository],
  exports: [OutboxWorker],
})
export class OutboxWorkerModule {}
