import { ApiError } from '../common/errors/api-error';
import type { OrderStatus } from './order.entity';

/** Also what callers who may not see an order get, so that order ids cannot be probed. */
export function orderNotFound(): ApiError {
  return new ApiError('order-not-found', 'The requested order does not exist.', 404);
}

export const orderInvalidStatusCode = 'order-invalid-status';

export function orderInvalidStatus(action: string, status: OrderStatus, detail?: string): ApiError {
  return new ApiError(orderInvalidStatusCode, detail ?? `A ${status} order cannot be ${action}.`, 409, { order_status: status });
}

export function cartEmpty(): ApiError {
  return new ApiError('cart-empty', 'The cart holds no tickets of this provider.', 400);
}

export function idempotencyKeyReused(): ApiError {
  return new ApiError('idempotency-key-reused', 'This Idempotency-Key was used with another request body.', 422);
}

export function invalidSignature(detail = 'The request signature is not valid.'): ApiError {
  return new ApiError('invalid-signature', detail, 403);
}

/** A cart whose total passes what amounts can hold exactly (src/common/money.ts): never rounded. */
export function orderTotalTooLarge(): ApiError {
  return new ApiError('order-total-too-large', 'The order total is more than the service can charge; split it into several orders.', 400);
}
