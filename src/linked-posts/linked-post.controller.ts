import { applyDecorators, Body, Delete, Get, Inject, Param, Patch, Post, Put, Query, Res, Type } from '@nestjs/common';
import type { Response as HttpResponse } from 'express';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { ParameterTypes } from '../common/http/parameter-types';
import { readForceFlag, RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import type { PostEntity } from '../posts/post.entity-base';
import {
  LinkedPostCreateDocs,
  LinkedPostDeleteDocs,
  LinkedPostIdParam,
  LinkedPostKind,
  LinkedPostListDocs,
  LinkedPostReadDocs,
  LinkedPostSlugParam,
  LinkedPostUpdateDocs,
} from './linked-post-docs';
import type { LinkedPostFieldsDto } from './linked-post-fields.dto';
import type { LinkedPostListQuery } from './linked-post-resource';
import { LinkedPostListPage, LinkedPostsService } from './linked-posts.service';
import { PublicRead } from '../common/http/http-caching';
import { RequireScope } from '../auth/scope-decorators';

/** Reads need `events:read`, writes `events:write` (venues and organizers are part of the events namespace). */
const scopeOf = (method: (path: string) => MethodDecorator) => RequireScope(method === Get ? 'events:read' : 'events:write');

/** What makes the venue routes venue routes; see `createLinkedPostController`. */
export interface LinkedPostRoutes<Input extends LinkedPostFieldsDto, Response, Collection extends string> extends LinkedPostKind {
  /** The service the handlers call, injected by its class. */
  service: Type<LinkedPostsService<PostEntity, Input, Response, Collection>>;
  /** The classes the validation pipe builds and the OpenAPI document shows. */
  listQuery: Type<LinkedPostListQuery>;
  createBody: Type<Input>;
  updateBody: Type<Partial<Input>>;
}

/**
 * The routes venues and organizers share (list, create, and read, update with POST, PUT or PATCH,
 * and delete by id or by slug), as one controller class to extend:
 *
 *     @ApiTags('events')
 *     @Controller('events/v1/venues')
 *     export class VenuesController extends createLinkedPostController({ noun: 'venue', ... }) {}
 *
 * The subclass's name makes the OpenAPI operation ids (`venues_findById`). Routes are registered
 * in the order of the methods here: the by-slug routes before the id routes.
 */
export function createLinkedPostController<Input extends LinkedPostFieldsDto, Output extends { id: number }, Collection extends string>(
  routes: LinkedPostRoutes<Input, Output, Collection>,
) {
  const { noun, listQuery, createBody, updateBody } = routes;
  type Page = LinkedPostListPage<Collection, Output>;
  type Update = Partial<Input>;

  /**
   * A route on `by-slug/:slug` or `:id`: its HTTP method, its OpenAPI operation and access rule,
   * the path parameter, and the classes of the handler's other parameters.
   */
  const BySlug = (method: (path: string) => MethodDecorator, docs: MethodDecorator, ...types: unknown[]) =>
    applyDecorators(ParameterTypes(String, ...types), LinkedPostSlugParam(noun), docs, scopeOf(method), method('by-slug/:slug'));
  const ById = (method: (path: string) => MethodDecorator, docs: MethodDecorator, ...types: unknown[]) =>
    applyDecorators(ParameterTypes(Number, ...types), LinkedPostIdParam(noun), docs, scopeOf(method), method(':id'));

  class LinkedPostController {
    constructor(@Inject(routes.service) readonly service: LinkedPostsService<PostEntity, Input, Output, Collection>) {}

    @Get()
    @RequireScope('events:read')
    @PublicRead(noun)
    @LinkedPostListDocs(routes)
    @ParameterTypes(listQuery, Object, Object)
    async list(
      @Query() query: LinkedPostListQuery,
      @RequestContext() context: RequestContext,
      @Res({ passthrough: true }) response: HttpResponse,
    ): Promise<Page> {
      const page = await this.service.list(query, context);
      setTotalHeaders(response, 'events', page.total, page.total_pages);
      return page;
    }

    @Post()
    @RequireScope('events:write')
    @LinkedPostCreateDocs(routes)
    @ParameterTypes(createBody, Object, Object)
    async create(
      @Body() body: Input,
      @RequestContext() context: SignedInContext,
      @Res({ passthrough: true }) response: HttpResponse,
    ): Promise<Output> {
      const post = await this.service.create(body, context.user, context);
      response.setHeader('Location', context.namespaceUrl('events', `${noun}s/${post.id}`));
      return post;
    }

    @BySlug(Get, LinkedPostReadDocs(routes), Object)
    @PublicRead(noun)
    findBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<Output> {
      return this.service.findOne({ slug }, context);
    }

    @BySlug(Post, LinkedPostUpdateDocs(routes), updateBody, Object)
    updateBySlugWithPost(@Param('slug') slug: string, @Body() body: Update, @RequestContext() context: SignedInContext): Promise<Output> {
      return this.service.update({ slug }, body, context.user, context);
    }

    @BySlug(Put, LinkedPostUpdateDocs(routes), updateBody, Object)
    updateBySlugWithPut(@Param('slug') slug: string, @Body() body: Update, @RequestContext() context: SignedInContext): Promise<Output> {
      return this.service.update({ slug }, body, context.user, context);
    }

    @BySlug(Patch, LinkedPostUpdateDocs(routes), updateBody, Object)
    updateBySlugWithPatch(@Param('slug') slug: string, @Body() body: Update, @RequestContext() context: SignedInContext): Promise<Output> {
      return this.service.update({ slug }, body, context.user, context);
    }

    @BySlug(Delete, LinkedPostDeleteDocs(routes), Object, Object)
    removeBySlug(@Param('slug') slug: string, @Query('force') force: unknown, @RequestContext() context: SignedInContext): Promise<Output> {
      return this.service.remove({ slug }, readForceFlag(force), context.user, context);
    }

    @ById(Get, LinkedPostReadDocs(routes), Object)
    @PublicRead(noun)
    findById(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<Output> {
      return this.service.findOne({ id }, context);
    }

    @ById(Post, LinkedPostUpdateDocs(routes), updateBody, Object)
    updateWithPost(
      @Param('id', RouteIdPipe) id: number,
      @Body() body: Update,
      @RequestContext() context: SignedInContext,
    ): Promise<Output> {
      return this.service.update({ id }, body, context.user, context);
    }

    @ById(Put, LinkedPostUpdateDocs(routes), updateBody, Object)
    updateWithPut(@Param('id', RouteIdPipe) id: number, @Body() body: Update, @RequestContext() context: SignedInContext): Promise<Output> {
      return this.service.update({ id }, body, context.user, context);
    }

    @ById(Patch, LinkedPostUpdateDocs(routes), updateBody, Object)
    updateWithPatch(
      @Param('id', RouteIdPipe) id: number,
      @Body() body: Update,
      @RequestContext() context: SignedInContext,
    ): Promise<Output> {
      return this.service.update({ id }, body, context.user, context);
    }

    @ById(Delete, LinkedPostDeleteDocs(routes), Object, Object)
    remove(
      @Param('id', RouteIdPipe) id: number,
      @Query('force') force: unknown,
      @RequestContext() context: SignedInContext,
    ): Promise<Output> {
      return this.service.remove({ id }, readForceFlag(force), context.user, context);
    }
  }
  return LinkedPostController;
}
