import type { AuthenticatedUser } from '../auth/roles';
import { hasScope } from '../auth/scopes';
import { canManageEvent } from './event-access';

/**
 * Who skips a waiting room's admission check (src/queues/queue-admission-gate.ts): the managers of
 * the event. Through an API token, only with the `queue:bypass` scope, and only for the events of
 * its limit: a token narrows its owner's rights, so a buyer's token holding `queue:bypass` waits
 * like everyone, and a manager's token without it waits too.
 */
export function mayBypassQueue(user: AuthenticatedUser | undefined, event: { id: number; authorId: number | null }): boolean {
  if (!user || !hasScope(user, 'queue:bypass')) return false;
  return canManageEvent(user, event);
}
