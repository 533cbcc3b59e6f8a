import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** The front-page paths on which the original reads `?rest_route=`. */
const FRONT_PATHS = new Set(['/', '/index.php']);

/**
 * WordPress sites without pretty permalinks expose their REST API as
 * `/?rest_route=/tribe/events/v1/events/6&...` instead of `/wp-json/tribe/events/v1/events/6?...`,
 * and clients configured for such sites keep using that form. This rewrites it to the path form
 * under API_ROOT before routing, keeping the other query parameters; URLs in responses then use the
 * path form, as the original's do.
 */
export function restRouteRewrite(apiRoot: string): RequestHandler {
  return (request: Request, _response: Response, next: NextFunction) => {
    const queryStart = request.url.indexOf('?');
    if (queryStart < 0 || !FRONT_PATHS.has(request.url.slice(0, queryStart))) return next();
    const params = new URLSearchParams(request.url.slice(queryStart + 1));
    const routes = params.getAll('rest_route');
    if (routes.length !== 1 || routes[0] === '') return next();
    params.delete('rest_route');
    const route = routes[0].startsWith('/') ? routes[0] : `/${routes[0]}`;
    const rest = params.toString();
    request.url = `${apiRoot}${route}${rest === '' ? '' : `?${rest}`}`;
    next();
  };
}
