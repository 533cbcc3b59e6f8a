import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ThrottlingModule } from '../common/throttling/throttling.module';
import { Coupon } from './coupon.entity';
import { CouponsController } from './coupons.controller';
import { CouponsRepository } from './coupons.repository';
import { CouponsService } from './coupons.service';

/** Coupons and access codes; carts, checkout, ticket lists and order transitions call CouponsService. */
@Module({
  imports: [TypeOrmModule.forFeature([Coupon]), ThrottlingModule],
  controllers: [CouponsController],
  providers: [CouponsService, CouponsRepository],
  exports: [CouponsService],
})
export class CouponsModule {}
