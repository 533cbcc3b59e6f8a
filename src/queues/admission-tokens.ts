import { hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { errors, jwtVerify, SignJWT } from 'jose';
import { appConfig } from '../config/app.config';

/** The claims of an admission token: `aud` names the queue, `sub` the entry's request id. */
export interface AdmissionClaims {
  queueId: number;
  requestId: string;
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Why a token is refused, as the gate's error tells it. */
export type TokenProblem = 'malformed' | 'expired' | 'other-queue';

const ISSUER = 'cal-queue';
const ALGORITHM = 'HS256';
/** Verified tokens remembered at most (past this all are dropped). */
const MAX_VERIFIED = 50_000;

export function queueAudience(queueId: number): string {
  return `queue:${queueId}`;
}

/**
 * Admission tokens: compact JWS (HS256, the algorithm pinned when verifying) signed with a key
 * derived from the service secret for admissions only (HKDF, label `cal queue admission`), so no
 * other token the service signs with that secret can pass for an admission, nor the reverse.
 * Signing the same claims again gives the same token (a retried claim gets what the first got).
 */
@Injectable()
export class AdmissionTokens {
  private readonly key: Uint8Array;
  /** Tokens verified once, by their text: an admitted buyer shows the same token at the cart and the checkout. */
  private readonly verified = new Map<string, { jti: string; requestId: string; audience: string; expiresAt: number }>();

  constructor(@Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.key = new Uint8Array(hkdfSync('sha256', config.nonceSecret, 'cal', 'cal queue admission', 32));
  }

  sign(claims: AdmissionClaims): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(queueAudience(claims.queueId))
      .setSubject(claims.requestId)
      .setJti(claims.jti)
      .setIssuedAt(Math.floor(claims.issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * The token's jti when it is a valid admission to `queueId` at `now`; otherwise why not. The
   * deny-list and the unit limit are the caller's to check (they live in the database).
   */
  async verify(token: string, queueId: number, now: Date): Promise<{ jti: string; requestId: string } | { problem: TokenProblem }> {
    const known = this.verified.get(token);
    if (known) {
      // What jwtVerify would say of a token whose signature it checked before: the audience, then the expiry.
      if (known.audience !== queueAudience(queueId)) return { problem: 'other-queue' };
      if (known.expiresAt <= Math.floor(now.getTime() / 1000)) return { problem: 'expired' };
      return { jti: known.jti, requestId: known.requestId };
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: queueAudience(queueId),
        currentDate: now,
      });
      if (typeof payload.jti !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number')
        return { problem: 'malformed' };
      if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
      this.verified.set(token, { jti: payload.jti, requestId: payload.sub, audience: queueAudience(queueId), expiresAt: payload.exp });
      return { jti: payload.jti, requestId: payload.sub };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { problem: 'expired' };
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') return { problem: 'other-queue' };
      return { problem: 'malformed' };
    }
  }
}
