import { ApiError } from '../common/errors/api-error';

/** Unknown term id or slug in the path (decisions.md: 404, where the original answers 400). */
export function termNotFound(): ApiError {
  return new ApiError('term-not-found', 'The requested term does not exist.', 404);
}

/** WordPress's answer to a second term of the same name (at the same level, for categories). */
export function termExists(existingTermId: number): ApiError {
  return new ApiError('term_exists', 'A term with the name provided already exists with this parent.', 400, {
    term_id: existingTermId,
  });
}

/**
 * A term named in an event body that does not exist, from a caller who may not create terms:
 * refused as POST /categories and POST /tags refuse them (403 `rest_forbidden`), naming the field.
 */
export function termCreationForbidden(field: string, name: string): ApiError {
  const reason = `${field} may only name existing terms: "${name}" does not exist, and you may not create terms`;
  return new ApiError('rest_forbidden', `Sorry, you are not allowed to create terms. ${reason}.`, 403, { params: { [field]: reason } });
}
