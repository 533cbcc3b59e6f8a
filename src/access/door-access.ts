import { AuthenticatedUser, hasCapability } from '../auth/roles';
import { forbidden } from '../common/errors/api-error';
import { canManageEvent, managesEveryEvent, reachesEvent, tokenEventLimit } from './event-access';

/**
 * Who may use the door (check-in lists, redeem, search, sync, walk-in sales): a registered device
 * on its own lists; door staff (`checkin_attendees`) and those managing every event on every list;
 * authors on the lists of their events.
 */

/**
 * Who scans: a registered device (the check-in module's `Device`), or a signed-in user (a manager of
 * the event or door staff). The rules read only the device's lists.
 */
export type DoorCaller<Device = unknown> =
  { kind: 'device'; device: Device; listIds: number[] } | { kind: 'user'; user: AuthenticatedUser };

/** Whether the caller may scan on a list of an event with this author. */
export function mayScan(caller: DoorCaller, list: { id: number }, event: { id?: number; authorId: number | null }): boolean {
  if (caller.kind === 'device') return caller.listIds.includes(list.id);
  return canManageEvent(caller.user, event) || (hasCapability(caller.user, 'checkin_attendees') && reachesEvent(caller.user, event));
}

/** 403 for a caller who may not use this list. */
export function assertMayScan(caller: DoorCaller, list: { id: number }, event: { id?: number; authorId: number | null }): void {
  if (!mayScan(caller, list, event)) throw forbidden(false, 'Sorry, you are not allowed to scan on this check-in list.');
}

/**
 * Which check-in lists a caller may list: a device its own (`ids`), door staff and those managing
 * every event all (`all`), authors those of the events they manage (`managed`); null for the rest.
 */
export type DoorListScope =
  | { kind: 'ids'; ids: number[] }
  | { kind: 'all' }
  | { kind: 'managed'; user: AuthenticatedUser }
  /** Door staff and managers through an API token limited to these events: their lists. */
  | { kind: 'events'; eventIds: readonly number[] };

export function doorListScope(caller: DoorCaller): DoorListScope | null {
  if (caller.kind === 'device') return { kind: 'ids', ids: caller.listIds };
  const limit = tokenEventLimit(caller.user);
  if (limit !== null && hasCapability(caller.user, 'checkin_attendees')) return { kind: 'events', eventIds: limit };
  if (managesEveryEvent(caller.user) || hasCapability(caller.user, 'checkin_attendees')) return { kind: 'all' };
  if (hasCapability(caller.user, 'publish_events')) return { kind: 'managed', user: caller.user };
  return null;
}
