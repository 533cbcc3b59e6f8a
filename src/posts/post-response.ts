import { formatInZone } from '../common/dates/date-format';
import type { RequestContext } from '../auth/request-context';
import type { PostEntity } from './post.entity-base';

/** The permalink segment of each post type, as the original's front end routes them. */
export type PostType = 'event' | 'venue' | 'organizer';

export interface PostBaseFields {
  id: number;
  author: string;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  url: string;
}

/**
 * Fields every post-like response starts with. `author` is a string as in the original; `url` is
 * the permalink a front end serves the post at (`{origin}/{type}/{slug}/`).
 */
export function postBaseFields(post: PostEntity, type: PostType, context: RequestContext): PostBaseFields {
  return {
    id: post.id,
    author: String(post.authorId ?? 0),
    status: post.status,
    date: formatInZone(post.publishedAt, context.siteTimezone),
    date_utc: formatInZone(post.publishedAt),
    modified: formatInZone(post.updatedAt, context.siteTimezone),
    modified_utc: formatInZone(post.updatedAt),
    url: `${context.origin}/${type}/${post.slug}/`,
  };
}

/** `global_id` and its lineage: `{site}?id={id}`, with `type=` for non-post objects. */
export function globalIdFields(context: RequestContext, id: number, type?: string): { global_id: string; global_id_lineage: string[] } {
  const globalId = type ? `${context.siteId}?type=${type}&id=${id}` : `${context.siteId}?id=${id}`;
  return { global_id: globalId, global_id_lineage: [globalId] };
}

/**
 * Venues and organizers omit falsy fields as the original does: empty strings, null, `false`
 * images and author "0". Booleans that are part of the shape (`show_map`) are kept by the caller
 * listing them in `keep`.
 */
export function omitEmpty<T extends Record<string, unknown>>(fields: T, keep: ReadonlyArray<keyof T> = []): Partial<T> {
  const result: Partial<T> = {};
  for (const [key, value] of Object.entries(fields) as Array<[keyof T, T[keyof T]]>) {
    const empty = value === '' || value === null || value === undefined || value === false || (key === 'author' && value === '0');
    if (!empty || keep.includes(key)) result[key] = value;
  }
  return result;
}
