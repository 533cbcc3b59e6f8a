import { Get, HttpCode, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { BesideNamespaces } from '../common/http/api-root-mount';
import { NamespaceIndex, NamespacesService } from '../namespaces/namespaces.service';
import { AnyScope } from '../auth/scope-decorators';

/** tec/v1's index and its OpenAPI document, which TEC serves at `/docs` without the acknowledgement header. */
@ApiTags('tec')
@BesideNamespaces('tec/v1')
export class TecNamespaceController {
  constructor(private readonly namespaces: NamespacesService) {}

  @Get()
  @AnyScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Index of the tec/v1 namespace: its routes, methods and arguments' })
  @ApiOkResponse({ description: '`{namespace, routes, _links}`' })
  index(@Req() request: Request, @Query('namespace') requested?: unknown): NamespaceIndex {
    return this.namespaces.index('tec', request, requested);
  }

  @Get('docs')
  @AnyScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAPI 3 document of the tec/v1 namespace' })
  @ApiOkResponse({ description: 'OpenAPI 3 document' })
  docs(@Req() request: Request): object {
    return this.namespaces.doc('tec', request);
  }
}
