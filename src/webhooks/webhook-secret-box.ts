import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Keeps webhook signing secrets encrypted at rest (AES-256-GCM). The signatures need the secret
 * itself, so it cannot be hashed like a password; sealing it means a copy of the database alone
 * (a backup, a replica, a dump) does not let anyone sign as the service. The key is derived from
 * NONCE_SECRET, which every instance shares already.
 */
export class WebhookSecretBox {
  private readonly key: Buffer;

  constructor(nonceSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', nonceSecret, 'cal', 'webhook signing secrets', 32));
  }

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
  }

  /** The secret in clear; a value stored before sealing existed (`whsec_…`) is returned as it is. */
  open(stored: string): string {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const sealed = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
