import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaymentProviders } from './payment-providers';
import { Payment, PaymentProviderEvent, PaymentRefund } from './payment.entity';
import { PaymentsRepository } from './payments.repository';
import { paymentsConfig } from './payments.config';
import { PaymentsService } from './payments.service';

/**
 * The provider side of orders (which provider, payments, owed calls, refunds), imported by the
 * orders module; it knows nothing of orders' transitions, so the two do not import each other.
 * The providers themselves come from providers/registry.ts, made by PaymentProviders.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Payment, PaymentRefund, PaymentProviderEvent]), ConfigModule.forFeature(paymentsConfig)],
  providers: [PaymentsRepository, PaymentsService, PaymentProviders],
  exports: [PaymentsRepository, PaymentsService, PaymentProviders],
})
export class PaymentsCoreModule {}
