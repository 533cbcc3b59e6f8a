import { createHash } from 'node:crypto';

/**
 * The join's optional challenge: a proof-of-work. The client finds a nonce such that
 * SHA-256("{queue id}:{request_id}:{nonce}") starts with `bits` zero bits (2^bits hashes on average:
 * 16 bits take a phone well under a second, each bit more doubles it), and sends it with the join as
 * `challenge_nonce`. It costs a buyer once and a bot that joins many times as many times over; the
 * check costs one hash. Bound to the request id, a solution cannot be reused for another entry.
 */

export const CHALLENGE_NONCE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function challengeDigest(queueId: number, requestId: string, nonce: string): Buffer {
  return createHash('sha256').update(`${queueId}:${requestId}:${nonce}`, 'utf8').digest();
}

/** Zero bits before the first one bit. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** Why a join's challenge fails, or null when it passes (or the queue asks none). */
export function challengeProblem(
  queueId: number,
  requestId: string,
  nonce: string | undefined,
  bits: number,
): 'required' | 'insufficient' | null {
  if (bits <= 0) return null;
  if (nonce === undefined) return 'required';
  return leadingZeroBits(challengeDigest(queueId, requestId, nonce)) >= bits ? null : 'insufficient';
}

/** A nonce that solves the challenge (what a client does; the tests and the benchmark use it). */
export function solveChallenge(queueId: number, requestId: string, bits: number): string {
  for (let counter = 0; ; counter += 1) {
    const nonce = counter.toString(36);
    if (challengeProblem(queueId, requestId, nonce, bits) === null) return nonce;
  }
}
