import { ApiError } from '../common/errors/api-error';

/** The error codes of users, application passwords and nonces, as the reference names them. */
export const AuthErrorCode = {
  invalidNonce: 'forbidden',
  existingLogin: 'existing_user_login',
  unknownUser: 'rest_user_invalid_id',
} as const;

/** A nonce of another action or user, expired or forged. */
export function invalidNonce(): ApiError {
  return new ApiError(AuthErrorCode.invalidNonce, 'Invalid nonce', 403);
}

export function existingUserLogin(login: string): ApiError {
  return new ApiError(AuthErrorCode.existingLogin, `A user with the login "${login}" already exists.`, 409);
}

export function unknownUserLogin(login: string): ApiError {
  return new ApiError(AuthErrorCode.unknownUser, `No user has the login "${login}".`, 404);
}

/** RFC 6750's codes for a refused Bearer token. */
export const TokenErrorCode = {
  invalidToken: 'invalid_token',
  insufficientScope: 'insufficient_scope',
} as const;

/** Unknown, malformed, expired, revoked, its owner gone or the address not allowed: 401 (RFC 6750). */
export function invalidToken(): ApiError {
  return new ApiError(
    TokenErrorCode.invalidToken,
    'The API token is invalid, expired or revoked.',
    401,
    {},
    {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    },
  );
}

/** The token lacks the scope the route needs: 403 (RFC 6750), naming it. */
export function insufficientScope(scope: string): ApiError {
  return new ApiError(
    TokenErrorCode.insufficientScope,
    `The API token lacks the scope ${scope}.`,
    403,
    { scope },
    {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
    },
  );
}

/** API tokens never manage tokens: a token cannot mint, widen or revoke one. */
export function tokensCannotManageTokens(): ApiError {
  return new ApiError('rest_forbidden', 'API tokens cannot manage API tokens; sign in with an application password.', 403);
}
