import { Body, Delete, Get, Inject, Param, Patch, Post, Put, Query, Res, Type } from '@nestjs/common';
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
export function createLinkedPostController<Input extends LinkedPostFieldsDto, Response extends { id: number }, Collection extends string>(
  routes: LinkedPostRoutes<Input, Response, Collection>,
) {
  const { noun, listQuery, createBody, updateBody } = routes;
  type Page = LinkedPostListPage<Collection, Response>;

  class LinkedPostController {
    constructor(@Inject(routes.service) readonly service: LinkedPostsService<PostEntity, Input, Response, Collection>) {}

    @Get()
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
    @LinkedPostCreateDocs(routes)
    @ParameterTypes(createBody, Object, Object)
    async create(
      @Body() body: Input,
      @RequestContext() context: SignedInContext,
      @Res({ passthrough: true }) response: HttpResponse,
    ): Promise<Response> {
      const post = await this.service.create(body, context.user, context);
      response.setHeader('Location', context.namespaceUrl('events', `${noun}s/${post.id}`));
      return post;
    }

    @Get('by-slug/:slug')
    @LinkedPostReadDocs(routes)
    @LinkedPostSlugParam(noun)
    @ParameterTypes(String, Object)
    findBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<Response> {
      return this.service.findOne({ slug }, context);
    }

    @Post('by-slug/:slug')
    @LinkedPostUpdateDocs(routes)
    @LinkedPostSlugParam(noun)
    @ParameterTypes(String, updateBody, Object)
    updateBySlugWithPost(
      @Param('slug') slug: string,
      @Body() body: Partial<Input>,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.update({ slug }, body, context.user, context);
    }

    @Put('by-slug/:slug')
    @LinkedPostUpdateDocs(routes)
    @LinkedPostSlugParam(noun)
    @ParameterTypes(String, updateBody, Object)
    updateBySlugWithPut(
      @Param('slug') slug: string,
      @Body() body: Partial<Input>,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.update({ slug }, body, context.user, context);
    }

    @Patch('by-slug/:slug')
    @LinkedPostUpdateDocs(routes)
    @LinkedPostSlugParam(noun)
    @ParameterTypes(String, updateBody, Object)
    updateBySlugWithPatch(
      @Param('slug') slug: string,
      @Body() body: Partial<Input>,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.update({ slug }, body, context.user, context);
    }

    @Delete('by-slug/:slug')
    @LinkedPostDeleteDocs(routes)
    @LinkedPostSlugParam(noun)
    @ParameterTypes(String, Object, Object)
    removeBySlug(
      @Param('slug') slug: string,
      @Query('force') force: unknown,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.remove({ slug }, readForceFlag(force), context.user, context);
    }

    @Get(':id')
    @LinkedPostReadDocs(routes)
    @LinkedPostIdParam(noun)
    @ParameterTypes(Number, Object)
    findById(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<Response> {
      return this.service.findOne({ id }, context);
    }

    @Post(':id')
    @LinkedPostUpdateDocs(routes)
    @LinkedPostIdParam(noun)
    @ParameterTypes(Number, updateBody, Object)
    updateWithPost(
      @Param('id', RouteIdPipe) id: number,
      @Body() body: Partial<Input>,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.update({ id }, body, context.user, context);
    }

    @Put(':id')
    @LinkedPostUpdateDocs(routes)
    @LinkedPostIdParam(noun)
    @ParameterTypes(Number, updateBody, Object)
    updateWithPut(
      @Param('id', RouteIdPipe) id: number,
      @Body() body: Partial<Input>,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.update({ id }, body, context.user, context);
    }

    @Patch(':id')
    @LinkedPostUpdateDocs(routes)
    @LinkedPostIdParam(noun)
    @ParameterTypes(Number, updateBody, Object)
    updateWithPatch(
      @Param('id', RouteIdPipe) id: number,
      @Body() body: Partial<Input>,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.update({ id }, body, context.user, context);
    }

    @Delete(':id')
    @LinkedPostDeleteDocs(routes)
    @LinkedPostIdParam(noun)
    @ParameterTypes(Number, Object, Object)
    remove(
      @Param('id', RouteIdPipe) id: number,
      @Query('force') force: unknown,
      @RequestContext() context: SignedInContext,
    ): Promise<Response> {
      return this.service.remove({ id }, readForceFlag(force), context.user, context);
    }
  }
  return LinkedPostController;
}
