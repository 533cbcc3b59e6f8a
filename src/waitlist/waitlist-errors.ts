import { ApiError } from '../common/errors/api-error';

export const WaitlistErrorCode = {
  disabled: 'waitlist-disabled',
  notSoldOut: 'waitlist-ticket-available',
  alreadyJoined: 'waitlist-already-joined',
  entryNotFound: 'waitlist-entry-not-found',
  offerInvalid: 'waitlist-offer-invalid',
  notCancellable: 'waitlist-entry-not-cancellable',
} as const;

/** 409: the ticket has no waitlist (`waitlist` is off). */
export function waitlistDisabled(ticketId: number): ApiError {
  return new ApiError(WaitlistErrorCode.disabled, `Ticket ${ticketId} has no waitlist.`, 409, { ticket_id: ticketId });
}

/** 409: units can be bought now; the waitlist is for sold-out tickets. */
export function ticketNotSoldOut(ticketId: number, available: number): ApiError {
  return new ApiError(WaitlistErrorCode.notSoldOut, `Ticket ${ticketId} is not sold out: buy it instead.`, 409, {
    ticket_id: ticketId,
    available,
  });
}

/** 409: this address already waits (or holds an offer) for this ticket. */
export function alreadyJoined(ticketId: number): ApiError {
  return new ApiError(WaitlistErrorCode.alreadyJoined, `This email is already on the waitlist of ticket ${ticketId}.`, 409, {
    ticket_id: ticketId,
    params: { email: 'already on this waitlist' },
  });
}

/** 404: no entry with that id or token (or one the caller may not manage). */
export function entryNotFound(): ApiError {
  return new ApiError(WaitlistErrorCode.entryNotFound, 'No such waitlist entry.', 404);
}

/** 409: the entry is done (purchased, expired, cancelled) and cannot be left any more. */
export function entryNotCancellable(status: string): ApiError {
  return new ApiError(WaitlistErrorCode.notCancellable, `The waitlist entry is ${status}.`, 409, { status_now: status });
}

/** 409 naming `waitlist_offer`: the offer token is unknown, used, or has expired. */
export function offerInvalid(reason: string): ApiError {
  return new ApiError(WaitlistErrorCode.offerInvalid, `The waitlist offer cannot be used: ${reason}.`, 409, {
    params: { waitlist_offer: reason },
  });
}
