import { createHmac, webcrypto } from 'node:crypto';
import {
  decryptRecord,
  encryptRecord,
  generateCheckinSecret,
  generateToken,
  hashToken,
  syncIndex,
  syncKeyForDevice,
} from './checkin-secrets';
import { decodeCursor, encodeCursor, nextCursor, SYNC_SETTLE_MS } from './sync.service';

describe('check-in secrets and the sync format', () => {
  it('makes 160-bit upper-case hex secrets and prefixed tokens, stored as SHA-256', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateCheckinSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(secret).toMatch(/^[0-9A-F]{40}$/);
    expect(generateToken('dev')).toMatch(/^dev_[A-Za-z0-9_-]{43}$/);
    expect(hashToken('x')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  });

  it('indexes by HMAC-SHA-256 of the secret under the list key', () => {
    const key = 'ab'.repeat(32);
    expect(syncIndex(key, 'SECRET')).toBe(createHmac('sha256', Buffer.from(key, 'hex')).update('SECRET').digest('base64url'));
    expect(Buffer.from(syncKeyForDevice(key), 'base64url').toString('hex')).toBe(key);
  });

  it('encrypts a record that only its secret opens, readable with WebCrypto', async () => {
    const data = encryptRecord('SECRET', 7, { name: 'Ada' });
    expect(decryptRecord('SECRET', 7, data)).toEqual({ name: 'Ada' });
    expect(() => decryptRecord('OTHER', 7, data)).toThrow();
    expect(() => decryptRecord('SECRET', 8, data)).toThrow();
    // What the door page does in the browser.
    const subtle = webcrypto.subtle;
    const material = await subtle.importKey('raw', new TextEncoder().encode('SECRET'), 'HKDF', false, ['deriveKey']);
    const key = await subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new TextEncoder().encode('cal-checkin-v1'), info: new TextEncoder().encode('list:7') },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      ['decrypt'],
    );
    const bytes = Buffer.from(data, 'base64url');
    const plain = await subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, key, bytes.subarray(12));
    expect(JSON.parse(new TextDecoder().decode(plain))).toEqual({ name: 'Ada' });
  });

  it('reads back its cursors and refuses others', () => {
    const cursor = { time: new Date('2027-05-01T10:00:00.123Z'), id: 42 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(undefined)).toEqual({ time: new Date(0), id: 0 });
    expect(() => decodeCursor('garbage')).toThrow();
  });

  it('moves the cursor to the last row of a full page, and stays behind the clock once caught up', () => {
    const now = new Date('2027-05-01T12:00:00Z');
    const start = { time: new Date('2027-05-01T11:00:00Z'), id: 3 };
    const recent = { time: new Date(now.getTime() - 1000), id: 9 };
    const old = { time: new Date('2027-05-01T11:30:00Z'), id: 7 };
    expect(nextCursor(start, recent, true, now)).toEqual(recent);
    expect(nextCursor(start, recent, false, now)).toEqual({ time: new Date(now.getTime() - SYNC_SETTLE_MS), id: 0 });
    expect(nextCursor(start, old, false, now)).toEqual(old);
    expect(nextCursor(start, null, false, now)).toEqual({ time: new Date(now.getTime() - SYNC_SETTLE_MS), id: 0 });
    const fresh = { time: new Date(now.getTime() - 2000), id: 1 };
    expect(nextCursor(fresh, null, false, now)).toEqual(fresh);
  });
});
