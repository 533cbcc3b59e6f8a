import { ApiError } from '../common/errors/api-error';

export const PaymentErrorCode = {
  invalidSignature: 'invalid-stripe-signature',
  notConfigured: 'payment-provider-not-configured',
  unavailable: 'payment-provider-unavailable',
  refused: 'payment-provider-refused',
} as const;

/** A Stripe webhook without a valid `Stripe-Signature` (missing, forged, wrong secret, outside the tolerance). */
export function invalidStripeSignature(detail: string): ApiError {
  return new ApiError(PaymentErrorCode.invalidSignature, `The Stripe-Signature header is not valid: ${detail}`, 400);
}

export function stripeNotConfigured(): ApiError {
  return new ApiError(
    PaymentErrorCode.notConfigured,
    'Stripe is not configured (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY).',
    400,
  );
}

/** The provider could not be reached, or answered with a server error: nothing was refunded; try again. */
export function paymentProviderUnavailable(detail: string): ApiError {
  return new ApiError(PaymentErrorCode.unavailable, `The payment provider did not answer: ${detail}`, 503, { retry_after: 5 });
}

/** The provider refused the request (its message says why). */
export function paymentProviderRefused(detail: string): ApiError {
  return new ApiError(PaymentErrorCode.refused, `The payment provider refused the request: ${detail}`, 409);
}
