import type { AuthenticatedUser, Role } from '../auth/roles';
import type { Scope } from '../auth/scopes';
import { mayUseTool, toolRefusal, ToolRequirement } from './tool-access';

const user = (role: Role, scopes?: Scope[]): AuthenticatedUser => ({
  id: 1,
  login: role,
  role,
  ...(scopes ? { token: { id: 9, name: 'agent', scopes: new Set(scopes), limitEvents: null, pii: 'full' as const } } : {}),
});

const PUBLIC_READ: ToolRequirement = { audience: 'anyone', scope: 'events:read' };
const REFUND: ToolRequirement = { audience: 'publish_events', scope: 'orders:refund' };
const DOOR: ToolRequirement = { audience: 'door', scope: 'checkin:read' };

describe('who may use an MCP tool (access/tool-access)', () => {
  it('lets anyone use a public read, and a token only with its scope', () => {
    expect(toolRefusal(undefined, PUBLIC_READ)).toBeNull();
    expect(toolRefusal(user('subscriber'), PUBLIC_READ)).toBeNull();
    expect(toolRefusal(user('subscriber', ['events:read']), PUBLIC_READ)).toBeNull();
    expect(toolRefusal(user('administrator', ['orders:read']), PUBLIC_READ)).toEqual({ kind: 'insufficient_scope', scope: 'events:read' });
  });

  it('asks an anonymous caller to sign in with the scope, and a token for the scope it lacks', () => {
    expect(toolRefusal(undefined, REFUND)).toEqual({ kind: 'anonymous', scope: 'orders:refund' });
    expect(toolRefusal(user('editor', ['orders:read']), REFUND)).toEqual({ kind: 'insufficient_scope', scope: 'orders:refund' });
    expect(toolRefusal(user('editor', ['orders:refund']), REFUND)).toBeNull();
    expect(toolRefusal(user('author'), REFUND)).toBeNull();
  });

  it('refuses a role no scope would help (a token never widens its owner)', () => {
    for (const role of ['contributor', 'subscriber', 'door_staff'] as const) {
      expect(toolRefusal(user(role), REFUND)).toEqual({ kind: 'role' });
      expect(toolRefusal(user(role, ['orders:refund']), REFUND)).toEqual({ kind: 'role' });
    }
  });

  it('lets managers of events and door staff use the door tools', () => {
    expect(mayUseTool(user('author'), DOOR)).toBe(true);
    expect(mayUseTool(user('door_staff', ['checkin:read']), DOOR)).toBe(true);
    expect(mayUseTool(user('door_staff', ['checkin:write']), DOOR)).toBe(false);
    expect(mayUseTool(user('contributor'), DOOR)).toBe(false);
  });
});
