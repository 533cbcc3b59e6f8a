import { ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { appConfig, type HttpCacheConfig } from '../../config/app.config';
import { JsonText } from './json-text';
import { PublicResource, surrogateKeyHeader, surrogateKeysOf } from './surrogate-keys';

const PUBLIC_READ = 'cal:public-read';

/**
 * Marks a GET whose anonymous answer is public content: shared caches may keep it
 * (Cache-Control public) and file it under the surrogate keys of what it shows.
 */
export const PublicRead = (resource: PublicResource) => SetMetadata(PUBLIC_READ, resource);

/** Cache-Control of an anonymous public read: stored by caches, revalidated after HTTP_CACHE_MAX_AGE. */
export function publicCacheControl(config: HttpCacheConfig): string {
  if (config.maxAgeSeconds === 0) return 'public, no-cache';
  const staleWhileRevalidate =
    config.staleWhileRevalidateSeconds > 0 ? `, stale-while-revalidate=${config.staleWhileRevalidateSeconds}` : '';
  return `public, max-age=${config.maxAgeSeconds}${staleWhileRevalidate}`;
}

/** Cache-Control of every other answer of the API: a browser may keep it and must revalidate; no shared cache keeps it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * HTTP caching as the ecosystem expects it. Every answer carries a strong ETag (a JsonText's from
 * what its bytes are made of, before they are assembled; any other body's Express's hash of it:
 * app.setup.ts) and a conditional GET whose If-None-Match matches answers 304 without the body. Anonymous reads of public content (routes marked PublicRead) may be kept by shared
 * caches: `Cache-Control: public` and the Surrogate-Key/Cache-Tag headers naming what they show, so
 * that a CDN or Varnish purges them by key when a write changes it (PurgeKeyCollector sends the
 * keys). A signed-in caller's answer, or any other route's, is `private`: never kept by a shared cache.
 */
@Injectable()
export class HttpCaching {
  private readonly config: HttpCacheConfig;

  constructor(
    private readonly reflector: Reflector,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.config = config.httpCache;
  }

  /**
   * Before the HTTP handler of `context` runs: its private Cache-Control. For an anonymous read of
   * public content, what to do with the handler's answer: make it public and name what it shows.
   */
  beforeHandler(context: ExecutionContext): ((body: unknown) => void) | null {
    const http = context.switchToHttp();
    const request = http.getRequest<Request & { user?: unknown }>();
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    return this.beginRead(
      request,
      http.getResponse<Response>(),
      this.reflector.get<PublicResource | undefined>(PUBLIC_READ, context.getHandler()),
    );
  }

  /**
   * The same for a GET or HEAD whose route is known to read `resource` (undefined: not public
   * content), for the routes answered before Nest's router (AnonymousEventReadMiddleware).
   */
  beginRead(
    request: Request & { user?: unknown },
    response: Response,
    resource: PublicResource | undefined,
  ): ((body: unknown) => void) | null {
    const anonymous = request.user === undefined && request.headers.authorization === undefined;
    // Set before the handler runs, so that a handler with a policy of its own (iCalendar feeds)
    // overrides it, and so that an error answer stays private.
    response.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    if (!resource) return null;
    // The same URL answers a signed-in caller differently: a cache keeps the anonymous answer apart.
    response.vary('Authorization');
    if (!anonymous) return null;
    return (body: unknown) => {
      response.setHeader('Cache-Control', publicCacheControl(this.config));
      const keys = surrogateKeyHeader(body instanceof JsonText ? body.surrogateKeys : surrogateKeysOf(resource, body), resource);
      response.setHeader('Surrogate-Key', keys);
      response.setHeader('Cache-Tag', keys.replace(/ /g, ','));
    };
  }
}
