import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthenticatedUser } from './roles';
import { ApiUrls, NamespaceName } from '../common/http/api-urls.service';

/**
 * What a handler and the mappers need to know about the request they answer: who asks
 * (role-dependent fields) and where the API lives (absolute URLs). A handler receives it as one
 * parameter, `@RequestContext() context: RequestContext`, built once per request.
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
  /** The client's address (behind trusted proxies, TRUST_PROXY), as the per-address limits key it. */
  clientAddress?: string;
  /** A waiting room's admission token (the `X-Queue-Token` header, else the `cal_queue` cookie), for the routes it gates. */
  queueToken?: string;
  namespaceUrl(name: NamespaceName, path?: string): string;
}

/** The context of a route the capability guard has let through: the caller is signed in. */
export type SignedInContext = RequestContext & { user: AuthenticatedUser };

/** Site ids by origin: a deployment answers under a few origins, each parsed once. */
const siteIds = new Map<string, string>();
const MAX_KEPT_SITE_IDS = 256;

function siteIdOf(origin: string): string {
  let siteId = siteIds.get(origin);
  if (siteId === undefined) {
    const { hostname, pathname } = new URL(origin);
    siteId = `${hostname}${pathname === '/' ? '' : pathname}`;
    // Host headers are the client's to choose: the map stays bounded whatever they send.
    if (siteIds.size >= MAX_KEPT_SITE_IDS) siteIds.clear();
    siteIds.set(origin, siteId);
  }
  return siteId;
}

export function buildRequestContext(urls: ApiUrls, request: Request, user?: AuthenticatedUser): RequestContext {
  // Worked out once: a page of events builds hundreds of URLs, and the request's protocol is
  // re-derived from the proxy headers on every read.
  const origin = urls.origin(request);
  const apiRoot = urls.apiRootAt(origin);
  return {
    user,
    origin,
    siteId: siteIdOf(origin),
    apiPrefix: urls.apiPrefix,
    siteTimezone: urls.siteTimezone,
    clientAddress: request.ip,
    queueToken: queueTokenOf(request),
    namespaceUrl: (name, path) => urls.namespaceUrlAt(apiRoot, name, path),
  };
}

const QUEUE_COOKIE = /(?:^|;\s*)cal_queue=([A-Za-z0-9_.-]{1,2048})(?:;|$)/;

/** The admission token a request carries: the header, else the cookie; nothing longer than a token can be. */
function queueTokenOf(request: Request): string | undefined {
  // Requests made up in-process (the demo seeder's) may carry no headers at all.
  const header = request.headers?.['x-queue-token'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value && value.length <= 2048) return value.trim();
  const cookie = request.headers?.cookie;
  return cookie ? QUEUE_COOKIE.exec(cookie)?.[1] : undefined;
}

/**
 * Turns the request into its RequestContext. A pipe rather than the decorator's own factory
 * because it needs ApiUrls (configuration), and Nest injects the pipes named in a parameter
 * decorator; the authentication guard has set `request.user` by the time it runs.
 */
@Injectable()
export class RequestContextPipe implements PipeTransform<Request & { user?: AuthenticatedUser }, RequestContext> {
  constructor(private readonly urls: ApiUrls) {}

  transform(request: Request & { user?: AuthenticatedUser }): RequestContext {
    return buildRequestContext(this.urls, request, request.user);
  }
}

/** The Express request, for pipes that derive a handler parameter from it. */
export const HttpRequest = createParamDecorator((_data: unknown, context: ExecutionContext): Request =>
  context.switchToHttp().getRequest<Request>(),
);

/** The handler parameter carrying the caller and the URL builder: `@RequestContext() context: RequestContext`. */
export const RequestContext = (): ParameterDecorator => HttpRequest(undefined, RequestContextPipe);
