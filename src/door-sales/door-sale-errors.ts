import { ApiError, invalidParam } from '../common/errors/api-error';

/** The error codes of walk-in sales besides the checkout's own (docs/checkin.md, "Selling at the door"). */
export const DoorSaleErrorCode = {
  salesNotAllowed: 'checkin-sales-not-allowed',
  nonceReused: 'nonce-reused',
} as const;

/** 403: the list's `allow_sales` is off. */
export function checkinSalesNotAllowed(): ApiError {
  return new ApiError(DoorSaleErrorCode.salesNotAllowed, 'This check-in list does not allow sales at the door.', 403);
}

/** 409: the nonce came earlier with another body; the first sale stands. */
export function nonceReused(): ApiError {
  return new ApiError(DoorSaleErrorCode.nonceReused, 'This nonce was used with another request; send a new nonce for a new sale.', 409);
}

/** 400 naming ticket_id: a ticket of the event this list does not admit, or not one sold through checkout. */
export function ticketNotSoldHere(reason: string): ApiError {
  return invalidParam('ticket_id', reason);
}

/** 400 naming payment_method: `free` for a sale that costs something. */
export function notFree(total: string, currency: string): ApiError {
  return invalidParam('payment_method', `payment_method free is only for a total of 0; this sale costs ${total} ${currency}`);
}
