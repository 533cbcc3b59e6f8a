import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { normalizeIp } from '@nestjs/throttler';
import { appConfig } from '../../config/app.config';
import { FailurePauses } from './failure-pauses';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { tooManyCodeFailures } from './rate-limit-errors';

/** Who tries a coupon or access code: the client address and, for a cart write, the cart. */
export interface CodeAttemptSource {
  /** The client address, as the request limits see it (TRUST_PROXY). */
  address?: string;
  /** What names the cart (`buyerScope`): `user:{id}` for a signed-in buyer, `cart:{token}` for an anonymous one. */
  cart?: string;
}

/**
 * Failed coupon and access codes (unknown, not started, ended, used up), counted per client address
 * and per cart the way failed logins are (FailurePauses): after COUPON_FAILURE_LIMIT failures of an
 * address or a cart within COUPON_FAILURE_WINDOW_MINUTES, each further failure pauses it (30 s,
 * doubling up to the window), and while paused every code it sends is refused with 429 before it is
 * looked up, so a paused client learns nothing about codes, right or wrong.
 *
 * Keys are the address and the cart, never the code: nobody can keep a code from the buyers who
 * hold it by failing on purpose, and a client pauses only its own address and its own cart (a cart
 * is named by a token only its holder has, or by a signed-in user).
 */
@Injectable()
export class CodeAttempts {
  private readonly failures: FailurePauses;

  constructor(@Inject(RATE_LIMIT_STORE) store: RateLimitStore, @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.failures = new FailurePauses(store, {
      limit: config.rateLimits.couponFailureLimit,
      windowMs: config.rateLimits.couponFailureWindowMinutes * 60_000,
    });
  }

  /** Throws 429 `too-many-coupon-failures` while the address or the cart is paused. */
  async assertAllowed(source: CodeAttemptSource): Promise<void> {
    if (!this.failures.enabled) return;
    const pausedMs = await this.failures.pausedForMs(keys(source));
    if (pausedMs > 0) throw tooManyCodeFailures(pausedMs / 1000);
  }

  async recordFailure(source: CodeAttemptSource): Promise<void> {
    if (!this.failures.enabled) return;
    await this.failures.recordFailure(keys(source));
  }
}

/** Cart names are hashed: no cart token appears in the store. */
function keys(source: CodeAttemptSource): string[] {
  const found: string[] = [];
  if (source.address) found.push(`code-failures:ip:${normalizeIp(source.address)}`);
  if (source.cart) found.push(`code-failures:cart:${createHash('sha256').update(source.cart).digest('hex').slice(0, 32)}`);
  return found;
}
