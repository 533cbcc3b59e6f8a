import type { ApiToken } from './api-token.entity';
import { isScope, type Scope, type TokenGrant } from './scopes';

/** What a stored token grants, as `AuthenticatedUser.token` carries it. */
export function grantOf(token: ApiToken): TokenGrant {
  return {
    id: token.id,
    name: token.name,
    scopes: new Set(token.scopes.split(',').filter((scope): scope is Scope => isScope(scope))),
    limitEvents: token.limitEvents === null ? null : token.limitEvents.split(',').filter(Boolean).map(Number),
    pii: token.pii === 'full' ? 'full' : 'redacted',
  };
}

/** Whether the token works at `now`: not revoked, not expired (its owner and address are checked apart). */
export function isTokenLive(token: Pick<ApiToken, 'revokedAt' | 'expiresAt'>, now: Date): boolean {
  return !token.revokedAt && !(token.expiresAt && token.expiresAt.getTime() <= now.getTime());
}
