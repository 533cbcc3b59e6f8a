import { AuthenticatedUser, Capability, hasCapability } from '../auth/roles';
import { hasScope, Scope } from '../auth/scopes';

/**
 * Who may use a tool of the MCP endpoint (src/mcp/): the role a REST route would ask for, narrowed by
 * the token's scopes. A tool names what the route behind it needs; the service it calls still
 * decides per object (whose event, which list), as it does for the route.
 *
 * - `anyone`: public reads, anonymous callers included (the REST route has no guard);
 * - `door`: the check-in routes' callers: managers of events (`publish_events`) and door staff;
 * - a capability: the REST route's `@RequireCapability(...)`.
 */
export type ToolAudience = 'anyone' | 'door' | Capability;

export interface ToolRequirement {
  audience: ToolAudience;
  /** The scope a token must carry; callers without a token hold every scope. */
  scope: Scope;
}

/** Why a caller may not use a tool: no caller (sign in), a token lacking the scope, or a role no scope would help. */
export type ToolRefusal = { kind: 'anonymous'; scope: Scope } | { kind: 'insufficient_scope'; scope: Scope } | { kind: 'role' };

function roleAllows(user: AuthenticatedUser | undefined, audience: ToolAudience): boolean {
  if (audience === 'anyone') return true;
  if (audience === 'door') return hasCapability(user, 'publish_events') || hasCapability(user, 'checkin_attendees');
  return hasCapability(user, audience);
}

/** Whether the caller may use the tool: its role would be let through the REST route, and its token carries the scope. */
export function mayUseTool(user: AuthenticatedUser | undefined, requirement: ToolRequirement): boolean {
  return toolRefusal(user, requirement) === null;
}

/** What keeps the caller from the tool, or null when nothing does. */
export function toolRefusal(user: AuthenticatedUser | undefined, requirement: ToolRequirement): ToolRefusal | null {
  if (requirement.audience === 'anyone')
    return hasScope(user, requirement.scope) ? null : { kind: 'insufficient_scope', scope: requirement.scope };
  if (!user) return { kind: 'anonymous', scope: requirement.scope };
  if (!roleAllows(user, requirement.audience)) return { kind: 'role' };
  return hasScope(user, requirement.scope) ? null : { kind: 'insufficient_scope', scope: requirement.scope };
}
