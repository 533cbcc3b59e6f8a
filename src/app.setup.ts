import { RequestMethod } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Application } from 'express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { redactAnswerForToken } from './auth/personal-data-answers';
import { AppLogger } from './common/app-logger';
import * as qs from 'qs';
import { ApiExceptionFilter } from './common/errors/api-exception.filter';
import { documentErrorBodies } from './common/errors/openapi-errors';
import { createBodyParsers, PARSE_LIMITS } from './common/http/body-parsers';
import { answerClientErrorsWithJson } from './common/http/client-errors';
import { HttpCaching } from './common/http/http-caching';
import { RequestPipelineInterceptor } from './common/http/request-pipeline.interceptor';
import { queryStringLimits } from './common/http/query-limits';
import { restRouteRewrite } from './common/http/rest-route';
import { rememberTrust, type TrustTest } from './common/http/trusted-proxies';
import { SizedValidationPipe } from './common/http/sized-validation.pipe';
import { VALIDATION_OPTIONS } from './common/http/validation-options';
import { applyHttpSecurity } from './common/security/http-security';
import { documentRateLimits } from './common/security/openapi-limits';
import type { AppConfig } from './config/app.config';
import { ReplicaReadRoutes } from './database/read-replicas';
import { HttpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { mountAtApiRoot } from './namespaces/namespaces.controller';
import { mountBesideNamespaces } from './common/http/api-root-mount';
import { OpenApiDocument } from './namespaces/openapi-document';
import { documentTokenScopes } from './namespaces/openapi-scopes';
import { paymentWebhookRawBody } from './payments/webhook-raw-body';

/** Routes that live outside the API root: operations endpoints. */
const OUTSIDE_API_ROOT = [
  { path: 'health', method: RequestMethod.GET },
  { path: 'health/live', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
  // The MCP endpoint (src/mcp) and its OAuth protected resource metadata (RFC 9728) sit at the origin's root.
  { path: 'mcp', method: RequestMethod.ALL },
  { path: '.well-known/oauth-protected-resource', method: RequestMethod.GET },
  { path: '.well-known/oauth-protected-resource/mcp', method: RequestMethod.GET },
];

/**
 * The one place for global set-up, shared by main.ts and the e2e tests: body parsers, the
 * validation pipe, the error filter, the route prefix and the OpenAPI documents.
 * The app must be created with `{ bodyParser: false }`: the parsers here replace Nest's.
 */
export function setupApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(AppLogger));
  app.disable('x-powered-by');
  // A strong ETag (a hash of the body, unless answerJsonText set one) on every answer; Express answers a matching If-None-Match with 304.
  app.set('etag', 'strong');
  answerClientErrorsWithJson(app.getHttpServer());
  // Whose X-Forwarded-For names the client: the per-address limits depend on it (TRUST_PROXY).
  app.set('trust proxy', config.trustProxy);
  const express = app.getHttpAdapter().getInstance() as Application;
  express.set('trust proxy fn', rememberTrust(express.get('trust proxy fn') as TrustTest));
  // Repeated keys (`a=1&a=2`) and brackets (`a[]=1`, `ticket[mode]=own`) as the original accepts them.
  app.set('query parser', (query: string) => qs.parse(query, PARSE_LIMITS));
  app.use(app.get(HttpMetricsMiddleware).handle); // first: requests the body parsers refuse are counted too
  app.use(queryStringLimits());
  // `/?rest_route=/tribe/...`, the original's form for sites without pretty permalinks.
  app.use(restRouteRewrite(config.apiRoot));
  applyHttpSecurity(app, config);
  app.use(...paymentWebhookRawBody(config)); // providers sign the exact bytes: read them before the JSON parser
  app.use(...createBodyParsers(config.bodyLimitBytes));

  app.setGlobalPrefix(`${config.apiRoot}/${config.apiPrefix}`.replace(/^\//, ''), {
    exclude: [...OUTSIDE_API_ROOT, mountAtApiRoot(config.apiRoot), ...mountBesideNamespaces(config.apiRoot)],
  });
  app.useGlobalPipes(new SizedValidationPipe(VALIDATION_OPTIONS));
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalInterceptors(new RequestPipelineInterceptor(app.get(HttpCaching), app.get(ReplicaReadRoutes), redactAnswerForToken));

  // Built on first use (the namespace indexes, the docs page): most apps a test suite starts never
  // ask, and building it is a third of starting one. main.ts asks at start, so a route the document
  // cannot describe still stops the service before it listens.
  const buildDocument = (): OpenAPIObject => {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('cal: events calendar and ticketing API')
        .setDescription('Both namespaces of the service. Authenticate with HTTP Basic and an application password.')
        .setVersion('1.0.0')
        .addBasicAuth({ type: 'http', scheme: 'basic', description: 'login and application password' }, 'basic')
        .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'Door devices: `Device <api_token>`' }, 'device')
        .addBearerAuth(
          { type: 'http', scheme: 'bearer', description: 'API tokens (`cal_<prefix>_<random>`, docs/tokens.md), narrowed to their scopes' },
          'bearer',
        )
        .addTag('events', 'Events namespace')
        .addTag('tickets', 'Tickets namespace')
        .addTag('auth', 'API tokens (cal/auth/v1)')
        .addTag('tec', "TEC's newer API, tec/v1 (experimental in the original)")
        .addTag('wp', 'WordPress discovery routes (wp/v2)')
        .addTag('operations', 'Health and operations')
        .build(),
      // Operation ids name the resource and the handler (`events_list`, `tickets_create`), not the class,
      // for the method names of generated clients.
      {
        operationIdFactory: (controllerKey, methodKey) =>
          `${controllerKey.replace(/Controller$/, '').replace(/^./, (first) => first.toLowerCase())}_${methodKey}`,
      },
    );
    // Authentication is optional on most routes: anonymous callers read published content.
    document.security = [{}, { basic: [] }, { bearer: [] }];
    documentTokenScopes(document);
    documentRateLimits(document, `${config.apiRoot}/${config.apiPrefix}/`);
    documentErrorBodies(document, `${config.apiRoot}/${config.apiPrefix}/`);
    return document;
  };
  const openApi = app.get(OpenApiDocument);
  openApi.buildWith(buildDocument);
  SwaggerModule.setup(`${config.apiRoot}/docs`.replace(/^\//, ''), app, () => openApi.get(), {
    useGlobalPrefix: false,
    customSiteTitle: 'cal API documentation',
    // JSON only: the YAML copy was serialised anew on every request (tens of ms of CPU), outside the
    // API's request limits, for anyone.
    raw: ['json'],
  });

  app.enableShutdownHooks();
}
