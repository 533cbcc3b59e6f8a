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
