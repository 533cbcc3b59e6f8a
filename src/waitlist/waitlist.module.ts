import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TicketsModule } from '../tickets/tickets.module';
import { WaitlistController } from './waitlist.controller';
import { WaitlistEntry } from './waitlist-entry.entity';
import { WaitlistExpiryService } from './waitlist-expiry.service';
import { WaitlistOffersService } from './waitlist-offers.service';
import { WaitlistRepository } from './waitlist.repository';
import { WaitlistService } from './waitlist.service';

/**
 * The waitlist (`{prefix}/tickets/v1/waitlist`, docs/waitlist.md): entries, offers that hold units
 * for the next in line, and the sweep that expires them. Registers with CapacityService for units
 * coming back; exports WaitlistOffersService for the cart (offers on lines) and checkout (redeeming).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WaitlistEntry]), TicketsModule],
  controllers: [WaitlistController],
  providers: [WaitlistRepository, WaitlistOffersService, WaitlistService, WaitlistExpiryService],
  exports: [WaitlistOffersService, WaitlistExpiryService, WaitlistService],
})
export class WaitlistModule {}
