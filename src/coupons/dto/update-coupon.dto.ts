import { ApiSchema, PartialType } from '@nestjs/swagger';
import { CreateCouponDto } from './create-coupon.dto';

/** Body of POST|PUT|PATCH /coupons/{id}: fields left out keep their values; `uses` is read-only (ignored). */
@ApiSchema({ name: 'CouponUpdate' })
export class UpdateCouponDto extends PartialType(CreateCouponDto) {}
