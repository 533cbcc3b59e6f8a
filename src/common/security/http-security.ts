import type { NestExpressApplication } from '@nestjs/platform-express';
import type { CorsOptions, CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { AppConfig, CorsConfig } from '../../config/app.config';

/** Response headers a browser client may read across origins: paging totals, the cart token, tracing, limits. */
export const CORS_EXPOSED_HEADERS = [
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'X-ET-TOTAL',
  'X-ET-TOTAL-PAGES',
  'X-Cart-Token',
  'X-Request-Id',
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * The API answers JSON only, so its responses forbid everything a browser could do with them as
 * a document: no sources at all, no framing. Helmet's other defaults stay (nosniff, HSTS,
 * no-referrer, same-origin opener and resource policies, ...).
 */
const apiHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
});

/**
 * The documentation page (Swagger UI) is a document: its own scripts and styles, the inline
 * `<style>` blocks of its template, `data:` images. No upgrade-insecure-requests, which would
 * break the page's own assets on a plain-HTTP deployment.
 */
const docsHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
    },
  },
});

/** `{apiRoot}/docs`, its assets and the `-json`/`-yaml` documents SwaggerModule serves beside it. */
export function isDocsPath(path: string, docsPath: string): boolean {
  return path === docsPath || path.startsWith(`${docsPath}/`) || path.startsWith(`${docsPath}-`);
}

function securityHeaders(docsPath: string): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) =>
    (isDocsPath(request.path, docsPath) ? docsHeaders : apiHeaders)(request, response, next);
}

/**
 * Listed origins (CORS_ORIGINS) are echoed with credentials, so that a shop front on another
 * origin can keep its buyer's cart cookie; any other origin gets `*` without credentials when
 * allowed (reads and Basic-authenticated calls need no cookie), or nothing at all.
 */
export function corsOptions(cors: CorsConfig): CorsOptionsDelegate<Request> {
  const credentialed = new Set(cors.credentialedOrigins);
  const common: CorsOptions = { methods: CORS_METHODS, exposedHeaders: CORS_EXPOSED_HEADERS, maxAge: PREFLIGHT_MAX_AGE_SECONDS };
  return (request, callback) => {
    const origin = request.headers.origin;
    if (origin && credentialed.has(origin)) return callback(null, { ...common, origin, credentials: true });
    if (origin && cors.anyOrigin) return callback(null, { ...common, origin: '*', credentials: false });
    return callback(null, { origin: false });
  };
}

/** Answers differ by Origin whenever some origins are credentialed: caches must keep them apart. */
function varyOnOrigin(cors: CorsConfig): RequestHandler {
  const varies = cors.credentialedOrigins.length > 0;
  return (_request: Request, response: Response, next: NextFunction) => {
    if (varies) response.vary('Origin');
    next();
  };
}

/** Security headers and CORS, ahead of every other middleware so that preflights and refusals carry them too. */
export function applyHttpSecurity(app: NestExpressApplication, config: AppConfig): void {
  app.use(securityHeaders(`${config.apiRoot}/docs`));
  app.use(varyOnOrigin(config.cors));
  app.enableCors(corsOptions(config.cors));
}
