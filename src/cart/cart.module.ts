import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttendeeQuestionsModule } from '../attendee-questions/attendee-questions.module';
import { CouponsModule } from '../coupons/coupons.module';
import { TicketsModule } from '../tickets/tickets.module';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { CartController } from './cart.controller';
import { Cart, CartItem } from './cart.entity';
import { CartRepository } from './cart.repository';
import { CartService } from './cart.service';

/** The buyer's cart (`{prefix}/tickets/v1/cart`); checkout lives in the orders module and uses `CartService`. */
@Module({
  imports: [TypeOrmModule.forFeature([Cart, CartItem]), TicketsModule, WaitlistModule, CouponsModule, AttendeeQuestionsModule],
  controllers: [CartController],
  providers: [CartService, CartRepository],
  exports: [CartService],
})
export class CartModule {}
