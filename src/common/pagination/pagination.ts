import type { Response } from 'express';
import { ApiError, invalidParam } from '../errors/api-error';

/** The two namespaces page differently (see decisions.md, "Responses and errors"). */
export type ApiNamespace = 'events' | 'tickets';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  /** Rows to skip before this page. */
  offset: number;
}

const TOTAL_HEADERS: Record<ApiNamespace, [string, string]> = {
  events: ['X-TEC-Total', 'X-TEC-TotalPages'],
  tickets: ['X-ET-TOTAL', 'X-ET-TOTAL-PAGES'],
};

function readInteger(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  const text: unknown = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (typeof text === 'number' && Number.isInteger(text)) return text;
  if (typeof text !== 'string' || !/^\s*-?\d{1,9}\s*$/.test(text)) {
    throw invalidParam(name, `${name} must be an integer`);
  }
  return Number(text);
}

/**
 * Reads `page` and `per_page`. Events namespace: `per_page` above 100 is clamped, below 1 is a 400.
 * Tickets namespace: `per_page` outside 1..100 is a 400. `page` below 1 is a 400 everywhere.
 */
export function parsePageRequest(query: { page?: unknown; per_page?: unknown }, namespace: ApiNamespace): PageRequest {
  const page = readInteger('page', query.page, 1);
  if (page < 1) throw invalidParam('page', 'page must be at least 1');
  let perPage = readInteger('per_page', query.per_page, DEFAULT_PER_PAGE);
  if (perPage < 1) throw invalidParam('per_page', 'per_page must be at least 1');
  if (perPage > MAX_PER_PAGE) {
    if (namespace === 'tickets') throw invalidParam('per_page', `per_page must be at most ${MAX_PER_PAGE}`);
    perPage = MAX_PER_PAGE;
  }
  return { page, perPage, offset: (page - 1) * perPage };
}

export function countPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}

/**
 * What a page past the last one gives: `not-found` (events, venues, organizers: 404
 * `{resource}-archive-page-not-found`), `invalid` (tickets namespace: 400 `invalid-page-number`)
 * or `empty` (terms: 200 with an empty list). Page 1 of an empty list is always fine.
 */
/**
 * The total a list with `offset` reports, as the original's WP_Query does: every match while the
 * offset leaves some on the page (offset 1 of 4: total 4, three items), none once it skips them all
 * (WordPress counts the matches only when the page has any).
 */
export function totalWithOffset(matching: number, skipped: number): number {
  return skipped < matching ? matching : 0;
}

export type PastEndPolicy = { kind: 'not-found'; resource: string } | { kind: 'invalid' } | { kind: 'empty' };

export function assertPageInRange(page: number, totalPages: number, policy: PastEndPolicy): void {
  if (page <= 1 || page <= totalPages) return;
  if (policy.kind === 'not-found') {
    throw new ApiError(`${policy.resource}-archive-page-not-found`, `The requested ${policy.resource} archive page does not exist`, 404);
  }
  if (policy.kind === 'invalid') {
    throw new ApiError('invalid-page-number', 'The page number requested is larger than the number of pages available.', 400);
  }
}

export type QueryPairs = Array<[string, string]>;

/** The collection URL with `pairs` as its query string. */
export function urlWithQuery(collectionUrl: string, pairs: QueryPairs): string {
  if (pairs.length === 0) return collectionUrl;
  return `${collectionUrl}?${new URLSearchParams(pairs).toString()}`;
}

export interface PageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/**
 * `rest_url` is the collection URL with the effective query (page included); `next_rest_url` points
 * at page+1 when it exists; `previous_rest_url` at page-1, dropping `page` when that is the first.
 * `query` holds the effective parameters other than `page`, in the order they should appear.
 */
export function buildPageLinks(collectionUrl: string, query: QueryPairs, page: number, totalPages: number): PageLinks {
  const others = query.filter(([name]) => name !== 'page');
  const links: PageLinks = { rest_url: urlWithQuery(collectionUrl, [['page', String(page)], ...others]) };
  if (page < totalPages) links.next_rest_url = urlWithQuery(collectionUrl, [['page', String(page + 1)], ...others]);
  if (page > 1 && totalPages > 0) {
    const previous = Math.min(page - 1, totalPages);
    links.previous_rest_url = urlWithQuery(collectionUrl, previous === 1 ? others : [['page', String(previous)], ...others]);
  }
  return links;
}

export function setTotalHeaders(response: Response, namespace: ApiNamespace, total: number, totalPages: number): void {
  const [totalHeader, pagesHeader] = TOTAL_HEADERS[namespace];
  response.setHeader(totalHeader, String(total));
  response.setHeader(pagesHeader, String(totalPages));
}
