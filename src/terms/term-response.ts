import type { Category } from '../categories/category.entity';
import type { Tag } from '../tags/tag.entity';
import type { RequestContext } from '../auth/request-context';
import { buildPageLinks, QueryPairs } from '../common/pagination/pagination';
import type { EmbeddedTermResponse, TermResponse, TermUrlsResponse } from './term-response.dto';

export { CategoryResponse, EmbeddedTermResponse, TagResponse, TermUrlsResponse } from './term-response.dto';
export type { TermResponse } from './term-response.dto';

/** Event categories (hierarchical) and event tags (flat), the two taxonomies of events. */
export type TermKind = 'category' | 'tag';

export type TermEntity = Category | Tag;

/** Path of each kind's collection inside the events namespace. */
export const TERM_COLLECTIONS: Record<TermKind, 'categories' | 'tags'> = { category: 'categories', tag: 'tags' };

/** `{API_PREFIX}_events_cat` for categories (`tribe_events_cat` in drop-in mode), `post_tag` for tags. */
export function termTaxonomy(kind: TermKind, apiPrefix: string): string {
  return kind === 'category' ? `${apiPrefix}_events_cat` : 'post_tag';
}

function parentOf(term: TermEntity): number {
  return 'parentId' in term ? (term.parentId ?? 0) : 0;
}

function termUrls(term: TermEntity, kind: TermKind, context: RequestContext): TermUrlsResponse {
  const collection = TERM_COLLECTIONS[kind];
  const urls: TermUrlsResponse = {
    self: context.namespaceUrl('events', `${collection}/${term.id}`),
    collection: context.namespaceUrl('events', collection),
  };
  const parent = parentOf(term);
  if (parent !== 0) urls.up = context.namespaceUrl('events', `${collection}/${parent}`);
  return urls;
}

/** The front-end permalink of a term: `{origin}/events/category/{slug}/` or `{origin}/events/tag/{slug}/`. */
function termPermalink(term: TermEntity, kind: TermKind, context: RequestContext): string {
  return `${context.origin}/events/${kind}/${term.slug}/`;
}

/** The term object of the term routes, keys in the recorded order. `count` counts published events. */
export function toTermResponse(term: TermEntity, kind: TermKind, count: number, context: RequestContext): TermResponse {
  const head = {
    id: term.id,
    count,
    description: term.description ?? '',
    name: term.name,
    slug: term.slug,
    taxonomy: termTaxonomy(kind, context.apiPrefix),
  };
  const tail = { meta: [] as never[], url: termPermalink(term, kind, context), urls: termUrls(term, kind, context) };
  return kind === 'category' ? { ...head, parent: parentOf(term), ...tail } : { ...head, ...tail };
}

/** The term as events embed it (see 14-event-single.json); tags carry `parent: 0` there. */
export function toEmbeddedTermResponse(term: TermEntity, kind: TermKind, count: number, context: RequestContext): EmbeddedTermResponse {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: termTaxonomy(kind, context.apiPrefix),
    description: term.description ?? '',
    parent: parentOf(term),
    count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(term, kind, context),
  };
}

export interface CountedTerm<T extends TermEntity = TermEntity> {
  term: T;
  count: number;
}

export interface TermListPage<T extends TermEntity = TermEntity> {
  items: Array<CountedTerm<T>>;
  page: number;
  total: number;
  totalPages: number;
  /** The effective query under its public names, `page` excluded, for the page links. */
  query: QueryPairs;
}

export type TermListResponse = {
  rest_url: string;
  total: number;
  total_pages: number;
  categories?: TermResponse[];
  tags?: TermResponse[];
  next_rest_url?: string;
  previous_rest_url?: string;
};

/** `rest_url, total, total_pages, categories|tags, next_rest_url?, previous_rest_url?`, as recorded. */
export function toTermListResponse(page: TermListPage, kind: TermKind, context: RequestContext): TermListResponse {
  const collection = TERM_COLLECTIONS[kind];
  const links = buildPageLinks(`${context.namespaceUrl('events', collection)}/`, page.query, page.page, page.totalPages);
  const body: TermListResponse = { rest_url: links.rest_url, total: page.total, total_pages: page.totalPages };
  body[collection] = page.items.map(({ term, count }) => toTermResponse(term, kind, count, context));
  if (links.next_rest_url) body.next_rest_url = links.next_rest_url;
  if (links.previous_rest_url) body.previous_rest_url = links.previous_rest_url;
  return body;
}
