import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request } from 'express';
import { appConfig } from '../../config/app.config';

/**
 * `auth`: API tokens (`cal/auth/v1`). `tec`: TEC's newer API, `tec/v1`; `wp`: the WordPress discovery routes, `wp/v2`. Their paths are
 * fixed (no API_PREFIX), as the original's.
 */
export type NamespaceName = 'events' | 'tickets' | 'auth' | 'tec' | 'wp';

const FIXED_NAMESPACES: Partial<Record<NamespaceName, string>> = { tec: 'tec/v1', wp: 'wp/v2' };

/** Builds the absolute URLs that responses carry, from PUBLIC_URL or else from the request. */
@Injectable()
export class ApiUrls {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  get apiPrefix(): string {
    return this.config.apiPrefix;
  }

  get siteTimezone(): string {
    return this.config.siteTimezone;
  }

  get siteName(): string {
    return this.config.siteName;
  }

  get siteDescription(): string {
    return this.config.siteDescription;
  }

  /** `cal/events/v1`, or `tribe/events/v1` in drop-in mode; `tec/v1` and `wp/v2` in both. */
  namespace(name: NamespaceName): string {
    return FIXED_NAMESPACES[name] ?? `${this.config.apiPrefix}/${name}/v1`;
  }

  /** Scheme, host and port the client used, or PUBLIC_URL. */
  origin(request: Request): string {
    if (this.config.publicUrl) return this.config.publicUrl;
    return `${request.protocol}://${request.get('host') ?? 'localhost'}`;
  }

  /** The API root as a client sees it, with a trailing slash (`https://host/wp-json/`). */
  apiRoot(request: Request): string {
    return this.apiRootAt(this.origin(request));
  }

  /** The API root under an origin already worked out. */
  apiRootAt(origin: string): string {
    return `${origin}${this.config.apiRoot}/`;
  }

  /** Absolute URL of a path inside a namespace: `namespaceUrl(req, 'events', 'events/5')`. */
  namespaceUrl(request: Request, name: NamespaceName, path = ''): string {
    return this.namespaceUrlAt(this.apiRoot(request), name, path);
  }

  /** `namespaceUrl` under an API root already worked out (once per request: see RequestContext). */
  namespaceUrlAt(apiRoot: string, name: NamespaceName, path = ''): string {
    const base = `${apiRoot}${this.namespace(name)}`;
    return path === '' ? base : `${base}/${path.replace(/^\/+/, '')}`;
  }
}
