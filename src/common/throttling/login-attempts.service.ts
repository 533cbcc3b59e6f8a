import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { normalizeIp } from '@nestjs/throttler';
import { appConfig } from '../../config/app.config';
import { FailurePauses } from './failure-pauses';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { tooManyLoginFailures } from './rate-limit-errors';

/**
 * Failed Basic authentications, counted per (login, client address) pair and per client address
 * until twice AUTH_FAILURE_WINDOW_MINUTES pass without a failure. Once a count reaches
 * AUTH_FAILURE_LIMIT, each further failure pauses that pair or address: 30 s after the limit is
 * reached, then 60 s, 120 s... up to AUTH_FAILURE_WINDOW_MINUTES. During a pause the attempt is refused (429 with Retry-After) before its
 * password is looked at, so guessing costs the attacker time and the service no lookup or hash.
 *
 * Nothing is counted per login alone: that would let anyone lock an account (the administrator's
 * included) by failing on purpose from anywhere. The right password from an address that has not
 * been failing is always checked.
 */
@Injectable()
export class LoginAttempts {
  private readonly failures: FailurePauses;

  constructor(@Inject(RATE_LIMIT_STORE) store: RateLimitStore, @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.failures = new FailurePauses(store, {
      limit: config.rateLimits.authFailureLimit,
      windowMs: config.rateLimits.authFailureWindowMinutes * 60_000,
    });
  }

  /** Throws 429 `too-many-login-failures` while the pair or the address is paused. */
  async assertAllowed(login: string, address: string | undefined): Promise<void> {
    if (!this.failures.enabled) return;
    const pausedMs = await this.failures.pausedForMs(this.keys(login, address));
    if (pausedMs > 0) throw tooManyLoginFailures(pausedMs / 1000);
  }

  /** Counts a failure; past the limit it starts a pause that doubles with each further failure. */
  async recordFailure(login: string, address: string | undefined): Promise<void> {
    if (!this.failures.enabled) return;
    await this.failures.recordFailure(this.keys(login, address));
  }

  /**
   * Logins are hashed (case and spaces aside) so that whatever a client types makes a short key
   * and no login appears in the store; addresses as the request limits see them. Without an
   * address (no socket address known) the login alone is the key.
   */
  private keys(login: string, address: string | undefined): string[] {
    const normalised = login.trim().toLowerCase();
    const loginHash = createHash('sha256').update(normalised).digest('hex').slice(0, 32);
    if (!address) return [`login-failures:login:${loginHash}`];
    const ip = normalizeIp(address);
    return [`login-failures:pair:${loginHash}:${ip}`, `login-failures:ip:${ip}`];
  }
}
