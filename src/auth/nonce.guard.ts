import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { missingParams } from '../common/errors/api-error';
import { AuthenticatedRequest, NonceRequirement, REQUIRED_NONCE } from './decorators';
import { invalidNonce } from './auth-errors';
import { NonceService } from './nonce.service';

function isMissing(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

function field(source: unknown, name: string): unknown {
  return typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[name] : undefined;
}

/**
 * Checks the nonce a route declares with `@RequiresNonce(action)`: the body field named after the
 * action (or the query parameter, with `alsoInQuery`) must hold a nonce minted for that action and
 * this caller within the last two ticks.
 */
@Injectable()
export class NonceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly nonces: NonceService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const requirement = this.reflector.getAllAndOverride<NonceRequirement | undefined>(REQUIRED_NONCE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) return true;
    const { action, alsoInQuery } = requirement;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Nonces guard cookie-less browser forms against cross-site requests; a Bearer token is not sent
    // by a browser on its own, so its callers need none (and could not get one without a session).
    if (request.user?.token) return true;
    const fromBody = field(request.body, action);
    const nonce = alsoInQuery && isMissing(fromBody) ? field(request.query, action) : fromBody;
    if (isMissing(nonce)) throw missingParams([action]);
    if (typeof nonce !== 'string' || !this.nonces.verify(nonce, action, request.user?.id ?? 0)) {
      throw invalidNonce();
    }
    return true;
  }
}
