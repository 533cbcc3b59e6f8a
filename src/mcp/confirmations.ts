import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { RATE_LIMIT_STORE, RateLimitStore } from '../common/throttling/rate-limit-store';
import { appConfig } from '../config/app.config';

/** How long a confirmation handle may be used: long enough for a person to read the preview. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;

interface HandlePayload {
  /** The tool. */
  t: string;
  /** The caller: user id and token id (0 without a token). */
  u: number;
  k: number;
  /** SHA-256 of the arguments, canonical JSON, the handle itself left out. */
  a: string;
  /** Expiry, ms since the epoch. */
  e: number;
  /** Random: the single use is counted against it. */
  n: string;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function argumentsDigest(args: Record<string, unknown>): string {
  const { confirmation: _handle, ...rest } = args;
  return createHash('sha256').update(canonicalJson(rest)).digest('base64url');
}

export function confirmationRefused(reason: string): ApiError {
  return new ApiError(
    'mcp-confirmation-invalid',
    `The confirmation handle ${reason}: call the tool again without it for a new preview.`,
    409,
  );
}

/**
 * Confirmation handles of destructive and money-moving tools (refund, cancel, delete an event, revoke
 * a device): signed, so any instance can check them without a table, bound to the tool, the caller
 * (user and token) and the exact arguments, valid for five minutes, and used once: the use is
 * counted in the rate limits' store (Redis when REDIS_URL is set, shared by every instance). A store
 * that does not answer counts nothing, and then the handle is refused (fails closed).
 */
@Injectable()
export class Confirmations {
  private readonly key: Buffer;

  constructor(
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', config.nonceSecret).update('mcp-confirmation').digest();
  }

  issue(tool: string, user: AuthenticatedUser, args: Record<string, unknown>): { handle: string; expiresAt: Date } {
    const expiresAt = new Date(this.clock.now().getTime() + CONFIRMATION_TTL_MS);
    const payload: HandlePayload = {
      t: tool,
      u: user.id,
      k: user.token?.id ?? 0,
      a: argumentsDigest(args),
      e: expiresAt.getTime(),
      n: randomBytes(12).toString('base64url'),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return { handle: `${body}.${this.sign(body)}`, expiresAt };
  }

  /** Checks the handle and uses it up; throws 409 `mcp-confirmation-invalid` when it does not hold. */
  async consume(handle: unknown, tool: string, user: AuthenticatedUser, args: Record<string, unknown>): Promise<void> {
    if (typeof handle !== 'string' || handle.length > 1024) throw confirmationRefused('is not one');
    const [body, signature] = handle.split('.');
    const expected = body ? this.sign(body) : '';
    if (!signature || signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected)))
      throw confirmationRefused('is not one this service issued');
    let payload: HandlePayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as HandlePayload;
    } catch {
      throw confirmationRefused('is not one this service issued');
    }
    if (payload.t !== tool || payload.u !== user.id || payload.k !== (user.token?.id ?? 0))
      throw confirmationRefused('was issued for another tool or caller');
    if (payload.a !== argumentsDigest(args)) throw confirmationRefused('was issued for other arguments');
    const now = this.clock.now().getTime();
    if (payload.e <= now) throw confirmationRefused('has expired');
    const uses = await this.store.hit(`mcp-confirmation:${payload.n}`, payload.e - now + 1000);
    if (uses.count !== 1) throw confirmationRefused('was already used');
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
