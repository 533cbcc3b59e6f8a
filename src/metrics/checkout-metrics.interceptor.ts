import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, Observable, throwError } from 'rxjs';
import { isForeignKeyViolation, isLockConflict, isUniqueViolation } from '../common/database/transactions';
import { ApiError } from '../common/errors/api-error';
import { MetricsService } from './metrics.service';

/**
 * The code a failed checkout is answered with, as the error filter writes it: the domain code of
 * ApiErrors (validation included), `rest_conflict` and `database-busy` for what concurrent
 * checkouts cause, `http_<status>` for other framework errors, `internal_server_error` for the rest.
 */
export function checkoutFailureReason(error: unknown): string {
  if (error instanceof ApiError) return error.code;
  if (isUniqueViolation(error) || isForeignKeyViolation(error)) return 'rest_conflict';
  if (isLockConflict(error)) return 'database-busy';
  if (error instanceof HttpException) return `http_${error.getStatus()}`;
  return 'internal_server_error';
}

/**
 * Counts failed checkouts by reason. An interceptor rather than a call in the service, so that
 * bodies refused by validation (which runs inside interceptors, before the handler) count too.
 */
@Injectable()
export class CheckoutMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: MetricsService) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        this.metrics.checkoutFailed(checkoutFailureReason(error));
        return throwError(() => error);
      }),
    );
  }
}
