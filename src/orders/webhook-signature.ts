import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../auth/passwords';

/**
 * JSON with object keys sorted at every level and no blanks: the form the payment webhook signs
 * (and idempotency keys compare), so that the signature does not depend on key order or spacing.
 * `undefined` members are left out as JSON.stringify leaves them out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const members = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}

/** Hex HMAC-SHA256 of `payload` with the webhook secret. */
export function signPayload(secret: string, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** Whether `signature` (hex, optionally prefixed `sha256=`) signs `payload`; compared in constant time. */
export function isValidSignature(secret: string, payload: string | Buffer, signature: string): boolean {
  const candidate = signature
    .trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
  return constantTimeEqual(candidate, signPayload(secret, payload));
}

/** SHA-256 (hex) of a request body in canonical form. */
export function bodyHash(body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(body ?? {}))
    .digest('hex');
}
