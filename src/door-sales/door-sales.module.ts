import { Module } from '@nestjs/common';
import { CheckinModule } from '../checkin/checkin.module';
import { OrdersModule } from '../orders/orders.module';
import { TicketsModule } from '../tickets/tickets.module';
import { DoorSalesController } from './door-sales.controller';
import { DoorSalesRepository } from './door-sales.repository';
import { DoorSalesService } from './door-sales.service';

/**
 * Walk-in sales at the door (docs/checkin.md, "Selling at the door"): the door's callers and lists
 * (src/checkin) with the web checkout's rules (src/orders).
 */
@Module({
  imports: [CheckinModule, OrdersModule, TicketsModule],
  controllers: [DoorSalesController],
  providers: [DoorSalesService, DoorSalesRepository],
})
export class DoorSalesModule {}
