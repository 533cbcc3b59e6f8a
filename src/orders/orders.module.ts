import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttendeeQuestionsModule } from '../attendee-questions/attendee-questions.module';
import { CartModule } from '../cart/cart.module';
import { CouponsModule } from '../coupons/coupons.module';
import { MetricsModule } from '../metrics/metrics.module';
import { PaymentsCoreModule } from '../payments/payments-core.module';
import { TicketsModule } from '../tickets/tickets.module';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { CheckoutCatalog } from './checkout-catalog';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyService } from './idempotency.service';
import { Order, OrderItem } from './order.entity';
import { OrderExpiryService } from './order-expiry.service';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** Checkout (`{prefix}/tickets/v1/cart/checkout`), orders and the sweeper that expires unpaid holds. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Order, OrderItem, IdempotencyKey]),
    CartModule,
    TicketsModule,
    MetricsModule,
    CouponsModule,
    AttendeeQuestionsModule,
    WaitlistModule,
    PaymentsCoreModule,
  ],
  controllers: [CheckoutController, OrdersController],
  providers: [
    CheckoutService,
    CheckoutCatalog,
    OrdersService,
    OrdersRepository,
    IdempotencyService,
    IdempotencyKeysRepository,
    OrderExpiryService,
  ],
  exports: [OrdersService, OrderExpiryService, CheckoutService, IdempotencyService],
})
export class OrdersModule {}
