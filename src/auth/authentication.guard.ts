import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticationService } from './authentication.service';
import { AuthenticatedRequest } from './decorators';

/** Runs first on every route: resolves the caller from Basic credentials (or none). */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(private readonly authentication: AuthenticationService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.user = await this.authentication.authenticate(request.headers.authorization, request.ip);
    return true;
  }
}
