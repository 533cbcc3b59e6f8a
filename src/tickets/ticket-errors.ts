import { ApiError } from '../common/errors/api-error';
import { invalidNonce } from '../auth/auth-errors';

/** The error codes of the tickets routes, as the reference names them. */
export const TicketErrorCode = {
  notFound: 'ticket-not-found',
  notAccessible: 'ticket-not-accessible',
  hasAttendees: 'has-attendees',
  invalidProvider: 'bad_request',
  invalidPrice: 'tec-tickets-rest-invalid_price',
} as const;

export function ticketNotFound(): ApiError {
  return new ApiError(TicketErrorCode.notFound, 'The requested ticket does not exist.', 404);
}

export function ticketNotAccessible(): ApiError {
  return new ApiError(TicketErrorCode.notAccessible, 'The requested ticket is not accessible.', 401);
}

/**
 * The original answers every refused ticket write with the invalid-nonce body, whatever the reason
 * (nonce or capability); clients written for it expect it.
 */
export function ticketWriteForbidden(): ApiError {
  return invalidNonce();
}

export function ticketHasAttendees(): ApiError {
  return new ApiError(TicketErrorCode.hasAttendees, 'The ticket has attendees and cannot be deleted.', 409);
}

/** A provider the service does not sell through. */
export function invalidCommerceModule(): ApiError {
  return new ApiError(TicketErrorCode.invalidProvider, 'Commerce Module invalid', 400);
}

export function invalidPrice(): ApiError {
  return new ApiError(TicketErrorCode.invalidPrice, 'Invalid price', 400);
}
