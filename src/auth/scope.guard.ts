import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden } from '../common/errors/api-error';
import { insufficientScope, tokensCannotManageTokens } from './auth-errors';
import type { AuthenticatedRequest } from './decorators';
import { REQUIRED_SCOPE, ScopeRequirement } from './scope-decorators';
import { hasScope } from './scopes';

/**
 * Enforces `@RequireScope` for callers authenticated by an API token: 403 `insufficient_scope` naming
 * the scope (RFC 6750) when the token lacks it. Other callers hold every scope. A route that declares
 * nothing is closed to tokens (the coverage spec keeps that from happening).
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const { user } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!user?.token) return true;
    const requirement = this.reflector.getAllAndOverride<ScopeRequirement | undefined>(REQUIRED_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (requirement?.kind === 'any') return true;
    if (!requirement) throw forbidden(false, 'This route is not open to API tokens.');
    if (requirement.kind === 'no-tokens') throw tokensCannotManageTokens();
    if (!hasScope(user, requirement.scope)) throw insufficientScope(requirement.scope);
    return true;
  }
}
