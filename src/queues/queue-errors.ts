import { ApiError } from '../common/errors/api-error';

export const QueueErrorCode = {
  notFound: 'queue-not-found',
  entryNotFound: 'queue-entry-not-found',
  entryExists: 'queue-entry-exists',
  notOpen: 'queue-not-open',
  closed: 'queue-closed',
  joinLimit: 'queue-join-limit',
  secretMismatch: 'queue-secret-mismatch',
  notAdmitted: 'queue-not-admitted',
  admissionRequired: 'queue-admission-required',
  admissionInvalid: 'queue-admission-invalid',
  admissionUnits: 'queue-admission-units',
  ticketsInvalid: 'queue-tickets-invalid',
  challengeFailed: 'queue-challenge-failed',
} as const;

export const QUEUE_TOKEN_HEADER = 'X-Queue-Token';
export const QUEUE_TOKEN_COOKIE = 'cal_queue';

export function queueNotFound(): ApiError {
  return new ApiError(QueueErrorCode.notFound, 'No such queue.', 404);
}

export function queueEntryNotFound(): ApiError {
  return new ApiError(QueueErrorCode.entryNotFound, 'No entry with this request_id in the queue.', 404);
}

/** 409: the request id is taken, with another secret. */
export function queueEntryExists(): ApiError {
  return new ApiError(QueueErrorCode.entryExists, 'This request_id has joined already with another secret.', 409, {
    params: { request_id: 'taken' },
  });
}

export function queueNotOpen(opensAt: Date): ApiError {
  return new ApiError(QueueErrorCode.notOpen, 'The queue does not take entries yet.', 409, { opens_at: opensAt.toISOString() });
}

export function queueClosed(reason: 'closed' | 'sold_out'): ApiError {
  return new ApiError(QueueErrorCode.closed, reason === 'sold_out' ? 'The on-sale is sold out.' : 'The queue is closed.', 409, {
    reason,
  });
}

/** 429: this address or account holds as many entries in the queue as it may. */
export function queueJoinLimit(by: 'address' | 'account', limit: number): ApiError {
  return new ApiError(QueueErrorCode.joinLimit, `At most ${limit} entries per ${by} in this queue.`, 429, { limit, by });
}

/** 403: the secret does not hash to the entry's secret_hash. */
export function queueSecretMismatch(): ApiError {
  return new ApiError(QueueErrorCode.secretMismatch, 'The secret does not match this entry.', 403, {
    params: { secret: 'does not match' },
  });
}

/** 409: the entry's turn has not come, or is over. */
export function queueNotAdmitted(status: string): ApiError {
  return new ApiError(QueueErrorCode.notAdmitted, `The entry is ${status}, not admitted.`, 409, { entry_status: status });
}

/** 403: a route taking capacity of a queued ticket was called without an admission token. */
export function admissionRequired(queueId: number): ApiError {
  return new ApiError(QueueErrorCode.admissionRequired, 'These tickets are sold through a waiting room: join the queue first.', 403, {
    queue_id: queueId,
    params: { [QUEUE_TOKEN_HEADER]: 'required' },
  });
}

/** 403: the token is malformed, for another queue, expired or revoked. */
export function admissionInvalid(queueId: number, reason: string): ApiError {
  return new ApiError(QueueErrorCode.admissionInvalid, `The admission token cannot be used: ${reason}.`, 403, {
    queue_id: queueId,
    params: { [QUEUE_TOKEN_HEADER]: reason },
  });
}

/** 409: more units than the admission has left. */
export function admissionUnits(queueId: number, unitsLeft: number): ApiError {
  return new ApiError(QueueErrorCode.admissionUnits, `The admission allows ${unitsLeft} more unit(s) of these tickets.`, 409, {
    queue_id: queueId,
    units_left: unitsLeft,
  });
}

export function queueTicketsInvalid(ticketIds: number[]): ApiError {
  return new ApiError(QueueErrorCode.ticketsInvalid, `Not tickets of this event: ${ticketIds.join(', ')}.`, 400, {
    params: { ticket_ids: `not tickets of the event: ${ticketIds.join(', ')}` },
  });
}

/** 403: the queue asks a proof-of-work with the join, and the nonce is missing or does not solve it. */
export function queueChallengeFailed(problem: 'required' | 'insufficient', bits: number): ApiError {
  const reason = problem === 'required' ? 'required' : `SHA-256("{queue id}:{request_id}:{nonce}") must start with ${bits} zero bits`;
  return new ApiError(QueueErrorCode.challengeFailed, 'This queue asks a proof-of-work with the join (challenge_nonce).', 403, {
    challenge_bits: bits,
    params: { challenge_nonce: reason },
  });
}
