import type { ApiTokensRepository } from './api-tokens.repository';
import { AuthenticationService } from './authentication.service';
import { NonceService } from './nonce.service';
import { constantTimeEqual, hashApplicationPassword, hashLoginPassword, verifyLoginPassword } from './passwords';
import type { UsersService } from './users.service';
import { isValidCartToken, issueCartToken } from '../cart/cart-identity';
import type { AppConfig } from '../config/app.config';
import { isValidSignature, signPayload } from '../orders/webhook-signature';
import type { LoginAttempts } from '../common/throttling/login-attempts.service';

/**
 * Every comparison of a secret goes through crypto.timingSafeEqual, so that how long a refusal
 * takes says nothing about how much of a guess was right.
 */
describe('secrets are compared in constant time', () => {
  let timingSafeEqual: jest.SpyInstance;

  beforeEach(() => {
    // The module object the code under test calls through (not an import's frozen namespace copy).
    timingSafeEqual = jest.spyOn(jest.requireActual<typeof import('node:crypto')>('node:crypto'), 'timingSafeEqual');
  });

  afterEach(() => timingSafeEqual.mockRestore());

  it('constantTimeEqual spends a comparison whether or not the lengths match', () => {
    expect(constantTimeEqual('abcd', 'abcd')).toBe(true);
    expect(constantTimeEqual('abcd', 'abce')).toBe(false);
    expect(constantTimeEqual('abcd', 'abcde')).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(3);
  });

  it('checks a nonce against both valid ticks, always', () => {
    const nonces = new NonceService({ nonceSecret: 'a-secret-of-sixteen-chars' } as AppConfig, { now: () => new Date() });
    const nonce = nonces.create('edit_ticket_nonce', 3);
    expect(nonces.verify(nonce, 'edit_ticket_nonce', 3)).toBe(true);
    expect(nonces.verify('0123456789abcdef0123', 'edit_ticket_nonce', 3)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(4);
  });

  it('checks the payment webhook signature and cart tokens', () => {
    const signature = signPayload('webhook-secret-0123456789', '{"order_id":1}');
    expect(isValidSignature('webhook-secret-0123456789', '{"order_id":1}', signature)).toBe(true);
    const lastCharChanged = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    expect(isValidSignature('webhook-secret-0123456789', '{"order_id":1}', lastCharChanged)).toBe(false);
    const token = issueCartToken('cart-secret-0123456789');
    expect(isValidCartToken(token, 'cart-secret-0123456789')).toBe(true);
    expect(isValidCartToken(token, 'another-secret-0123456789')).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(4);
  });

  it('checks a login password (scrypt) with timingSafeEqual', async () => {
    const stored = await hashLoginPassword('correct horse battery');
    timingSafeEqual.mockClear();
    expect(await verifyLoginPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyLoginPassword('wrong horse battery', stored)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
  });

  it('compares a Basic password with every application password of the user, not stopping at the match', async () => {
    const stored = ['first', 'second', 'third'].map((password, index) => ({
      id: index + 1,
      passwordHash: hashApplicationPassword(password),
      lastUsedAt: new Date(),
    }));
    const users = {
      findWithApplicationPasswords: async () => ({
        user: { id: 9, login: 'alice', role: 'editor', passwordHash: null },
        applicationPasswords: stored,
      }),
      touchApplicationPassword: async () => undefined,
    } as unknown as UsersService;
    const attempts = { assertAllowed: async () => undefined, recordFailure: async () => undefined } as unknown as LoginAttempts;
    const authentication = new AuthenticationService(users, { now: () => new Date() }, attempts, {} as ApiTokensRepository);
    const header = `Basic ${Buffer.from('alice:first').toString('base64')}`;
    await expect(authentication.authenticate(header, '127.0.0.1')).resolves.toMatchObject({ id: 9 });
    expect(timingSafeEqual).toHaveBeenCalledTimes(3);
  });

  it('compares a Bearer token against a hash even when no token has its prefix', async () => {
    const tokens = { findByPrefixWithOwner: async () => null } as unknown as ApiTokensRepository;
    const attempts = {} as LoginAttempts;
    const authentication = new AuthenticationService({} as UsersService, { now: () => new Date() }, attempts, tokens);
    await expect(authentication.authenticate(`Bearer cal_abcdefgh_${'x'.repeat(32)}`, '127.0.0.1')).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });
});
