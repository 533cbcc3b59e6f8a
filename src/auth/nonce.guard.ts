import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, missingParams } from '../common/errors/api-error';
import { AuthenticatedRequest, REQUIRED_NONCE } from './decorators';
import { NonceAction, NonceService } from './nonce.service';

/**
 * Checks the nonce a route declares with `@RequiresNonce(action)`: the body field named after the
 * action must hold a nonce minted for that action and this caller within the last two ticks.
 */
@Injectable()
export class NonceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly nonces: NonceService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const action = this.reflector.getAllAndOverride<NonceAction | undefined>(REQUIRED_NONCE, [context.getHandler(), context.getClass()]);
    if (!action) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const body: unknown = request.body;
    const nonce = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[action] : undefined;
    if (nonce === undefined || nonce === null || nonce === '') throw missingParams([action]);
    if (typeof nonce !== 'string' || !this.nonces.verify(nonce, action, request.user?.id ?? 0)) {
      throw new ApiError('forbidden', 'Invalid nonce', 403);
    }
    return true;
  }
}
