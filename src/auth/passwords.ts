import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

const APPLICATION_PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const APPLICATION_PASSWORD_LENGTH = 24;

/** Compares two strings in time that depends only on their length. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    // Still spend the comparison so that a length mismatch is not faster than a content one.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Spaces are ignored in application passwords, as WordPress shows them in groups of four. */
export function normaliseApplicationPassword(password: string): string {
  return password.replace(/\s+/g, '');
}

/** 24 random letters and digits (~143 bits), shown as six groups of four like WordPress does. */
export function generateApplicationPassword(): string {
  let password = '';
  for (let i = 0; i < APPLICATION_PASSWORD_LENGTH; i += 1) {
    password += APPLICATION_PASSWORD_ALPHABET[randomInt(APPLICATION_PASSWORD_ALPHABET.length)];
  }
  return password.replace(/(.{4})(?!$)/g, '$1 ');
}

/**
 * Application passwords are long random secrets, so a plain SHA-256 is as strong as a slow hash
 * here and keeps authentication cheap on every request.
 */
export function hashApplicationPassword(password: string): string {
  return createHash('sha256').update(normaliseApplicationPassword(password)).digest('hex');
}

const SCRYPT_PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Login passwords are chosen by people: scrypt with a random salt, `scrypt$N$r$p$salt$hash`. */
export async function hashLoginPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT_PARAMS);
  return ['scrypt', SCRYPT_PARAMS.N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyLoginPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const expectedHash = Buffer.from(expected, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expectedHash.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expectedHash);
}
