import { ApiError } from '../common/errors/api-error';
import type { CouponProblem } from './coupon-discount';

export const CouponErrorCode = {
  notFound: 'coupon-not-found',
  codeTaken: 'coupon-code-taken',
  hasUses: 'coupon-has-uses',
  notValid: 'coupon-not-valid',
  notUsable: 'coupon-not-usable',
  forbidden: 'coupon-forbidden',
  required: 'coupon-required',
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

/**
 * Why a code cannot be used, in the words the cart and checkout both use. `usesLeft`: for
 * `used-up`, the uses the code still has when they are fewer than the units asked.
 */
function problemReason(problem: CouponProblem | 'unknown', usesLeft?: number): string {
  if (problem === 'used-up' && usesLeft !== undefined && usesLeft > 0) return `the coupon has only ${usesLeft} use(s) left`;
  return PROBLEM_REASONS[problem];
}

/** `uses_left` in an error's data when it is known (a used-up code asked for more units than it has). */
function usesLeftData(problem: CouponProblem | 'unknown' | 'hidden-ticket', usesLeft?: number): { uses_left?: number } {
  return problem === 'used-up' && usesLeft !== undefined ? { uses_left: usesLeft } : {};
}

/**
 * 400 on a cart write or a list naming `field` (`coupon`, or the quantity that asks more units than
 * the code has uses left): the code cannot be used now, or not for that many units.
 */
export function couponNotValid(problem: CouponProblem | 'unknown', field = 'coupon', usesLeft?: number): ApiError {
  const reason = problemReason(problem, usesLeft);
  return new ApiError(CouponErrorCode.notValid, `The coupon cannot be used: ${reason}.`, 400, {
    params: { [field]: reason },
    reason: problem,
    ...usesLeftData(problem, usesLeft),
  });
}

/** 409 at checkout: the coupon stored in the cart can no longer be used (nothing was taken). */
export function couponUnusable(problem: CouponProblem | 'unknown' | 'hidden-ticket', ticketId?: number, usesLeft?: number): ApiError {
  const reason =
    problem === 'hidden-ticket' ? `ticket ${ticketId} is sold only with an access code that reveals it` : problemReason(problem, usesLeft);
  return new ApiError(CouponErrorCode.notUsable, `The order cannot be placed: ${reason}.`, 409, {
    reason: problem,
    ...(ticketId === undefined ? {} : { ticket_id: ticketId }),
    ...usesLeftData(problem, usesLeft),
  });
}

/**
 * 409 on a cart write that would leave a ticket sold only with an access code (`hidden_without_coupon`)
 * in the cart without a code that reveals it: removing or replacing the code, or changing the line
 * of such a ticket once the cart's code no longer reveals it. Nothing is stored.
 */
export function couponRequired(ticketId: number): ApiError {
  const reason = `ticket ${ticketId} in the cart is sold only with an access code that reveals it`;
  return new ApiError(
    CouponErrorCode.required,
    `The cart cannot be changed so: ${reason}. Keep such a code in the cart, or remove the ticket (quantity 0) in the same write.`,
    409,
    { params: { coupon: reason }, ticket_id: ticketId },
  );
}

export function couponForbidden(anonymous = false): ApiError {
  return new ApiError(
    anonymous ? 'rest_forbidden' : CouponErrorCode.forbidden,
    'Only the managers of its events may see or change this coupon.',
    anonymous ? 401 : 403,
  );
}
