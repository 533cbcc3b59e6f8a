import { HttpException } from '@nestjs/common';

/** `data` of the error envelope: the HTTP status plus whatever the error adds (`params`, ids). */
export interface ApiErrorData {
  status: number;
  params?: string[] | Record<string, string>;
  [extra: string]: unknown;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  data: ApiErrorData;
}

/**
 * A domain error carrying the reference's error code. The global filter renders it as
 * `{code, message, data: {status, ...}}`; every module throws these rather than Nest's own.
 */
export class ApiError extends HttpException {
  constructor(
    readonly code: string,
    message: string,
    status: number,
    readonly extraData: Omit<ApiErrorData, 'status'> = {},
    /** Response headers the error sets (`WWW-Authenticate` of a refused Bearer token). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message, status);
  }

  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, data: { status: this.getStatus(), ...this.extraData } };
  }
}

const FORBIDDEN_MESSAGE = 'Sorry, you are not allowed to do that.';

/** 401 for an anonymous caller, 403 for a signed-in one, as the original's `rest_forbidden`. */
export function forbidden(anonymous: boolean, message = FORBIDDEN_MESSAGE): ApiError {
  return new ApiError('rest_forbidden', message, anonymous ? 401 : 403);
}

export function missingParams(names: string[]): ApiError {
  return new ApiError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, {
    params: names,
  });
}

/** `reasons` maps each offending field to what is wrong with it. */
export function invalidParams(reasons: Record<string, string>): ApiError {
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(reasons).join(', ')}`, 400, {
    params: reasons,
  });
}

export function invalidParam(field: string, reason: string): ApiError {
  return invalidParams({ [field]: reason });
}

export function noRoute(): ApiError {
  return new ApiError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

/** WordPress's answer for a namespace index asked for a namespace the API does not have. */
export function invalidNamespace(): ApiError {
  return new ApiError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
}

export function incorrectPassword(): ApiError {
  return new ApiError('incorrect_password', 'The provided password is an invalid application password.', 401);
}
