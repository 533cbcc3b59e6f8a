import { createHash, scrypt, timingSafeEqual } from 'node:crypto';
import type { Database } from './db';
import { incorrectPassword } from './errors';
import { authQueries } from './queries';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface User {
  id: number;
  role: Role;
}

interface UserRow {
  id: number;
  role: Role;
  password_hash: string | null;
}

interface ApplicationPasswordRow {
  id: number;
  password_hash: string;
  last_used_at: Date | null;
}

/** `last_used_at` is written at most this often, as the service does. */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
const LOGIN_CACHE_TTL_MS = 5 * 60 * 1000;

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

function scryptVerify(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return Promise.resolve(false);
  const expectedHash = Buffer.from(expected, 'base64');
  return new Promise((resolve, reject) => {
    scrypt(password, Buffer.from(salt, 'base64'), expectedHash.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 }, (error, actual) =>
      error ? reject(error) : resolve(timingSafeEqual(actual, expectedHash)),
    );
  });
}

/**
 * HTTP Basic with an application password (SHA-256, compared against each of the user's), or the
 * bootstrap administrator's scrypt login password (remembered for a while once verified). No header
 * is an anonymous caller; wrong credentials are 401 `incorrect_password`.
 */
export class Authenticator {
  private readonly verifiedLogins = new Map<string, number>();

  constructor(private readonly db: Database) {}

  async authenticate(authorization: string | undefined): Promise<User | undefined> {
    if (!authorization) return undefined;
    const [scheme, encoded] = authorization.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() !== 'basic') return undefined;
    const decoded = Buffer.from(encoded ?? '', 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const password = decoded.slice(separator + 1);
    if (separator < 1 || password === '') throw incorrectPassword();
    const identifier = decoded.slice(0, separator);

    const [user] = await this.db.select<UserRow>(authQueries.user, [identifier, identifier]);
    if (!user) throw incorrectPassword();
    const hash = createHash('sha256').update(password.replace(/\s+/g, '')).digest('hex');
    const passwords = await this.db.select<ApplicationPasswordRow>(authQueries.applicationPasswords, [user.id]);
    const match = passwords.reduce<ApplicationPasswordRow | undefined>((found, candidate) => (constantTimeEqual(candidate.password_hash, hash) ? candidate : found), undefined);
    if (match) {
      const now = new Date();
      if (!match.last_used_at || now.getTime() - match.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
        await this.db.write(authQueries.touch, [now, match.id]);
      }
      return { id: user.id, role: user.role };
    }
    if (user.password_hash && (await this.verifyLogin(user.id, password, user.password_hash))) return { id: user.id, role: user.role };
    throw incorrectPassword();
  }

  private async verifyLogin(userId: number, password: string, stored: string): Promise<boolean> {
    const key = createHash('sha256').update(`${userId}\0${stored}\0${password}`).digest('hex');
    const now = Date.now();
    if ((this.verifiedLogins.get(key) ?? 0) > now) return true;
    if (!(await scryptVerify(password, stored))) return false;
    if (this.verifiedLogins.size >= 1000) this.verifiedLogins.clear();
    this.verifiedLogins.set(key, now + LOGIN_CACHE_TTL_MS);
    return true;
  }
}

/** Editors and administrators manage every event's attendees; authors those of their own events. */
export function managesAllEvents(user: User | undefined): boolean {
  return user?.role === 'administrator' || user?.role === 'editor';
}

export function canManageEvent(user: User | undefined, event: { author_id: number | null }): boolean {
  if (!user) return false;
  if (managesAllEvents(user)) return true;
  return user.role === 'author' && event.author_id === user.id;
}
