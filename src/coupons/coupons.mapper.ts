import type { RequestContext } from '../auth/request-context';
import { formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import { formatAmount } from './coupon-discount';
import { Coupon, couponTicketIds } from './coupon.entity';
import type { AppliedCoupon, CouponResponse } from './dto/coupon.response';

/** `exponent`: the currency's decimals, which a flat amount is shown with. */
export function toCouponResponse(coupon: Coupon, context: RequestContext, exponent: number): CouponResponse {
  const zone = resolveTimeZone(context.siteTimezone) ?? 'UTC';
  return {
    id: coupon.id,
    code: coupon.code,
    post_id: coupon.eventId,
    author: String(coupon.authorId),
    ticket_ids: couponTicketIds(coupon),
    discount_type: coupon.discountType,
    amount: formatAmount(coupon, exponent),
    max_uses: coupon.maxUses,
    uses: coupon.uses,
    starts_at: coupon.startsAt ? formatInZone(coupon.startsAt, zone) : '',
    ends_at: coupon.endsAt ? formatInZone(coupon.endsAt, zone) : '',
    reveals_hidden: coupon.revealsHidden,
    rest_url: context.namespaceUrl('tickets', `coupons/${coupon.id}`),
  };
}

export function toAppliedCoupon(coupon: Pick<Coupon, 'code' | 'discountType' | 'amount'>, exponent: number): AppliedCoupon {
  return { code: coupon.code, discount_type: coupon.discountType, amount: formatAmount(coupon, exponent) };
}
