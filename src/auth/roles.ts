import type { TokenGrant } from './scopes';

/**
 * The five roles of the original, most powerful first, and `door_staff`: people who scan tickets at
 * the door with their own login and may do nothing else (src/checkin/).
 */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber', 'door_staff'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * What each role may do, in one place. Names follow WordPress capabilities for posts, applied to
 * events, venues and organizers alike. Ownership (a capability that only covers one's own
 * objects) is decided by the services with `canOnObject`.
 */
export const CAPABILITIES = [
  'read',
  'read_private_events',
  'edit_events',
  'edit_others_events',
  'edit_published_events',
  'publish_events',
  'delete_events',
  'delete_others_events',
  'delete_published_events',
  'manage_terms',
  'manage_attendees',
  'manage_users',
  /** Redeem, search and sync on every check-in list (managers of an event may on its lists anyway). */
  'checkin_attendees',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Editors may do everything but manage users. */
const EDITOR: readonly Capability[] = CAPABILITIES.filter((capability) => capability !== 'manage_users');

export const CAPABILITY_MAP: Record<Role, ReadonlySet<Capability>> = {
  administrator: new Set(CAPABILITIES),
  editor: new Set(EDITOR),
  author: new Set<Capability>([
    'read',
    'edit_events',
    'edit_published_events',
    'publish_events',
    'delete_events',
    'delete_published_events',
  ]),
  contributor: new Set<Capability>(['read', 'edit_events', 'delete_events']),
  subscriber: new Set<Capability>(['read']),
  door_staff: new Set<Capability>(['checkin_attendees']),
};

/** The caller of a request once authenticated; anonymous callers have none. */
export interface AuthenticatedUser {
  id: number;
  login: string;
  role: Role;
  /** Set when the caller authenticated with a Bearer API token: what the token narrows the role to. */
  token?: TokenGrant;
}

export function hasCapability(user: AuthenticatedUser | undefined | null, capability: Capability): boolean {
  return !!user && CAPABILITY_MAP[user.role].has(capability);
}

/**
 * Whether `user` may apply an own/others capability pair to an object owned by `ownerId`:
 * e.g. `canOnObject(user, ownerId, 'edit_events', 'edit_others_events')`.
 */
export function canOnObject(
  user: AuthenticatedUser | undefined | null,
  ownerId: number | null,
  ownCapability: Capability,
  othersCapability: Capability,
): boolean {
  if (!user) return false;
  if (hasCapability(user, othersCapability)) return true;
  return ownerId === user.id && hasCapability(user, ownCapability);
}
