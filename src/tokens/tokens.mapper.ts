import type { ApiToken } from '../auth/api-token.entity';
import type { TokenResponse } from './dto/token.response';

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

function list(value: string | null): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

export function toTokenResponse(token: ApiToken): TokenResponse {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: list(token.scopes),
    ...(token.preset ? { preset: token.preset } : {}),
    all_events: token.limitEvents === null,
    limit_events: list(token.limitEvents).map(Number),
    pii: token.pii,
    expires_at: iso(token.expiresAt),
    allowed_ips: list(token.allowedIps),
    last_used_at: iso(token.lastUsedAt),
    revoked_at: iso(token.revokedAt),
    created_at: token.createdAt.toISOString(),
    owner: token.userId,
  };
}
