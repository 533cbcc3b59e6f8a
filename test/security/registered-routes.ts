import { METHODS } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { OpenApiDocument } from '../../src/namespaces/openapi-document';

interface ExpressRoute {
  path: string;
  methods: Record<string, boolean>;
}

interface ExpressLayer {
  route?: ExpressRoute;
}

const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Every endpoint the app serves, as `METHOD /path/:param`, from two sources so that none can hide:
 * Express's router (every handler Nest registered, plus the documentation page's own routes, even
 * those left out of the OpenAPI document) and the OpenAPI document (which also shows `@All()`
 * handlers, registered in Express for every method like the middleware mounts skipped below).
 */
export function registeredRoutes(app: NestExpressApplication): string[] {
  const routes = new Set<string>();
  const express = app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods).filter((method) => method !== '_all');
    // Nest mounts middleware (`forRoutes`) with `app.all()`: a route for every method is not an endpoint.
    if (layer.route.methods._all || methods.length >= METHODS.length) continue;
    for (const method of methods) routes.add(`${method.toUpperCase()} ${layer.route.path}`);
  }
  for (const [path, item] of Object.entries(app.get(OpenApiDocument).get().paths)) {
    for (const method of OPENAPI_METHODS) {
      if (item[method]) routes.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
    }
  }
  return [...routes].sort();
}
