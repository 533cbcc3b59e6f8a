import { AuthenticatedUser, hasCapability } from '../auth/roles';

/**
 * Who may create, edit and delete categories and tags (`manage_terms`: editors and
 * administrators), including a term created by naming it in an event's write. Reading terms is public.
 */
export function canManageTerms(user: AuthenticatedUser | undefined): boolean {
  return hasCapability(user, 'manage_terms');
}
