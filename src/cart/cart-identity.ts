import { createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { constantTimeEqual } from '../auth/passwords';

/** The cookie and header that carry an anonymous buyer's cart token. */
export const CART_COOKIE = 'cal_cart';
export const CART_TOKEN_HEADER = 'X-Cart-Token';

/** Carts untouched for this long read as empty and are replaced on the next write. */
export const CART_IDLE_MS = 24 * 60 * 60 * 1000;

/** Carts last written at or before this instant are idle: they read as empty and are purged. */
export function idleCutoff(now: Date): Date {
  return new Date(now.getTime() - CART_IDLE_MS);
}

const TOKEN_RANDOM_BYTES = 18;
const TOKEN_SIGNATURE_CHARS = 24;
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{24})$/;

/**
 * Who a cart, an order or an idempotency key belongs to: the signed-in user, or an anonymous buyer
 * known only by the cart token the server issued (null before their first cart write).
 */
export type Buyer = { kind: 'user'; userId: number } | { kind: 'guest'; token: string | null };

function signature(secret: string, random: string): string {
  return createHmac('sha256', secret).update(`cal-cart-token|${random}`).digest('base64url').slice(0, TOKEN_SIGNATURE_CHARS);
}

/**
 * A new cart token: random bytes plus an HMAC of them, so that any instance can tell a token it
 * issued from one a client made up, without a database lookup.
 */
export function issueCartToken(secret: string): string {
  const random = randomBytes(TOKEN_RANDOM_BYTES).toString('base64url');
  return `${random}.${signature(secret, random)}`;
}

export function isValidCartToken(token: string, secret: string): boolean {
  const match = TOKEN_PATTERN.exec(token);
  return !!match && constantTimeEqual(match[2], signature(secret, match[1]));
}

/** The value of one cookie in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * The cart token a request carries, from the `X-Cart-Token` header or else the `cal_cart` cookie;
 * tokens this service did not issue are ignored.
 */
export function requestCartToken(request: Pick<Request, 'headers'>, secret: string): string | null {
  const header = request.headers[CART_TOKEN_HEADER.toLowerCase()];
  const candidates = [Array.isArray(header) ? header[0] : header, readCookie(request.headers.cookie, CART_COOKIE)];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && isValidCartToken(candidate.trim(), secret)) return candidate.trim();
  }
  return null;
}

/** `user:<id>` or `cart:<token>`: whose idempotency keys these are; null when the buyer has no identity yet. */
export function buyerScope(buyer: Buyer): string | null {
  if (buyer.kind === 'user') return `user:${buyer.userId}`;
  return buyer.token ? `cart:${buyer.token}` : null;
}
