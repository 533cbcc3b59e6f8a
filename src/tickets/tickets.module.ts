import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueReadModule } from '../catalogue/catalogue.module';
import { AuthModule } from '../auth/auth.module';
import { CouponsModule } from '../coupons/coupons.module';
import { EVENT_TICKETING } from '../events/event-ports';
import { CapacityRepository } from './capacity.repository';
import { CapacityService } from './capacity.service';
import { Ticket } from './ticket.entity';
import { TicketCapacityCounter } from './ticket-capacity-counter.entity';
import { TicketPool } from './ticket-pool.entity';
import { TicketsController } from './tickets.controller';
import { TicketsRepository } from './tickets.repository';
import { TicketsService } from './tickets.service';

/**
 * Tickets of events: routes and capacity. What the events namespace learns about tickets
 * (`ticketed`, offers, the refusal to destroy an event with attendees) it asks through its
 * EVENT_TICKETING port, which EventTicketingModule answers with TicketsService.
 * Exports TicketsService (`findByIds` for carts and checkout) and CapacityService.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Ticket, TicketPool, TicketCapacityCounter]), AuthModule, CouponsModule, CatalogueReadModule],
  controllers: [TicketsController],
  providers: [CapacityService, CapacityRepository, TicketsService, TicketsRepository],
  exports: [CapacityService, TicketsService],
})
export class TicketsModule {}

/** Answers the events module's EVENT_TICKETING port (events/event-ports.ts) for the whole app. */
@Global()
@Module({
  imports: [TicketsModule],
  providers: [{ provide: EVENT_TICKETING, useExisting: TicketsService }],
  exports: [EVENT_TICKETING],
})
export class EventTicketingModule {}
