import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { invalidParam } from '../common/errors/api-error';
import { toList } from '../common/http/transforms';
import { MAX_LIST_VALUES } from '../common/security/list-limits';
import { listVisibility } from './post-permissions';
import { isPostStatus, POST_STATUSES, PostStatus } from './post-status';

/**
 * The `status` list filter. Anonymous callers may ask only for `publish`; signed-in callers for
 * any registered status (one or a comma-separated list). Unknown statuses are a 400.
 */
export function parseStatusFilter(raw: unknown, user: AuthenticatedUser | undefined): PostStatus[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = toList(raw);
  const statuses = Array.isArray(list) ? list : [list];
  // " " or "," name no status: no filter, rather than an `IN ()` that MySQL refuses.
  if (statuses.length === 0) return undefined;
  if (statuses.length > MAX_LIST_VALUES) throw invalidParam('status', `status may hold at most ${MAX_LIST_VALUES} values`);
  for (const status of statuses) {
    if (!isPostStatus(status)) throw invalidParam('status', `status must be one of ${POST_STATUSES.join(', ')}`);
    if (!user && status !== 'publish') throw invalidParam('status', 'status must be publish for anonymous requests');
  }
  return statuses as PostStatus[];
}

/**
 * Restricts a list to what the caller may see (published for everyone; own posts of any status for
 * authors and contributors; everything for editors), then to the requested statuses, trash
 * excluded unless asked for.
 */
export function applyPostVisibility<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  user: AuthenticatedUser | undefined,
  statuses: PostStatus[] | undefined,
): SelectQueryBuilder<T> {
  if (statuses) query.andWhere(`${alias}.status IN (:...visibleStatuses)`, { visibleStatuses: statuses });
  else query.andWhere(`${alias}.status <> 'trash'`);
  const visibility = listVisibility(user);
  if (visibility.kind === 'published-only') query.andWhere(`${alias}.status = 'publish'`);
  if (visibility.kind === 'published-or-own') {
    query.andWhere(`(${alias}.status = 'publish' OR ${alias}.authorId = :visibleToUser)`, { visibleToUser: visibility.userId });
  }
  return query;
}

/** `!` escapes LIKE wildcards the same way on SQLite and MySQL (a backslash does not). */
export function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, '!$&');
}

/**
 * The venue/organizer `search`: the text is split into words on anything but letters and digits;
 * a row matches when one of `columns` contains every word (case-insensitive). "temple avenue"
 * matches "100, Avenue du Temple".
 */
export function applyWordSearch<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  columns: string[],
  text: string,
): SelectQueryBuilder<T> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .slice(0, 10);
  if (words.length === 0) return query;
  const parameters = Object.fromEntries(words.map((word, index) => [`searchWord${index}`, `%${escapeLike(word)}%`]));
  query.andWhere(
    new Brackets((anyField) => {
      for (const column of columns) {
        anyField.orWhere(
          new Brackets((everyWord) => {
            words.forEach((_word, index) => everyWord.andWhere(`LOWER(${column}) LIKE :searchWord${index} ESCAPE '!'`));
          }),
        );
      }
    }),
    parameters,
  );
  return query;
}
