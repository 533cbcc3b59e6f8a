import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Webhook endpoints (`{prefix}/tickets/v1/webhooks`) and the signed deliveries the outbox worker makes to them. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint])],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksRepository],
  exports: [WebhooksService],
})
export class WebhooksModule {}
