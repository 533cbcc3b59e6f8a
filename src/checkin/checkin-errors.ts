import { ApiError, ApiErrorBody } from '../common/errors/api-error';
import type { AnnulRefusal, RedeemReason } from './redeem-rules';

/** The error codes of the check-in routes. */
export const CheckinErrorCode = {
  listNotFound: 'checkin-list-not-found',
  listIsDefault: 'checkin-list-is-default',
  listHasCheckins: 'checkin-list-has-checkins',
  deviceNotFound: 'device-not-found',
  deviceTokenInvalid: 'device-token-invalid',
  deviceNotAllowed: 'device-not-allowed',
  checkinNotFound: 'checkin-not-found',
  annulForbidden: 'checkin-annul-forbidden',
  notAnnullable: 'checkin-not-annullable',
  alreadyAnnulled: 'checkin-already-annulled',
  annulExpired: 'checkin-annul-expired',
  nonceReused: 'nonce-reused',
} as const;

export function checkinListNotFound(): ApiError {
  return new ApiError(CheckinErrorCode.listNotFound, 'The check-in list does not exist.', 404);
}

export function checkinListIsDefault(): ApiError {
  return new ApiError(CheckinErrorCode.listIsDefault, "An event's default check-in list cannot be deleted.", 409);
}

export function checkinListHasCheckins(): ApiError {
  return new ApiError(CheckinErrorCode.listHasCheckins, 'The check-in list has check-ins; it is kept for their history.', 409);
}

export function deviceNotFound(): ApiError {
  return new ApiError(CheckinErrorCode.deviceNotFound, 'The device does not exist.', 404);
}

export function deviceTokenInvalid(): ApiError {
  return new ApiError(CheckinErrorCode.deviceTokenInvalid, 'The device token is unknown, used, expired or revoked.', 401);
}

export function deviceNotAllowed(): ApiError {
  return new ApiError(CheckinErrorCode.deviceNotAllowed, 'Devices may only use the check-in routes of their lists.', 401);
}

export function checkinNotFound(): ApiError {
  return new ApiError(CheckinErrorCode.checkinNotFound, 'No check-in has this id (or this nonce of yours).', 404);
}

/** Why POST /checkin/annul refused, as its error. */
export function annulRefused(refusal: AnnulRefusal, minutes: number): ApiError {
  switch (refusal) {
    case 'forbidden':
      return new ApiError(
        CheckinErrorCode.annulForbidden,
        'Only the device that scanned, or door staff and managers of the list, may annul this check-in.',
        403,
      );
    case 'not_annullable':
      return new ApiError(CheckinErrorCode.notAnnullable, 'Only a successful scan made at the door can be annulled.', 409);
    case 'already_annulled':
      return new ApiError(CheckinErrorCode.alreadyAnnulled, 'The check-in is already annulled.', 409);
    case 'expired':
      return new ApiError(CheckinErrorCode.annulExpired, `A check-in can be annulled for ${minutes} minutes after it was received.`, 409, {
        annul_minutes: minutes,
      });
  }
}

/** The same nonce again with another request: a scanner bug, answered so rather than with another ticket's answer. */
export function nonceReused(): ApiError {
  return new ApiError(
    CheckinErrorCode.nonceReused,
    'This nonce was already used for another request (another secret, list, type, time or force); send a new nonce for a new scan.',
    409,
    { params: { nonce: 'nonce was already used for another request' } },
  );
}

const REASON_MESSAGES: Record<RedeemReason, string> = {
  invalid: 'No ticket holds this code on these lists.',
  unpaid: 'The order is not paid.',
  canceled: 'The order is cancelled, refunded or expired.',
  already_redeemed: 'The ticket has already been redeemed.',
  product: 'The ticket is not valid on this list.',
  invalid_time: 'The ticket is not valid at this time on this list.',
  revoked: 'The code was revoked; the ticket has a new one.',
  ambiguous: 'Several of the lists would admit this ticket.',
  blocked: 'The ticket is blocked.',
};

/** The HTTP status of each refusal: an unknown code is not found, everything else conflicts with the ticket's state. */
export function redeemStatus(reason: RedeemReason): number {
  return reason === 'invalid' ? 404 : 409;
}

/** A refused scan: the envelope plus `status: "error"` and `reason` at the top, as pretix's clients read them. */
export class RedeemError extends ApiError {
  constructor(
    readonly reason: RedeemReason,
    extra: Record<string, unknown> = {},
  ) {
    super(`checkin-${reason.replace(/_/g, '-')}`, REASON_MESSAGES[reason], redeemStatus(reason), { reason, ...extra });
  }

  override toBody(): ApiErrorBody & { status: 'error'; reason: RedeemReason } {
    return { ...super.toBody(), status: 'error', reason: this.reason };
  }
}

/** A stored answer replayed for a retry with the same nonce. */
export class ReplayedAnswer extends ApiError {
  constructor(
    readonly statusCode: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.code, body.message, statusCode);
  }

  override toBody(): ApiErrorBody {
    return this.body;
  }
}
