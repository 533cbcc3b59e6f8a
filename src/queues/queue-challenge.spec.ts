import { createHash } from 'node:crypto';
import { challengeDigest, challengeProblem, leadingZeroBits, solveChallenge } from './queue-challenge';

describe('the join challenge (proof-of-work)', () => {
  it('counts leading zero bits', () => {
    expect(leadingZeroBits(Uint8Array.from([0x80]))).toBe(0);
    expect(leadingZeroBits(Uint8Array.from([0x01]))).toBe(7);
    expect(leadingZeroBits(Uint8Array.from([0x00, 0x10]))).toBe(11);
    expect(leadingZeroBits(Uint8Array.from([0, 0]))).toBe(16);
  });

  it('asks nothing at 0 bits, and a nonce otherwise', () => {
    expect(challengeProblem(1, 'request-1', undefined, 0)).toBeNull();
    expect(challengeProblem(1, 'request-1', undefined, 8)).toBe('required');
  });

  it('accepts a solution for its queue and request id only', () => {
    const nonce = solveChallenge(7, 'abcdefgh12', 12);
    expect(leadingZeroBits(challengeDigest(7, 'abcdefgh12', nonce))).toBeGreaterThanOrEqual(12);
    expect(challengeProblem(7, 'abcdefgh12', nonce, 12)).toBeNull();
    // The same nonce for another request or queue almost never has 12 zero bits (1 in 4096).
    const elsewhere = [challengeProblem(7, 'abcdefgh13', nonce, 12), challengeProblem(8, 'abcdefgh12', nonce, 12)];
    expect(elsewhere.filter((problem) => problem === 'insufficient').length).toBeGreaterThanOrEqual(1);
  });

  it('matches the digest a client computes over "{queue}:{request_id}:{nonce}"', () => {
    expect(challengeDigest(3, 'req-12345', 'x').toString('hex')).toBe(createHash('sha256').update('3:req-12345:x').digest('hex'));
  });
});
