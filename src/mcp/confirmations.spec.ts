import type { AuthenticatedUser } from '../auth/roles';
import { MemoryRateLimitStore } from '../common/throttling/rate-limit-store';
import type { AppConfig } from '../config/app.config';
import { CONFIRMATION_TTL_MS, Confirmations } from './confirmations';

describe('confirmation handles of destructive MCP tools', () => {
  let now = new Date('2030-01-01T10:00:00Z');
  const clock = { now: () => now };
  const confirmations = new Confirmations(
    { nonceSecret: 'a-secret-for-the-spec' } as AppConfig,
    new MemoryRateLimitStore(() => now.getTime()),
    clock,
  );
  const admin: AuthenticatedUser = { id: 1, login: 'admin', role: 'administrator' };
  const token: AuthenticatedUser = { ...admin, token: { id: 4, name: 'agent', scopes: new Set(), limitEvents: null, pii: 'full' } };
  const args = { order_id: 12, amount: '5.00' };

  beforeEach(() => (now = new Date('2030-01-01T10:00:00Z')));

  const refused = (promise: Promise<void>) => expect(promise).rejects.toMatchObject({ code: 'mcp-confirmation-invalid' });

  it('is used once, for the same tool, caller and arguments (the handle itself left out)', async () => {
    const { handle, expiresAt } = confirmations.issue('refund_order', admin, args);
    expect(expiresAt.getTime() - now.getTime()).toBe(CONFIRMATION_TTL_MS);
    await refused(confirmations.consume(handle, 'cancel_order', admin, args));
    await refused(confirmations.consume(handle, 'refund_order', token, args));
    await refused(confirmations.consume(handle, 'refund_order', admin, { ...args, amount: '6.00' }));
    await confirmations.consume(handle, 'refund_order', admin, { amount: '5.00', order_id: 12, confirmation: handle });
    await refused(confirmations.consume(handle, 'refund_order', admin, args));
  });

  it('expires after five minutes, and refuses what it did not sign', async () => {
    const { handle } = confirmations.issue('refund_order', admin, args);
    now = new Date(now.getTime() + CONFIRMATION_TTL_MS);
    await refused(confirmations.consume(handle, 'refund_order', admin, args));
    const [body] = handle.split('.');
    await refused(confirmations.consume(`${body}.forged`, 'refund_order', admin, args));
    await refused(confirmations.consume('nonsense', 'refund_order', admin, args));
    await refused(confirmations.consume(42, 'refund_order', admin, args));
  });
});
