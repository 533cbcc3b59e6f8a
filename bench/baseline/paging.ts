import { invalidParam } from './errors';

export const DEFAULT_PER_PAGE = 25;
const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export type QueryValue = string | string[] | undefined;
export type QueryPairs = Array<[string, string]>;

function readInteger(name: string, raw: QueryValue, fallback: number): number {
  if (raw === undefined) return fallback;
  const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (!/^\s*-?\d{1,9}\s*$/.test(text)) throw invalidParam(name, `${name} must be an integer`);
  return Number(text);
}

/** `page` and `per_page`: the events namespace clamps per_page above 100, the tickets namespace refuses it. */
export function readPage(query: Record<string, QueryValue>, namespace: 'events' | 'tickets'): PageRequest {
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

export function withQuery(url: string, pairs: QueryPairs): string {
  return pairs.length === 0 ? url : `${url}?${new URLSearchParams(pairs).toString()}`;
}

export interface PageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/** `rest_url` with the page first, then the next and previous pages (the first page without `page`). */
export function pageLinks(collectionUrl: string, query: QueryPairs, page: number, totalPages: number): PageLinks {
  const links: PageLinks = { rest_url: withQuery(collectionUrl, [['page', String(page)], ...query]) };
  if (page < totalPages) links.next_rest_url = withQuery(collectionUrl, [['page', String(page + 1)], ...query]);
  if (page > 1 && totalPages > 0) {
    const previous = Math.min(page - 1, totalPages);
    links.previous_rest_url = withQuery(collectionUrl, previous === 1 ? query : [['page', String(previous)], ...query]);
  }
  return links;
}

/** One query-string value, the last of repeated ones. */
export function single(raw: QueryValue): string | undefined {
  return Array.isArray(raw) ? raw[raw.length - 1] : raw;
}

/** Lists as `a=1,2`, repeated keys or a JSON array in the value: trimmed, empty items dropped. */
export function readList(raw: QueryValue): string[] {
  if (raw === undefined) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  return values.flatMap((value) => {
    const trimmed = value.trim();
    if (!Array.isArray(raw) && trimmed.startsWith('[') && trimmed.endsWith(']')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (Array.isArray(parsed)) return parsed.map(String);
      } catch {
        // Not JSON: a comma-separated list.
      }
    }
    return trimmed
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  });
}
