import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Payment, PaymentProviderEvent, PaymentRefund } from './payment.entity';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { StripePaymentProvider } from './stripe-payment.provider';

/**
 * The provider side of orders (which provider, intents, owed calls, refunds), imported by the
 * orders module; it knows nothing of orders' transitions, so the two do not import each other.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Payment, PaymentRefund, PaymentProviderEvent])],
  providers: [PaymentsRepository, PaymentsService, StripePaymentProvider],
  exports: [PaymentsRepository, PaymentsService, StripePaymentProvider],
})
export class PaymentsCoreModule {}
