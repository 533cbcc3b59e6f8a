import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request } from 'express';
import { appConfig } from '../../config/app.config';

export type NamespaceName = 'events' | 'tickets';

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

  /** `cal/events/v1`, or `tribe/events/v1` in drop-in mode. */
  namespace(name: NamespaceName): string {
    return `${this.config.apiPrefix}/${name}/v1`;
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
