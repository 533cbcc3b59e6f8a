import { buyerScope, isValidCartToken, issueCartToken, readCookie, requestCartToken } from './cart-identity';

describe('cart identity', () => {
  const secret = 'test-nonce-secret-0123456789abcdef';

  it('issues distinct tokens that it recognises, and refuses made-up or tampered ones', () => {
    const first = issueCartToken(secret);
    const second = issueCartToken(secret);
    expect(first).not.toBe(second);
    expect(first.length).toBeLessThanOrEqual(64);
    expect(isValidCartToken(first, secret)).toBe(true);
    expect(isValidCartToken(first, 'another-secret-0123456789abcdef')).toBe(false);
    expect(isValidCartToken(`${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`, secret)).toBe(false);
    expect(isValidCartToken('made-up', secret)).toBe(false);
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; cal_cart=abc%2Edef; b=2', 'cal_cart')).toBe('abc.def');
    expect(readCookie('a=1', 'cal_cart')).toBeUndefined();
    expect(readCookie(undefined, 'cal_cart')).toBeUndefined();
    expect(readCookie('cal_cart=%E0%A4%A', 'cal_cart')).toBe('%E0%A4%A');
  });

  it('takes the token from the header first, then the cookie, ignoring invalid ones', () => {
    const token = issueCartToken(secret);
    const other = issueCartToken(secret);
    expect(requestCartToken({ headers: { 'x-cart-token': token, cookie: `cal_cart=${other}` } }, secret)).toBe(token);
    expect(requestCartToken({ headers: { 'x-cart-token': 'forged', cookie: `cal_cart=${other}` } }, secret)).toBe(other);
    expect(requestCartToken({ headers: {} }, secret)).toBeNull();
  });

  it('scopes idempotency keys per buyer', () => {
    expect(buyerScope({ kind: 'user', userId: 7 })).toBe('user:7');
    expect(buyerScope({ kind: 'guest', token: 'abc' })).toBe('cart:abc');
    expect(buyerScope({ kind: 'guest', token: null })).toBeNull();
  });
});
