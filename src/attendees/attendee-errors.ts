import { ApiError } from '../common/errors/api-error';

/** The error codes of the attendees routes, as the reference names them. */
export const AttendeeErrorCode = {
  notFound: 'attendee-not-found',
  notAccessible: 'attendee-not-accessible',
  invalidCheckIn: 'attendee-invalid-check-in',
  alreadyCheckedIn: 'attendee-already-checked-in',
  invalidStatus: 'attendee-invalid-status',
} as const;

export function attendeeNotFound(message = 'The requested attendee does not exist.'): ApiError {
  return new ApiError(AttendeeErrorCode.notFound, message, 404);
}

export function attendeeNotAccessible(): ApiError {
  return new ApiError(AttendeeErrorCode.notAccessible, 'The requested attendee is not accessible.', 401);
}

/** Checking in an attendee whose order is not completed. */
export function attendeeInvalidCheckIn(): ApiError {
  return new ApiError(AttendeeErrorCode.invalidCheckIn, 'The attendee cannot be checked in: the order is not completed.', 409);
}

export function attendeeAlreadyCheckedIn(): ApiError {
  return new ApiError(AttendeeErrorCode.alreadyCheckedIn, 'The attendee is already checked in.', 409);
}

/** Resending the ticket of an attendee who holds none (order not completed, cancelled or refunded). */
export function attendeeInvalidStatus(orderStatus: string): ApiError {
  return new ApiError(AttendeeErrorCode.invalidStatus, `The attendee holds no valid ticket (order ${orderStatus}).`, 409, {
    order_status: orderStatus,
  });
}
