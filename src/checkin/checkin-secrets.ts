import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The secrets of the door, and the sync's record format (docs/checkin.md, "Offline sync"). Only
 * primitives WebCrypto offers too (HMAC-SHA-256, HKDF-SHA-256, AES-256-GCM with a 12-byte IV), so the
 * door page can read what a sync sends.
 */

const SECRET_BYTES = 20;
const SYNC_SALT = 'cal-checkin-v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A check-in secret: 160 random bits as 40 upper-case hex characters (QR alphanumeric mode). */
export function generateCheckinSecret(): string {
  return randomBytes(SECRET_BYTES).toString('hex').toUpperCase();
}

/** A bearer token with a readable prefix: `ini_…` (device initialization) or `dev_…` (device API). */
export function generateToken(prefix: 'ini' | 'dev'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a token: its SHA-256, hex. Tokens carry 256 random bits, so no salt or stretching is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A list's key for the sync index: 256 random bits, hex as stored, base64url as sent. */
export function generateSyncKey(): string {
  return randomBytes(32).toString('hex');
}

export function syncKeyForDevice(storedKey: string): string {
  return Buffer.from(storedKey, 'hex').toString('base64url');
}

/** The index of a secret in a list's sync: base64url(HMAC-SHA-256(list key, secret)). */
export function syncIndex(storedKey: string, secret: string): string {
  return createHmac('sha256', Buffer.from(storedKey, 'hex')).update(secret, 'utf8').digest('base64url');
}

function recordKey(secret: string, listId: number): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from(SYNC_SALT, 'utf8'), Buffer.from(`list:${listId}`, 'utf8'), 32),
  );
}

/** base64url(iv ‖ ciphertext ‖ tag) of the JSON of `record`, under a key only the holder of `secret` can derive. */
export function encryptRecord(secret: string, listId: number, record: unknown): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', recordKey(secret, listId), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(record), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
}

/** The inverse of encryptRecord (what a device does after a scan); throws when the secret is not the record's. */
export function decryptRecord(secret: string, listId: number, data: string): unknown {
  const bytes = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', recordKey(secret, listId), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}
