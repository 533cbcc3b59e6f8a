import { AuthenticatedUser, hasCapability } from '../auth/roles';

/**
 * Who manages API tokens (docs/tokens.md): administrators every token; any other signed-in user
 * their own. A caller authenticated by a token manages none (the scope guard refuses them before
 * these rules run; they are refused here as well). A token never carries more than its owner's role:
 * every rule intersects the two, so creating one needs no check of the scopes against the role.
 */

/** Whether the caller manages tokens of every user. */
export function managesEveryToken(user: AuthenticatedUser): boolean {
  return !user.token && hasCapability(user, 'manage_users');
}

export function canManageToken(user: AuthenticatedUser, token: { userId: number }): boolean {
  if (user.token) return false;
  return managesEveryToken(user) || token.userId === user.id;
}

/** Whether the caller may create a token owned by `ownerId`. */
export function canCreateTokenFor(user: AuthenticatedUser, ownerId: number): boolean {
  return canManageToken(user, { userId: ownerId });
}

/** The owner a token list is restricted to: undefined for administrators (every owner, or the one asked for). */
export function tokenListOwner(user: AuthenticatedUser, requestedOwner: number | undefined): number | undefined {
  return managesEveryToken(user) ? requestedOwner : user.id;
}
