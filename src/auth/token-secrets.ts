import { createHash, randomInt } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The public part, which finds the row: 8 base62 characters. */
const PREFIX_LENGTH = 8;
/** The secret part: 32 base62 characters, about 190 bits. */
const RANDOM_LENGTH = 32;
const TOKEN_PATTERN = new RegExp(`^cal_([A-Za-z0-9]{${PREFIX_LENGTH}})_([A-Za-z0-9]{${RANDOM_LENGTH}})$`);

function randomBase62(length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += BASE62[randomInt(BASE62.length)];
  return text;
}

export interface NewTokenSecret {
  /** `cal_<prefix>_<random>`: shown once. */
  secret: string;
  prefix: string;
  hash: string;
}

/** A fresh API token secret, from the system's cryptographic random source. */
export function generateTokenSecret(): NewTokenSecret {
  const prefix = randomBase62(PREFIX_LENGTH);
  const secret = `cal_${prefix}_${randomBase62(RANDOM_LENGTH)}`;
  return { secret, prefix, hash: hashTokenSecret(secret) };
}

/**
 * The stored form of a secret. A plain SHA-256 is enough for 190 random bits (no dictionary to
 * try), and keeps the per-request check cheap, as for application passwords.
 */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The prefix of a well-formed secret, or null for anything else. */
export function tokenPrefixOf(secret: string): string | null {
  return TOKEN_PATTERN.exec(secret)?.[1] ?? null;
}

/** Whether a Bearer credential looks like one of ours (`cal_…`), so other Bearer schemes can be told apart. */
export function looksLikeApiToken(credential: string): boolean {
  return credential.startsWith('cal_');
}
