import { AuthenticatedUser, hasCapability } from '../auth/roles';

/**
 * Who manages an event's tickets and attendees (sees buyers' data, checks people in): editors and
 * administrators for every event, and the event's author when that author may publish (authors).
 */
export function canManageEvent(user: AuthenticatedUser | undefined, event: { authorId: number | null }): boolean {
  if (!user) return false;
  if (hasCapability(user, 'manage_attendees')) return true;
  return event.authorId === user.id && hasCapability(user, 'publish_events');
}
