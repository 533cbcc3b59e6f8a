import { ApiError } from '../common/errors/api-error';
import type { CouponProblem } from './coupon-discount';

export const CouponErrorCode = {
  notFound: 'coupon-not-found',
  codeTaken: 'coupon-code-taken',
  hasUses: 'coupon-has-uses',
  notValid: 'coupon-not-valid',
  notUsable: 'coupon-not-usable',
  forbidden: 'coupon-forbidden',
} as const;

const PROBLEM_REASONS: Record<CouponProblem | 'unknown', string> = {
  unknown: 'no coupon has this code',
  'not-started': 'the coupon is not valid yet',
  ended: 'the coupon has expired',
  'used-up': 'the coupon has no uses left',
};

export function couponNotFound(id: number): ApiError {
  return new ApiError(CouponErrorCode.notFound, `Coupon ${id} does not exist.`, 404);
}

export function couponCodeTaken(code: string): ApiError {
  return new ApiError(CouponErrorCode.codeTaken, `The code ${code} is already used by another coupon (codes ignore case).`, 409, {
    params: { code: 'already taken' },
  });
}

export function couponHasUses(uses: number): ApiError {
  return new ApiError(CouponErrorCode.hasUses, `The coupon has been used for ${uses} ticket(s) and cannot be deleted.`, 409, { uses });
}

/** 400 on a cart write or a list naming `field`: the code cannot be used now. */
export function couponNotValid(problem: CouponProblem | 'unknown', field = 'coupon'): ApiError {
  return new ApiError(CouponErrorCode.notValid, `The coupon cannot be used: ${PROBLEM_REASONS[problem]}.`, 400, {
    params: { [field]: PROBLEM_REASONS[problem] },
    reason: problem,
  });
}

/** 409 at checkout: the coupon stored in the cart can no longer be used (nothing was taken). */
export function couponUnusable(problem: CouponProblem | 'unknown' | 'hidden-ticket', ticketId?: number): ApiError {
  const reason =
    problem === 'hidden-ticket' ? `ticket ${ticketId} is sold only with an access code that reveals it` : PROBLEM_REASONS[problem];
  return new ApiError(CouponErrorCode.notUsable, `The order cannot be placed: ${reason}.`, 409, {
    reason: problem,
    ...(ticketId === undefined ? {} : { ticket_id: ticketId }),
  });
}

export function couponForbidden(anonymous = false): ApiError {
  return new ApiError(
    anonymous ? 'rest_forbidden' : CouponErrorCode.forbidden,
    'Only the managers of its events may see or change this coupon.',
    anonymous ? 401 : 403,
  );
}
