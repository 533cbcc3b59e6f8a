import { applyDecorators, Body, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Res, Type } from '@nestjs/common';
import type { Response as HttpResponse } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext } from '../auth/request-context';
import { ParameterTypes } from '../common/http/parameter-types';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import type { ListTermsQuery } from './list-terms.query';
import type { CreateTermDto } from './term-body.dto';
import {
  TERM_WRITE_ACCESS,
  TermCreateDocs,
  TermDeleteDocs,
  TermIdParam,
  TermListDocs,
  TermReadDocs,
  TermSlugParam,
  TermUpdateDocs,
} from './term-docs';
import { TermEntity, TermKind, TermListResponse, TermResponse, toTermListResponse, toTermResponse } from './term-response';
import { TermsService } from './terms.service';
import { PublicRead } from '../common/http/http-caching';
import { RequireScope } from '../auth/scope-decorators';

/** What makes the category routes category routes; see `createTermController`. */
export interface TermRoutes<Create extends CreateTermDto, ListQuery extends ListTermsQuery> {
  kind: TermKind;
  /** The service the handlers call, injected by its class. */
  service: Type<TermsService<TermEntity, Create, ListQuery>>;
  /** The classes the validation pipe builds and the OpenAPI document shows. */
  listQuery: Type<ListQuery>;
  createBody: Type<Create>;
  updateBody: Type<Partial<Create>>;
  response: Type<TermResponse>;
  listResponse: Type<TermListResponse>;
}

const TermRead = (docs: MethodDecorator) => applyDecorators(HttpCode(200), docs);

/** The 403 and 401 of the write routes, then the route's OpenAPI operation; status 200 unless said. */
const TermWrite = (docs: MethodDecorator, status = 200) =>
  applyDecorators(HttpCode(status), RequireCapability('manage_terms', TERM_WRITE_ACCESS), docs);

/**
 * The routes categories and tags share (list, create, and read, update with POST, PUT or PATCH,
 * and delete by id or by slug), as one controller class to extend:
 *
 *     @ApiTags('events')
 *     @Controller('events/v1/categories')
 *     export class CategoriesController extends createTermController({ kind: 'category', ... }) {}
 *
 * The subclass's name makes the OpenAPI operation ids (`categories_getBySlug`). Routes are
 * registered in the order of the methods here: the id routes before the by-slug routes.
 */
/** Reads need `events:read`, writes `events:write` (terms belong to the events namespace). */
const scopeOf = (method: (path: string) => MethodDecorator) => RequireScope(method === Get ? 'events:read' : 'events:write');

export function createTermController<Create extends CreateTermDto, ListQuery extends ListTermsQuery>(
  routes: TermRoutes<Create, ListQuery>,
) {
  const { kind, listQuery, createBody, updateBody, response, listResponse } = routes;
  type Update = Partial<Create>;

  /** A route on `:id` or `by-slug/:slug` with its path parameter and the classes of the handler's other parameters. */
  const ById = (method: (path: string) => MethodDecorator, operation: MethodDecorator, ...types: unknown[]) =>
    applyDecorators(method(':id'), operation, TermIdParam(), ParameterTypes(Number, ...types), scopeOf(method));
  const BySlug = (method: (path: string) => MethodDecorator, operation: MethodDecorator, ...types: unknown[]) =>
    applyDecorators(method('by-slug/:slug'), operation, TermSlugParam(), ParameterTypes(String, ...types), scopeOf(method));

  class TermController {
    constructor(@Inject(routes.service) readonly service: TermsService<TermEntity, Create, ListQuery>) {}

    @Get()
    @RequireScope('events:read')
    @HttpCode(200)
    @PublicRead(kind)
    @TermListDocs(kind, listResponse)
    @ParameterTypes(listQuery, Object, Object)
    async list(
      @Query() query: ListQuery,
      @RequestContext() context: RequestContext,
      @Res({ passthrough: true }) httpResponse: HttpResponse,
    ): Promise<TermListResponse> {
      const page = await this.service.list(query);
      setTotalHeaders(httpResponse, 'events', page.total, page.totalPages);
      return toTermListResponse(page, kind, context);
    }

    @Post()
    @RequireScope('events:write')
    @TermWrite(TermCreateDocs(kind, response), 201)
    @ParameterTypes(createBody, Object, Object)
    async create(
      @Body() dto: Create,
      @RequestContext() context: RequestContext,
      @Res({ passthrough: true }) httpResponse: HttpResponse,
    ): Promise<TermResponse> {
      const { term, count } = await this.service.create(dto);
      const body = toTermResponse(term, kind, count, context);
      httpResponse.setHeader('Location', body.urls.self);
      return body;
    }

    @ById(Get, TermRead(TermReadDocs(kind, response)), Object)
    @PublicRead(kind)
    async get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.get({ id }), context);
    }

    @ById(Post, TermWrite(TermUpdateDocs(kind, response)), updateBody, Object)
    async updateByPost(@Param('id', RouteIdPipe) id: number, @Body() dto: Update, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.update({ id }, dto), context);
    }

    @ById(Put, TermWrite(TermUpdateDocs(kind, response)), updateBody, Object)
    async updateByPut(@Param('id', RouteIdPipe) id: number, @Body() dto: Update, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.update({ id }, dto), context);
    }

    @ById(Patch, TermWrite(TermUpdateDocs(kind, response)), updateBody, Object)
    async updateByPatch(@Param('id', RouteIdPipe) id: number, @Body() dto: Update, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.update({ id }, dto), context);
    }

    @ById(Delete, TermWrite(TermDeleteDocs(kind, response)), Object)
    async remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.remove({ id }), context);
    }

    @BySlug(Get, TermRead(TermReadDocs(kind, response)), Object)
    @PublicRead(kind)
    async getBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<TermResponse> {
      return this.respond(await this.service.get({ slug }), context);
    }

    @BySlug(Post, TermWrite(TermUpdateDocs(kind, response)), updateBody, Object)
    async updateBySlugByPost(@Param('slug') slug: string, @Body() dto: Update, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.update({ slug }, dto), context);
    }

    @BySlug(Put, TermWrite(TermUpdateDocs(kind, response)), updateBody, Object)
    async updateBySlugByPut(@Param('slug') slug: string, @Body() dto: Update, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.update({ slug }, dto), context);
    }

    @BySlug(Patch, TermWrite(TermUpdateDocs(kind, response)), updateBody, Object)
    async updateBySlugByPatch(@Param('slug') slug: string, @Body() dto: Update, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.update({ slug }, dto), context);
    }

    @BySlug(Delete, TermWrite(TermDeleteDocs(kind, response)), Object)
    async removeBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext) {
      return this.respond(await this.service.remove({ slug }), context);
    }

    private respond({ term, count }: { term: TermEntity; count: number }, context: RequestContext): TermResponse {
      return toTermResponse(term, kind, count, context);
    }
  }
  return TermController;
}
