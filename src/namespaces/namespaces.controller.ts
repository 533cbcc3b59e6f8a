import { applyDecorators, Controller, Get, HttpCode, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { NamespaceIndex, NamespacesService } from './namespaces.service';

const IndexQuery = () =>
  applyDecorators(
    ApiQuery({ name: 'namespace', required: false, description: 'The namespace (informational)', schema: { type: 'string' } }),
    ApiQuery({ name: 'context', required: false, description: 'Scope of the request', schema: { type: 'string', default: 'view' } }),
  );

@ApiTags('events')
@Controller('events/v1')
export class EventsNamespaceController {
  constructor(private readonly namespaces: NamespacesService) {}

  @Get()
  @HttpCode(200)
  @IndexQuery()
  @ApiOperation({ summary: 'Index of the events namespace: its routes, methods and arguments' })
  @ApiOkResponse({ description: '`{namespace, routes, _links}`' })
  index(@Req() request: Request): NamespaceIndex {
    return this.namespaces.index('events', request);
  }

  @Get('doc')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAPI 3 document of the events namespace' })
  @ApiOkResponse({ description: 'OpenAPI 3 document' })
  doc(@Req() request: Request): object {
    return this.namespaces.doc('events', request);
  }
}

@ApiTags('tickets')
@Controller('tickets/v1')
export class TicketsNamespaceController {
  constructor(private readonly namespaces: NamespacesService) {}

  @Get()
  @HttpCode(200)
  @IndexQuery()
  @ApiOperation({ summary: 'Index of the tickets namespace: its routes, methods and arguments' })
  @ApiOkResponse({ description: '`{namespace, routes, _links}`' })
  index(@Req() request: Request): NamespaceIndex {
    return this.namespaces.index('tickets', request);
  }

  @Get('doc')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAPI 3 document of the tickets namespace' })
  @ApiOkResponse({ description: 'OpenAPI 3 document' })
  doc(@Req() request: Request): object {
    return this.namespaces.doc('tickets', request);
  }
}
