import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { OrdersModule } from '../orders/orders.module';
import { PaymentCaptureController } from './payment-capture.controller';
import { PaymentEventsService } from './payment-events.service';
import { PaymentWebhookController } from './payment-webhook.controller';
import { PaymentsCoreModule } from './payments-core.module';

/** Payments (docs/payments.md): the providers' webhooks and the buyer's capture, which move orders through OrdersService. */
@Module({
  imports: [PaymentsCoreModule, OrdersModule, MetricsModule],
  controllers: [PaymentWebhookController, PaymentCaptureController],
  providers: [PaymentEventsService],
})
export class PaymentsModule {}
