import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CapacityService } from './capacity.service';
import { Ticket } from './ticket.entity';
import { TicketPool } from './ticket-pool.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Ticket, TicketPool])],
  providers: [CapacityService],
  exports: [CapacityService],
})
export class TicketsModule {}
