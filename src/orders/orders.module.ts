import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKey } from './idempotency-key.entity';
import { Order, OrderItem } from './order.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Order, OrderItem, IdempotencyKey])],
})
export class OrdersModule {}
