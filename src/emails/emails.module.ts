import { Module } from '@nestjs/common';
import { CartModule } from '../cart/cart.module';
import { EventsModule } from '../events/events.module';
import { EmailsRepository } from './emails.repository';
import { EmailsService } from './emails.service';
import { MailTransport } from './mail-transport.service';
import { ResendController } from './resend.controller';

/** The buyer's emails (SMTP or .eml files) and the resend routes of orders and attendees. */
@Module({
  imports: [EventsModule, CartModule],
  controllers: [ResendController],
  providers: [EmailsService, EmailsRepository, MailTransport],
  exports: [EmailsService, MailTransport],
})
export class EmailsModule {}
