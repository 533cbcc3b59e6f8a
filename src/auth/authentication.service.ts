import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { ApiError, incorrectPassword } from '../common/errors/api-error';
import { LoginAttempts } from '../common/throttling/login-attempts.service';
import { ApiTokensRepository } from './api-tokens.repository';
import { invalidToken } from './auth-errors';
import { constantTimeEqual, hashApplicationPassword, verifyLoginPassword } from './passwords';
import { AuthenticatedUser, isRole } from './roles';
import { grantOf, isTokenLive } from './token-grant';
import { addressAllowed } from './token-addresses';
import { hashTokenSecret, tokenPrefixOf } from './token-secrets';
import { UsersService } from './users.service';

/** How often `last_used_at` of an application password is written: not on every request. */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
/** Verified login passwords are remembered briefly so that scrypt does not run on every request. */
const LOGIN_CACHE_TTL_MS = 5 * 60 * 1000;
const LOGIN_CACHE_MAX = 1000;
/** How often `last_used_at` of an API token is written: at most once a minute per token. */
const TOKEN_LAST_USED_RESOLUTION_MS = 60 * 1000;
/** Compared against when no token has the prefix, so that an unknown prefix costs what a known one does. */
const NO_TOKEN_HASH = hashTokenSecret('cal_00000000_00000000000000000000000000000000');

@Injectable()
export class AuthenticationService {
  private readonly verifiedLogins = new Map<string, { userId: number; expires: number }>();

  constructor(
    private readonly users: UsersService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly loginAttempts: LoginAttempts,
    private readonly tokens: ApiTokensRepository,
  ) {}

  /**
   * Resolves the caller from an Authorization header. No header (or a scheme other than Basic)
   * is an anonymous caller; Basic credentials that are malformed or wrong are a 401
   * `incorrect_password`, whatever the route. Failures are counted per login and per `clientAddress`;
   * past the limit the answer is 429 `too-many-login-failures` before the password is checked.
   */
  async authenticate(authorization: string | undefined, clientAddress?: string): Promise<AuthenticatedUser | undefined> {
    if (!authorization) return undefined;
    const [scheme, encoded] = authorization.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() === 'bearer') return this.authenticateToken(encoded ?? '', clientAddress);
    if (scheme?.toLowerCase() !== 'basic') return undefined;
    const decoded = Buffer.from(encoded ?? '', 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const identifier = separator < 1 ? '' : decoded.slice(0, separator);
    await this.loginAttempts.assertAllowed(identifier, clientAddress);
    try {
      if (separator < 1) throw incorrectPassword();
      return await this.verifyCredentials(identifier, decoded.slice(separator + 1));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'incorrect_password')
        await this.loginAttempts.recordFailure(identifier, clientAddress);
      throw error;
    }
  }

  /**
   * A Bearer API token: the caller is its owner, with the owner's role as stored now and the token's
   * grant. Every failure (malformed, unknown, revoked, expired, owner gone, address not allowed) is
   * the same 401 `invalid_token`. Nothing is cached between requests: the row and its owner are read
   * each time (one indexed read), so a revoke or a demotion holds at once on every instance.
   */
  private async authenticateToken(secret: string, clientAddress: string | undefined): Promise<AuthenticatedUser> {
    const prefix = tokenPrefixOf(secret);
    const token = prefix ? await this.tokens.findByPrefixWithOwner(prefix) : null;
    const matches = constantTimeEqual(token?.secretHash ?? NO_TOKEN_HASH, hashTokenSecret(secret));
    const owner = token?.owner;
    const now = this.clock.now();
    if (!token || !matches || !owner || !isRole(owner.role)) throw invalidToken();
    if (!isTokenLive(token, now)) throw invalidToken();
    if (token.allowedIps && !addressAllowed(token.allowedIps, clientAddress)) throw invalidToken();
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= TOKEN_LAST_USED_RESOLUTION_MS) {
      await this.tokens.touchLastUsed(token.id, now, new Date(now.getTime() - TOKEN_LAST_USED_RESOLUTION_MS));
    }
    return {
      id: owner.id,
      login: owner.login,
      role: owner.role,
      token: grantOf(token),
    };
  }

  private async verifyCredentials(identifier: string, password: string): Promise<AuthenticatedUser> {
    if (password === '') throw incorrectPassword();

    const found = await this.users.findWithApplicationPasswords(identifier);
    if (!found) throw incorrectPassword();
    const { user, applicationPasswords } = found;
    const authenticated: AuthenticatedUser = { id: user.id, login: user.login, role: user.role };

    const hash = hashApplicationPassword(password);
    // Compare against every one so that the time taken does not tell which matched.
    const match = applicationPasswords.reduce<(typeof applicationPasswords)[number] | undefined>(
      (found, candidate) => (constantTimeEqual(candidate.passwordHash, hash) ? candidate : found),
      undefined,
    );
    if (match) {
      const now = this.clock.now();
      if (!match.lastUsedAt || now.getTime() - match.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await this.users.touchApplicationPassword(match.id, now);
      }
      return authenticated;
    }
    if (user.passwordHash && (await this.verifyLoginPasswordCached(user.id, password, user.passwordHash))) {
      return authenticated;
    }
    throw incorrectPassword();
  }

  private async verifyLoginPasswordCached(userId: number, password: string, stored: string): Promise<boolean> {
    const key = createHash('sha256').update(`${userId}\0${stored}\0${password}`).digest('hex');
    const now = this.clock.now().getTime();
    const cached = this.verifiedLogins.get(key);
    if (cached && cached.expires > now && cached.userId === userId) return true;
    if (!(await verifyLoginPassword(password, stored))) return false;
    if (this.verifiedLogins.size >= LOGIN_CACHE_MAX) this.verifiedLogins.clear();
    this.verifiedLogins.set(key, { userId, expires: now + LOGIN_CACHE_TTL_MS });
    return true;
  }
}
