import { ApiError } from '../common/errors/api-error';

export const PaymentErrorCode = {
  notConfigured: 'payment-provider-not-configured',
  unavailable: 'payment-provider-unavailable',
  refused: 'payment-provider-refused',
  notCapturable: 'payment-not-capturable',
  notApproved: 'payment-not-approved',
} as const;

/** A webhook or a call for a provider this instance has no settings for (or that no provider is named). */
export function paymentProviderNotConfigured(name: string, variables: readonly string[]): ApiError {
  const settings = variables.length > 0 ? ` (${variables.join(', ')})` : '';
  return new ApiError(PaymentErrorCode.notConfigured, `The payment provider "${name}" is not configured${settings}.`, 400);
}

/** The provider could not be reached, or answered with a server error: nothing was refunded; try again. */
export function paymentProviderUnavailable(detail: string): ApiError {
  return new ApiError(PaymentErrorCode.unavailable, `The payment provider did not answer: ${detail}`, 503, { retry_after: 5 });
}

/** The provider refused the request (its message says why). */
export function paymentProviderRefused(detail: string): ApiError {
  return new ApiError(PaymentErrorCode.refused, `The payment provider refused the request: ${detail}`, 409);
}

/** A capture asked of an order whose payment is not one the service captures (no payment, or its provider takes the money itself). */
export function paymentNotCapturable(detail: string): ApiError {
  return new ApiError(PaymentErrorCode.notCapturable, `The order's payment cannot be captured: ${detail}`, 409);
}

/** A capture before the buyer approved the payment at the provider. */
export function paymentNotApproved(): ApiError {
  return new ApiError(PaymentErrorCode.notApproved, 'The buyer has not approved the payment at the provider yet.', 409);
}
