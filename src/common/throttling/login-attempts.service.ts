import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { normalizeIp } from '@nestjs/throttler';
import { appConfig } from '../../config/app.config';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { tooManyLoginFailures } from './rate-limit-errors';

/**
 * Failed Basic authentications, counted per login and per client address in a fixed window
 * (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_MINUTES). Once either count reaches the limit, the
 * next attempt is refused before its password is looked at, so guessing costs the attacker the
 * window and costs the service no database lookup or hash.
 */
@Injectable()
export class LoginAttempts {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.limit = config.rateLimits.authFailureLimit;
    this.windowMs = config.rateLimits.authFailureWindowMinutes * 60_000;
  }

  /** Throws 429 `too-many-login-failures` when `login` or `address` has used up its failures. */
  async assertAllowed(login: string, address: string | undefined): Promise<void> {
    if (this.limit === 0) return;
    const counts = await Promise.all(this.keys(login, address).map((key) => this.store.count(key)));
    const exhausted = counts.filter((count) => count.count >= this.limit);
    if (exhausted.length > 0) throw tooManyLoginFailures(Math.max(...exhausted.map((count) => count.msLeft)) / 1000);
  }

  async recordFailure(login: string, address: string | undefined): Promise<void> {
    if (this.limit === 0) return;
    await Promise.all(this.keys(login, address).map((key) => this.store.hit(key, this.windowMs)));
  }

  /**
   * Logins are keyed by a hash (case and spaces aside) so that whatever a client types makes a
   * short key and no login appears in the store; addresses as the request limits see them.
   */
  private keys(login: string, address: string | undefined): string[] {
    const keys: string[] = [];
    const normalised = login.trim().toLowerCase();
    if (normalised !== '') keys.push(`login-failures:login:${createHash('sha256').update(normalised).digest('hex').slice(0, 32)}`);
    if (address) keys.push(`login-failures:ip:${normalizeIp(address)}`);
    return keys;
  }
}
