import { applyDecorators, Controller, Get, HttpCode, Inject, Query, Req, RequestMethod } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import type { RouteInfo } from '@nestjs/common/interfaces';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { NamespaceName } from '../common/http/api-urls.service';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import { NamespaceIndex, NamespacesService, RootIndex } from './namespaces.service';
import { PublicRead } from '../common/http/http-caching';
import { AnyScope } from '../auth/scope-decorators';

const IndexQuery = () =>
  applyDecorators(
    ApiQuery({
      name: 'namespace',
      required: false,
      description: 'The namespace to show (this one by default)',
      schema: { type: 'string' },
    }),
    ApiQuery({ name: 'context', required: false, description: 'Scope of the request', schema: { type: 'string', default: 'view' } }),
    ApiNotFoundResponse({ type: ApiErrorResponse, description: '`rest_invalid_namespace`: `namespace` names no namespace of this API' }),
  );

/**
 * The API root (`GET /wp-json/` in drop-in mode, `GET /` by default), WordPress's root index. Its
 * path is API_ROOT, which is configuration: `mountAtApiRoot` sets it before the routes are registered.
 */
@ApiTags('operations')
@Controller()
export class ApiRootController {
  constructor(private readonly namespaces: NamespacesService) {}

  @Get()
  @AnyScope()
  @HttpCode(200)
  @PublicRead('index')
  @ApiQuery({ name: 'context', required: false, description: 'Scope of the request', schema: { type: 'string', default: 'view' } })
  @ApiOperation({ summary: 'Root index of the API: its namespaces and all their routes, as WordPress serves at /wp-json/' })
  @ApiOkResponse({ description: '`{url, home, timezone_string, namespaces, authentication, routes, _links}`' })
  index(@Req() request: Request): RootIndex {
    return this.namespaces.rootIndex(request);
  }
}

/** Puts the root index at API_ROOT, outside the namespaces' prefix: the route to leave out of it. */
export function mountAtApiRoot(apiRoot: string): RouteInfo {
  const path = apiRoot === '' ? '/' : apiRoot;
  Reflect.defineMetadata(PATH_METADATA, path, ApiRootController);
  return { path, method: RequestMethod.GET };
}

/** The index and the OpenAPI document of one namespace, as a controller class to extend. */
function createNamespaceController(namespace: NamespaceName) {
  class NamespaceController {
    constructor(@Inject(NamespacesService) readonly namespaces: NamespacesService) {}

    @Get()
    @AnyScope()
    @HttpCode(200)
    @PublicRead('index')
    @IndexQuery()
    @ApiOperation({ summary: `Index of the ${namespace} namespace: its routes, methods and arguments` })
    @ApiOkResponse({ description: '`{namespace, routes, _links}`' })
    index(@Req() request: Request, @Query('namespace') requested?: unknown): NamespaceIndex {
      return this.namespaces.index(namespace, request, requested);
    }

    @Get('doc')
    @AnyScope()
    @HttpCode(200)
    @PublicRead('index')
    @ApiOperation({ summary: `OpenAPI 3 document of the ${namespace} namespace` })
    @ApiOkResponse({ description: 'OpenAPI 3 document' })
    doc(@Req() request: Request): object {
      return this.namespaces.doc(namespace, request);
    }
  }
  return NamespaceController;
}

@ApiTags('events')
@Controller('events/v1')
export class EventsNamespaceController extends createNamespaceController('events') {}

@ApiTags('tickets')
@Controller('tickets/v1')
export class TicketsNamespaceController extends createNamespaceController('tickets') {}

@ApiTags('auth')
@Controller('auth/v1')
export class AuthNamespaceController extends createNamespaceController('auth') {}
