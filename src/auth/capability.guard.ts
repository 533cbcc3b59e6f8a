import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden } from '../common/errors/api-error';
import { AuthenticatedRequest, REQUIRED_CAPABILITY, REQUIRES_AUTHENTICATION } from './decorators';
import { Capability, hasCapability } from './roles';

/** Enforces `@RequireCapability` and `@RequireAuthentication`: 401 anonymous, 403 lacking the capability. */
@Injectable()
export class CapabilityGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    const capability = this.reflector.getAllAndOverride<Capability | undefined>(REQUIRED_CAPABILITY, targets);
    const needsUser = this.reflector.getAllAndOverride<boolean | undefined>(REQUIRES_AUTHENTICATION, targets);
    if (!capability && !needsUser) return true;
    const { user } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!user) throw forbidden(true);
    if (capability && !hasCapability(user, capability)) throw forbidden(false);
    return true;
  }
}
