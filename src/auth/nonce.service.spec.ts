import { Clock } from '../common/clock';
import { AppConfig } from '../config/app.config';
import { NONCE_TICK_SECONDS, NonceService } from './nonce.service';

describe('NonceService', () => {
  const tickMs = NONCE_TICK_SECONDS * 1000;
  let nowMs: number;
  const clock: Clock = { now: () => new Date(nowMs) };
  const service = (secret = 'a-secret-of-sixteen-chars') => new NonceService({ nonceSecret: secret } as AppConfig, clock);

  beforeEach(() => {
    // Just after the start of a tick.
    nowMs = 20_000 * tickMs + 1000;
  });

  it('accepts a nonce in the tick it was made', () => {
    const nonces = service();
    expect(nonces.verify(nonces.create('edit_ticket_nonce', 7), 'edit_ticket_nonce', 7)).toBe(true);
  });

  it('accepts a nonce during the next tick', () => {
    const nonces = service();
    const nonce = nonces.create('edit_ticket_nonce', 7);
    nowMs += tickMs;
    expect(nonces.verify(nonce, 'edit_ticket_nonce', 7)).toBe(true);
  });

  it('rejects a nonce two ticks later', () => {
    const nonces = service();
    const nonce = nonces.create('edit_ticket_nonce', 7);
    nowMs += 2 * tickMs;
    expect(nonces.verify(nonce, 'edit_ticket_nonce', 7)).toBe(false);
  });

  it('rejects a nonce made for another action', () => {
    const nonces = service();
    expect(nonces.verify(nonces.create('add_ticket_nonce', 7), 'remove_ticket_nonce', 7)).toBe(false);
  });

  it('rejects a nonce made for another user', () => {
    const nonces = service();
    expect(nonces.verify(nonces.create('edit_ticket_nonce', 7), 'edit_ticket_nonce', 8)).toBe(false);
  });

  it('rejects a tampered nonce', () => {
    const nonces = service();
    const nonce = nonces.create('edit_ticket_nonce', 7);
    const tampered = `${nonce.slice(0, -1)}${nonce.endsWith('0') ? '1' : '0'}`;
    expect(nonces.verify(tampered, 'edit_ticket_nonce', 7)).toBe(false);
    expect(nonces.verify('', 'edit_ticket_nonce', 7)).toBe(false);
    expect(nonces.verify(`${nonce}x`, 'edit_ticket_nonce', 7)).toBe(false);
  });

  it('rejects a nonce signed with another secret, and accepts one from an instance sharing the secret', () => {
    const nonce = service('one-secret-of-sixteen-chars').create('edit_ticket_nonce', 7);
    expect(service('another-secret-sixteen-chars').verify(nonce, 'edit_ticket_nonce', 7)).toBe(false);
    expect(service('one-secret-of-sixteen-chars').verify(nonce, 'edit_ticket_nonce', 7)).toBe(true);
  });

  it('uses ticks of 12 hours counted as ceil(unix time / 43200)', () => {
    nowMs = 1_700_000_000_000;
    expect(service().currentTick()).toBe(Math.ceil(1_700_000_000 / 43_200));
  });
});
