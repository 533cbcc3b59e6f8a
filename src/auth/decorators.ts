import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import type { NonceAction } from './nonce.service';
import type { AuthenticatedUser, Capability } from './roles';

export const REQUIRED_CAPABILITY = 'cal:required-capability';
export const REQUIRES_AUTHENTICATION = 'cal:requires-authentication';
export const REQUIRED_NONCE = 'cal:required-nonce';

export interface AuthenticatedRequest extends Request {
  user?: AuthenticatedUser;
}

/** What a route's 401 and 403 responses say, in its OpenAPI description. */
export interface AccessResponses {
  /** The 401 response; by default an anonymous caller or wrong credentials. */
  unauthorized?: string;
  /** The 403 response; by default a role without the capability. Routes needing only a signed-in caller document none unless given. */
  forbidden?: string;
}

const UNAUTHORIZED = 'rest_forbidden (anonymous) or incorrect_password';

/**
 * The route needs a signed-in caller holding `capability` (401 anonymous, 403 otherwise): the
 * capability guard's metadata, and in OpenAPI the HTTP Basic security and the 401 and 403 responses.
 */
export const RequireCapability = (capability: Capability, responses: AccessResponses = {}) =>
  applyDecorators(
    SetMetadata(REQUIRED_CAPABILITY, capability),
    ApiBasicAuth('basic'),
    ApiUnauthorizedResponse({ type: ApiErrorResponse, description: responses.unauthorized ?? UNAUTHORIZED }),
    ApiForbiddenResponse({ type: ApiErrorResponse, description: responses.forbidden ?? `rest_forbidden: the role lacks ${capability}` }),
  );

/** The route needs a signed-in caller of any role: the guard's metadata, HTTP Basic security and the 401 (and any 403) response. */
export const RequireAuthentication = (responses: AccessResponses = {}) =>
  applyDecorators(
    SetMetadata(REQUIRES_AUTHENTICATION, true),
    ApiBasicAuth('basic'),
    ApiUnauthorizedResponse({ type: ApiErrorResponse, description: responses.unauthorized ?? UNAUTHORIZED }),
    ...(responses.forbidden === undefined ? [] : [ApiForbiddenResponse({ type: ApiErrorResponse, description: responses.forbidden })]),
  );

export interface NonceRequirement {
  action: NonceAction;
  /** Also read from the query string when the body has none: many HTTP clients send no body with DELETE. */
  alsoInQuery: boolean;
}

/**
 * The route needs a valid nonce for `action`, sent as the body field of the same name (or, with
 * `alsoInQuery`, as the query parameter of that name when the body has none).
 */
export const RequiresNonce = (action: NonceAction, options: { alsoInQuery?: boolean } = {}) =>
  SetMetadata<string, NonceRequirement>(REQUIRED_NONCE, { action, alsoInQuery: options.alsoInQuery ?? false });

/** The authenticated caller, or undefined for an anonymous one. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
