import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { NonceAction } from './nonce.service';
import type { AuthenticatedUser, Capability } from './roles';

export const REQUIRED_CAPABILITY = 'cal:required-capability';
export const REQUIRES_AUTHENTICATION = 'cal:requires-authentication';
export const REQUIRED_NONCE = 'cal:required-nonce';

export interface AuthenticatedRequest extends Request {
  user?: AuthenticatedUser;
}

/** The route needs a signed-in caller holding `capability` (401 anonymous, 403 otherwise). */
export const RequireCapability = (capability: Capability) => SetMetadata(REQUIRED_CAPABILITY, capability);

/** The route needs a signed-in caller of any role. */
export const RequireAuthentication = () => SetMetadata(REQUIRES_AUTHENTICATION, true);

/** The route needs a valid nonce for `action`, sent as the body field of the same name. */
export const RequiresNonce = (action: NonceAction) => SetMetadata(REQUIRED_NONCE, action);

/** The authenticated caller, or undefined for an anonymous one. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
