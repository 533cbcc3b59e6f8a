import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../auth/decorators';
import { NonceService } from '../auth/nonce.service';
import { ApiError, missingParams } from '../common/errors/api-error';

const ACTION = 'remove_ticket_nonce';

function field(source: unknown): unknown {
  if (typeof source !== 'object' || source === null) return undefined;
  return (source as Record<string, unknown>)[ACTION];
}

/**
 * The nonce check of DELETE /tickets/{id}, with the global nonce guard's rules and errors, except
 * that `remove_ticket_nonce` may also come in the query: many HTTP clients send no body with DELETE.
 */
@Injectable()
export class TicketRemovalNonceGuard implements CanActivate {
  constructor(private readonly nonces: NonceService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const fromBody = field(request.body);
    const nonce = fromBody === undefined || fromBody === null || fromBody === '' ? field(request.query) : fromBody;
    if (nonce === undefined || nonce === null || nonce === '') throw missingParams([ACTION]);
    if (typeof nonce !== 'string' || !this.nonces.verify(nonce, ACTION, request.user?.id ?? 0)) {
      throw new ApiError('forbidden', 'Invalid nonce', 403);
    }
    return true;
  }
}
