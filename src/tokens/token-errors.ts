import { ApiError } from '../common/errors/api-error';

export const TokenManagementErrorCode = { notFound: 'token-not-found' } as const;

/** Also the answer for a token of another user: ids cannot be probed. */
export function tokenNotFound(id: number): ApiError {
  return new ApiError(TokenManagementErrorCode.notFound, `API token with ID ${id} does not exist.`, 404);
}
