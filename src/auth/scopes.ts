/**
 * What an API token may do (issue 43), as `resource:action` scopes. A token's rights are the
 * intersection of its scopes, its event limits and its owner's role: a scope never adds to what the
 * role allows, it only narrows it. Callers that are not tokens (Basic application passwords, logins)
 * hold every scope, so their role alone decides, as in the original.
 */
export const SCOPES = [
  'events:read',
  'events:write',
  'tickets:read',
  'tickets:write',
  'orders:read',
  'orders:write',
  /** Refunds and cancellations move money: never implied by `orders:write`. */
  'orders:refund',
  /** Personal data of attendees and buyers. */
  'attendees:read',
  'attendees:write',
  'checkin:read',
  'checkin:write',
  'coupons:read',
  'coupons:write',
  'waitlist:read',
  'waitlist:write',
  'reports:read',
  'exports:read',
  'webhooks:write',
  /** Skips a waiting room's admission check. */
  'queue:bypass',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether a token's answers show personal data as stored or masked. */
export type PersonalDataAccess = 'full' | 'redacted';

/** What a Bearer API token grants, attached to the caller it authenticates as (its owner). */
export interface TokenGrant {
  id: number;
  name: string;
  scopes: ReadonlySet<Scope>;
  /** The events (post ids) it may act on beyond what is public; null: all the owner's events. */
  limitEvents: readonly number[] | null;
  pii: PersonalDataAccess;
}

/** Presets for common jobs, offered when creating a token. */
export const SCOPE_PRESETS: Record<string, readonly Scope[]> = {
  read_only_reporting: ['events:read', 'tickets:read', 'reports:read'],
  box_office: [
    'events:read',
    'tickets:read',
    'orders:read',
    'orders:write',
    'attendees:read',
    'checkin:read',
    'checkin:write',
    'queue:bypass',
  ],
  door_kiosk: ['checkin:write'],
};

/** Whether a caller's token (if any) carries `scope`; callers without a token carry them all. */
export function hasScope(caller: { token?: TokenGrant } | undefined | null, scope: Scope): boolean {
  return !caller?.token || caller.token.scopes.has(scope);
}

/** Whether a caller's token (if any) reaches event `eventId`; callers without a token reach them all. */
export function tokenReachesEvent(caller: { token?: TokenGrant } | undefined | null, eventId: number): boolean {
  const limit = caller?.token?.limitEvents;
  return !limit || limit.includes(eventId);
}
