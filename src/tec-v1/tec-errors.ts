import { ApiError, invalidParam } from '../common/errors/api-error';

/** What TEC names the operation in its `{"error": ...}` bodies. */
export type TecOperation = 'read' | 'updated' | 'deleted' | 'created';

/**
 * TEC's own error body, `{"error": "..."}` (not the WordPress envelope), which its entity
 * responses use for a missing entity and an entity already trashed.
 */
export class TecEntityError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
  ) {
    super(error);
  }
}

export function entityNotFound(operation: TecOperation): TecEntityError {
  return new TecEntityError(404, `The entity could not be ${operation}.`);
}

export function entityAlreadyTrashed(): TecEntityError {
  return new TecEntityError(410, 'The entity has already been trashed.');
}

/** TEC says "organizers" for every post type: kept verbatim for clients that match on it. */
export function pageNotFound(): ApiError {
  return new ApiError('tec_rest_organizers_page_not_found', 'The requested page was not found.', 404);
}

export function missingAcknowledgement(sent: boolean): ApiError {
  return new ApiError(
    'missing_experimental_endpoint_acknowledgement',
    sent ? 'Experimental endpoint requires appropriate acknowledgement header.' : 'Experimental endpoint requires acknowledgement header.',
    400,
  );
}

export function perPageOutOfRange(): ApiError {
  return invalidParam('per_page', 'per_page must be between 1 and 100');
}
