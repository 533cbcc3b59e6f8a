import { ApiError } from '../common/errors/api-error';

/** The error codes of the webhooks routes. */
export const WebhookErrorCode = {
  notFound: 'webhook-not-found',
  deliveryNotFound: 'webhook-delivery-not-found',
  disabled: 'webhook-disabled',
} as const;

export function webhookNotFound(): ApiError {
  return new ApiError(WebhookErrorCode.notFound, 'The requested webhook does not exist.', 404);
}

export function deliveryNotFound(): ApiError {
  return new ApiError(WebhookErrorCode.deliveryNotFound, 'The requested delivery does not exist (or was pruned).', 404);
}

/** Redelivering through a disabled endpoint. */
export function webhookDisabled(): ApiError {
  return new ApiError(WebhookErrorCode.disabled, 'The webhook is disabled; enable it first.', 409);
}
