import type { Request, Response } from 'express';
import type { RequestContext } from '../auth/request-context';
import type { TecPage } from './tec-responses';

/** WordPress's list headers: X-WP-Total, X-WP-TotalPages and a Link to the next and previous pages (the request's own query, page changed). */
export function setWpListHeaders(response: Response, request: Request, context: RequestContext, page: TecPage<unknown>): void {
  response.setHeader('X-WP-Total', String(page.total));
  response.setHeader('X-WP-TotalPages', String(page.totalPages));
  const pageUrl = (number: number) => {
    const url = new URL(request.originalUrl, context.origin);
    url.searchParams.set('page', String(number));
    return url.toString();
  };
  const links: string[] = [];
  if (page.page > 1 && page.totalPages > 0) links.push(`<${pageUrl(Math.min(page.page - 1, page.totalPages))}>; rel="prev"`);
  if (page.page < page.totalPages) links.push(`<${pageUrl(page.page + 1)}>; rel="next"`);
  if (links.length > 0) response.setHeader('Link', links.join(', '));
  response.setHeader('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link');
}
