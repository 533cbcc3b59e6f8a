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
  async verify(token: string, queueId: number, now: Date): Promise<{ jti: string } | { problem: TokenProblem }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: queueAudience(queueId),
        currentDate: now,
      });
      return typeof payload.jti === 'string' ? { jti: payload.jti } : { problem: 'malformed' };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { problem: 'expired' };
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') return { problem: 'other-queue' };
      return { problem: 'malformed' };
    }
  }
}
