import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsCoreModule } from './payments-core.module';
import { StripeWebhookController } from './stripe-webhook.controller';
import { StripeWebhookService } from './stripe-webhook.service';

/** Payments (docs/payments.md): Stripe's webhook, which moves orders through OrdersService. */
@Module({
  imports: [PaymentsCoreModule, OrdersModule, MetricsModule],
  controllers: [StripeWebhookController],
  providers: [StripeWebhookService],
})
export class PaymentsModule {}
