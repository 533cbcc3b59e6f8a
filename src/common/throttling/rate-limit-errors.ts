import { ApiError } from '../errors/api-error';

/** Seconds for `Retry-After`: at least 1, so that a client never retries at once. */
function retryAfter(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}

/** 429 once a client or user has used up its requests of the minute. */
export function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError('rest_too_many_requests', 'Too many requests; try again later.', 429, { retry_after: retryAfter(retryAfterSeconds) });
}

/** 429 for Basic credentials of a login from an address, or from an address, that failed too often: the password is not even checked. */
export function tooManyLoginFailures(retryAfterSeconds: number): ApiError {
  return new ApiError('too-many-login-failures', 'Too many failed logins from this address; try again later.', 429, {
    retry_after: retryAfter(retryAfterSeconds),
  });
}

/** 429 for a coupon or access code sent from an address, or for a cart, that sent wrong codes too often: the code is not looked up. */
export function tooManyCodeFailures(retryAfterSeconds: number): ApiError {
  return new ApiError('too-many-coupon-failures', 'Too many wrong coupon codes from this address or for this cart; try again later.', 429, {
    retry_after: retryAfter(retryAfterSeconds),
  });
}
