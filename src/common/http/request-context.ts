import type { Request } from 'express';
import type { AuthenticatedUser } from '../../auth/roles';
import type { ApiUrls, NamespaceName } from './api-urls.service';

/**
 * What mappers need to know about the request they answer: who asks (role-dependent fields) and
 * where the API lives (absolute URLs). Built once per request by `ApiUrls.context()`.
 */
export interface RequestContext {
  user?: AuthenticatedUser;
  /** `https://host[:port]`, from PUBLIC_URL or the request. */
  origin: string;
  /** Host name and path of the site, for global ids (`example.org?id=5`). */
  siteId: string;
  /** API_PREFIX (`cal`, or `tribe` in drop-in mode), part of some names such as term taxonomies. */
  apiPrefix: string;
  /** SITE_TIMEZONE, in which post dates (`date`, `modified`) are shown. */
  siteTimezone: string;
  namespaceUrl(name: NamespaceName, path?: string): string;
}

export function buildRequestContext(urls: ApiUrls, request: Request, user?: AuthenticatedUser): RequestContext {
  const origin = urls.origin(request);
  const { hostname, pathname } = new URL(origin);
  // Worked out once: a page of events builds hundreds of URLs, and the request's protocol is
  // re-derived from the proxy headers on every read.
  const apiRoot = urls.apiRoot(request);
  return {
    user,
    origin,
    siteId: `${hostname}${pathname === '/' ? '' : pathname}`,
    apiPrefix: urls.apiPrefix,
    siteTimezone: urls.siteTimezone,
    namespaceUrl: (name, path) => urls.namespaceUrlAt(apiRoot, name, path),
  };
}
