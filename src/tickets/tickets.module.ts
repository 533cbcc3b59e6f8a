import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { CouponsModule } from '../coupons/coupons.module';
import { EventHooks } from '../events/event-hooks';
import { EventsModule } from '../events/events.module';
import { CapacityRepository } from './capacity.repository';
import { CapacityService } from './capacity.service';
import { Ticket } from './ticket.entity';
import { TicketCapacityCounter } from './ticket-capacity-counter.entity';
import { TicketPool } from './ticket-pool.entity';
import { TicketsController } from './tickets.controller';
import { TicketsRepository } from './tickets.repository';
import { TicketsService } from './tickets.service';

/**
 * Tickets of events: routes, capacity, and what the events namespace learns about tickets
 * (`ticketed`, and the refusal to destroy an event with attendees) through EventHooks.
 * Exports TicketsService (`findByIds` for carts and checkout) and CapacityService.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Ticket, TicketPool, TicketCapacityCounter]), AuthModule, EventsModule, CouponsModule],
  controllers: [TicketsController],
  providers: [CapacityService, CapacityRepository, TicketsService, TicketsRepository],
  exports: [CapacityService, TicketsService],
})
export class TicketsModule implements OnModuleInit {
  constructor(
    private readonly tickets: TicketsService,
    private readonly eventHooks: EventHooks,
  ) {}

  onModuleInit(): void {
    this.eventHooks.registerTicketing({
      ticketProviders: (eventIds, manager) => this.tickets.ticketProviders(eventIds, manager),
      hasAttendees: (eventId, manager) => this.tickets.hasAttendees(eventId, manager),
      ticketOffers: (eventId) => this.tickets.ticketOffers(eventId),
    });
  }
}
