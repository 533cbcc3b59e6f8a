import { Inject, Injectable } from '@nestjs/common';
import { canCreateTokenFor, canManageToken, tokenListOwner } from '../access/token-access';
import type { ApiToken } from '../auth/api-token.entity';
import { ApiTokensRepository } from '../auth/api-tokens.repository';
import { tokensCannotManageTokens } from '../auth/auth-errors';
import type { AuthenticatedUser } from '../auth/roles';
import { SCOPE_PRESETS, SCOPES } from '../auth/scopes';
import { addressEntryProblem } from '../auth/token-addresses';
import { generateTokenSecret } from '../auth/token-secrets';
import { CLOCK, Clock } from '../common/clock';
import { TransactionHost } from '../common/database/transaction-host';
import { forbidden, invalidParams } from '../common/errors/api-error';
import { countPages } from '../common/pagination/pagination';
import type { CreateTokenDto, ListTokensQuery } from './dto/create-token.dto';
import type { TokenCreatedResponse, TokenListResponse, TokenResponse } from './dto/token.response';
import { tokenNotFound } from './token-errors';
import { toTokenResponse } from './tokens.mapper';
import { TokensRepository } from './tokens.repository';

/**
 * API tokens (docs/tokens.md): administrators manage every token, other users their own; a caller
 * authenticated by a token manages none. The secret is made here, answered once and kept as a hash.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly tokens: ApiTokensRepository,
    private readonly checks: TokensRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(query: ListTokensQuery, user: AuthenticatedUser): Promise<TokenListResponse> {
    this.assertNotToken(user);
    const perPage = query.per_page ?? 25;
    const page = query.page ?? 1;
    const [rows, total] = await this.tokens.page(tokenListOwner(user, query.owner), (page - 1) * perPage, perPage);
    return { total, total_pages: countPages(total, perPage), tokens: rows.map(toTokenResponse) };
  }

  async get(id: number, user: AuthenticatedUser): Promise<TokenResponse> {
    return toTokenResponse(await this.managed(id, user));
  }

  async create(input: CreateTokenDto, user: AuthenticatedUser): Promise<TokenCreatedResponse> {
    this.assertNotToken(user);
    const ownerId = input.owner ?? user.id;
    if (!canCreateTokenFor(user, ownerId)) throw forbidden(false, 'Sorry, you may create tokens for yourself only.');
    const problems: Record<string, string> = {};
    const scopes = new Set<string>([...(input.preset ? SCOPE_PRESETS[input.preset] : []), ...(input.scopes ?? [])]);
    if (scopes.size === 0) problems.scopes = 'scopes must name at least one scope, or preset must be given';
    const limited = input.limit_events !== undefined && input.limit_events.length > 0;
    if (input.all_events === true && limited) problems.limit_events = 'limit_events must be empty when all_events is true';
    if (input.all_events === false && !limited)
      problems.limit_events = 'limit_events must name at least one event when all_events is false';
    if (limited && !problems.limit_events) {
      const existing = await this.checks.existingEventIds(input.limit_events!);
      const unknown = input.limit_events!.filter((id) => !existing.has(id));
      if (unknown.length) problems.limit_events = `limit_events must be events; not events: ${unknown.join(', ')}`;
    }
    const now = this.clock.now();
    const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at);
    if (expiresAt && !(expiresAt.getTime() > now.getTime())) problems.expires_at = 'expires_at must be in the future';
    const badAddress = (input.allowed_ips ?? []).map(addressEntryProblem).find((problem) => problem !== null);
    if (badAddress) problems.allowed_ips = `allowed_ips: ${badAddress}`;
    if (input.owner !== undefined && !problems.owner && !(await this.checks.userExists(input.owner)))
      problems.owner = 'owner must be a user id';
    if (Object.keys(problems).length) throw invalidParams(problems);

    const { secret, prefix, hash } = generateTokenSecret();
    const token = await this.tx.run(() =>
      this.tokens.insert({
        userId: ownerId,
        name: input.name,
        prefix,
        secretHash: hash,
        // In the order SCOPES lists them, whatever order they were asked in.
        scopes: SCOPES.filter((scope) => scopes.has(scope)).join(','),
        preset: input.preset ?? null,
        limitEvents: limited ? [...new Set(input.limit_events)].sort((a, b) => a - b).join(',') : null,
        pii: input.pii ?? 'redacted',
        expiresAt,
        allowedIps: input.allowed_ips?.length ? input.allowed_ips.join(',') : null,
      }),
    );
    return { ...toTokenResponse(token), token: secret };
  }

  /** Revokes at once: the next request with the token is 401, on every instance (no copy is kept). */
  async revoke(id: number, user: AuthenticatedUser): Promise<TokenResponse> {
    return this.tx.run(async () => {
      const token = await this.managed(id, user);
      await this.tokens.revoke(token.id, this.clock.now());
      return toTokenResponse((await this.tokens.findById(token.id)) ?? token);
    });
  }

  async remove(id: number, user: AuthenticatedUser): Promise<TokenResponse> {
    return this.tx.run(async () => {
      const token = await this.managed(id, user);
      await this.tokens.delete(token.id);
      return toTokenResponse(token);
    });
  }

  private async managed(id: number, user: AuthenticatedUser): Promise<ApiToken> {
    this.assertNotToken(user);
    const token = await this.tokens.findById(id);
    if (!token || !canManageToken(user, token)) throw tokenNotFound(id);
    return token;
  }

  private assertNotToken(user: AuthenticatedUser): void {
    if (user.token) throw tokensCannotManageTokens();
  }
}
