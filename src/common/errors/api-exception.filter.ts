import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { databaseBusy, isForeignKeyViolation, isLockConflict, isUniqueViolation } from '../database/transactions';
import { PRIVATE_CACHE_CONTROL } from '../http/http-caching';
import { ApiError, ApiErrorBody, noRoute } from './api-error';

/** Status codes whose reason we can name without knowing more about the exception. */
const CODES_BY_STATUS: Record<number, [string, string]> = {
  400: ['rest_bad_request', 'The request is not valid.'],
  401: ['rest_forbidden', 'Sorry, you are not allowed to do that.'],
  403: ['rest_forbidden', 'Sorry, you are not allowed to do that.'],
  404: ['rest_no_route', 'No route was found matching the URL and request method.'],
  405: ['rest_no_route', 'No route was found matching the URL and request method.'],
  413: ['rest_request_too_large', 'The request body is too large.'],
  415: ['rest_unsupported_media_type', 'The request body has a content type or encoding that is not supported.'],
  429: ['rest_too_many_requests', 'Too many requests; try again later.'],
  503: ['service-unavailable', 'The service is unavailable; try again later.'],
};

/** Driver error codes that mean the database cannot be reached right now. */
const DATABASE_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  // mysql2's pool cluster (read replicas) while every replica is failing and waiting to be retried.
  'POOL_NONEONLINE',
  'SQLITE_BUSY',
]);

/**
 * Statements the server stopped: MariaDB's max_statement_time (1969) and MySQL's
 * max_execution_time (3024), set from DATABASE_STATEMENT_TIMEOUT_MS, or a KILL QUERY (1317).
 */
const STATEMENT_INTERRUPTED_ERRNOS = new Set([1969, 3024, 1317]);

/** The driver's error number, and whether it marked the connection as broken (mysql2's `fatal`). */
function driverFailure(exception: unknown): { errno?: number; fatal: boolean } {
  if (typeof exception !== 'object' || exception === null) return { fatal: false };
  const candidate = exception as { errno?: unknown; fatal?: unknown; driverError?: { errno?: unknown; fatal?: unknown } };
  const errno = candidate.driverError?.errno ?? candidate.errno;
  return { errno: typeof errno === 'number' ? errno : undefined, fatal: candidate.fatal === true || candidate.driverError?.fatal === true };
}

function errorCode(exception: unknown): string | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const candidate = exception as { type?: unknown; code?: unknown; driverError?: { code?: unknown } };
  if (typeof candidate.type === 'string') return candidate.type;
  if (typeof candidate.code === 'string') return candidate.code;
  if (typeof candidate.driverError?.code === 'string') return candidate.driverError.code;
  return undefined;
}

/**
 * The one error renderer: domain errors (body parser failures arrive as such, see body-parsers.ts),
 * framework HTTP errors and unknown routes become `{code, message, data: {status, ...}}`. Anything else is logged and answered with
 * a generic 500 that reveals nothing of the failure.
 */
/**
 * What a handler or interceptor set for the answer it was building before it failed (an event's
 * ETag and surrogate keys, `Cache-Control: public`) does not describe the error: no shared cache
 * keeps an error, and its ETag is its own body's.
 */
function forgetRepresentationHeaders(response: Response): void {
  for (const header of ['ETag', 'Surrogate-Key', 'Cache-Tag']) response.removeHeader(header);
  const cacheControl = response.getHeader('Cache-Control');
  if (typeof cacheControl === 'string' && /\bpublic\b/.test(cacheControl)) response.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const body = this.toBody(exception);
    if (response.headersSent) return;
    forgetRepresentationHeaders(response);
    const retryAfter = body.data.retry_after;
    if (typeof retryAfter === 'number') response.setHeader('Retry-After', String(retryAfter));
    if (exception instanceof ApiError) for (const [name, value] of Object.entries(exception.headers)) response.setHeader(name, value);
    response.status(body.data.status).json(body);
  }

  toBody(exception: unknown): ApiErrorBody {
    if (exception instanceof ApiError) return exception.toBody();
    const code = errorCode(exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Nest's own 404 is raised only when no route matches.
      if (status === 404) return noRoute().toBody();
      const known = CODES_BY_STATUS[status];
      if (known) return { code: known[0], message: known[1], data: { status } };
    }
    if (isUniqueViolation(exception) || isForeignKeyViolation(exception)) {
      this.logger.warn({ err: exception }, 'constraint violation from a concurrent change');
      return { code: 'rest_conflict', message: 'The request conflicts with a concurrent change; retry it.', data: { status: 409 } };
    }
    if (isLockConflict(exception)) {
      this.logger.warn({ err: exception }, 'lock conflict outlived the retries');
      return databaseBusy().toBody();
    }
    const failure = driverFailure(exception);
    if (failure.errno !== undefined && STATEMENT_INTERRUPTED_ERRNOS.has(failure.errno)) {
      this.logger.warn({ err: exception }, 'database statement stopped by the statement timeout');
      return { code: 'db-timeout', message: 'The database took too long to answer; try again later.', data: { status: 503 } };
    }
    if ((code && DATABASE_UNAVAILABLE.has(code)) || failure.fatal) {
      this.logger.error({ err: exception }, 'database unavailable');
      return { code: 'db-unavailable', message: 'The database is unavailable; try again later.', data: { status: 503 } };
    }
    this.logger.error({ err: exception }, 'unexpected error');
    return {
      code: 'internal_server_error',
      message: 'An unexpected error occurred. It has been logged.',
      data: { status: 500 },
    };
  }
}
