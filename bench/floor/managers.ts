import { createHash } from 'node:crypto';
import type { Pool, RowDataPacket } from 'mysql2/promise';

/** Roles that manage every event's tickets and attendees (`read_private_events`, `manage_attendees`). */
const MANAGER_ROLES = new Set(['administrator', 'editor']);

/**
 * The floor's minimal check of a manager's HTTP Basic credentials: an application password of a
 * user whose role manages every event, looked up once per header value and then kept for the
 * floor's life (a revoked password stays accepted: the floor is a benchmark reference, not a
 * server to deploy). Anything else is refused.
 */
export class ManagerCredentials {
  private readonly verdicts = new Map<string, Promise<boolean>>();

  constructor(private readonly pool: Pool) {}

  isManager(authorization: string | undefined): Promise<boolean> {
    if (!authorization) return Promise.resolve(false);
    let verdict = this.verdicts.get(authorization);
    if (!verdict) {
      verdict = this.check(authorization);
      this.verdicts.set(authorization, verdict);
    }
    return verdict;
  }

  private async check(authorization: string): Promise<boolean> {
    const match = /^Basic\s+(\S+)$/i.exec(authorization);
    if (!match) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) return false;
    const login = decoded.slice(0, colon);
    const hash = createHash('sha256')
      .update(decoded.slice(colon + 1).replace(/\s+/g, ''))
      .digest('hex');
    const [rows] = await this.pool.query<RowDataPacket[]>(
      'SELECT u.role FROM users u INNER JOIN application_passwords p ON p.user_id = u.id WHERE u.login = ? AND p.password_hash = ?',
      [login, hash],
    );
    return rows.some((row) => MANAGER_ROLES.has(String(row.role)));
  }
}
