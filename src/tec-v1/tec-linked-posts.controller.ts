import { Body, Delete, Get, Inject, Param, Patch, Post, Put, Query, Req, Res, Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { BesideNamespaces } from '../common/http/api-root-mount';
import { readForceFlag, RouteIdPipe } from '../common/http/route-params';
import type { LinkedPostListQuery } from '../linked-posts/linked-post-resource';
import { LinkedPostListQueryDto } from '../linked-posts/linked-post-list.query';
import { CreateOrganizerDto } from '../organizers/dto/create-organizer.dto';
import { UpdateOrganizerDto } from '../organizers/dto/update-organizer.dto';
import { CreateVenueDto } from '../venues/dto/create-venue.dto';
import { UpdateVenueDto } from '../venues/dto/update-venue.dto';
import { TecOrganizerResponse, TecVenueResponse } from './dto/tec-post.response';
import { TecOrganizerRequest, TecVenueRequest } from './dto/tec-requests.docs';
import { CreateDocs, DeleteDocs, ListDocs, QueryParameter, ReadDocs, TecResource, UpdateDocs } from './tec-docs';
import { TecInputPipe, TecTranslation, Translated } from './tec-input.pipe';
import { TecOrganizersService, TecVenuesService } from './tec-linked-posts.service';
import { setWpListHeaders } from './tec-list-headers';
import { createOrganizerBody, createVenueBody, linkedPostsQuery, updateOrganizerBody, updateVenueBody } from './tec-requests';
import type { TecPage } from './tec-responses';
import { RequireScope } from '../auth/scope-decorators';

const LINKED_POST_QUERY: QueryParameter[] = [
  ['search', 'string', 'Words to find'],
  ['event', 'integer', 'Only those of this event'],
  ['has_events', 'boolean', 'Only those with events (true) or without (false)'],
  ['only_with_upcoming', 'boolean', 'Only those with events not ended yet'],
  ['status', 'string', 'Statuses beyond publish: callers who may edit only'],
];

interface TecLinkedPostsPort<Entity> {
  list(query: LinkedPostListQuery, context: RequestContext): Promise<TecPage<Entity>>;
  get(id: number, context: RequestContext): Promise<Entity>;
  create(input: object, context: SignedInContext): Promise<Entity>;
  update(id: number, input: object, context: SignedInContext): Promise<Entity>;
  remove(id: number, force: boolean, context: SignedInContext): Promise<[]>;
}

/** The routes of tec/v1's venues or organizers, shaped alike (as the events namespace's createLinkedPostController). */
function createTecLinkedPostController<Entity>(definition: {
  noun: string;
  service: Type<TecLinkedPostsPort<Entity>>;
  response: Type<Entity>;
  request: Type<unknown>;
  createBody: [TecTranslation, Type<unknown>];
  updateBody: [TecTranslation, Type<unknown>];
}) {
  const { noun, response: responseType, request: requestType } = definition;
  class TecLinkedPostController {
    constructor(@Inject(definition.service) readonly service: TecLinkedPostsPort<Entity>) {}

    @Get()
    @RequireScope('events:read')
    @ListDocs(noun, responseType, LINKED_POST_QUERY)
    async list(
      @Query(new TecInputPipe(linkedPostsQuery, LinkedPostListQueryDto)) query: Translated<LinkedPostListQuery>,
      @Req() request: Request,
      @Res({ passthrough: true }) response: Response,
      @RequestContext() context: RequestContext,
    ): Promise<Entity[]> {
      const page = await this.service.list(query, context);
      setWpListHeaders(response, request, context, page);
      return page.items;
    }

    @Post()
    @RequireScope('events:write')
    @CreateDocs(noun, 'edit_events', requestType, responseType)
    create(
      @Body(new TecInputPipe(...definition.createBody)) body: Translated<object>,
      @RequestContext() context: SignedInContext,
    ): Promise<Entity> {
      return this.service.create(body, context);
    }

    @Get(':id')
    @RequireScope('events:read')
    @ReadDocs(noun, responseType)
    get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<Entity> {
      return this.service.get(id, context);
    }

    @Put(':id')
    @RequireScope('events:write')
    @UpdateDocs(noun, 'edit_events', requestType, responseType)
    replace(
      @Param('id', RouteIdPipe) id: number,
      @Body(new TecInputPipe(...definition.updateBody)) body: Translated<object>,
      @RequestContext() context: SignedInContext,
    ): Promise<Entity> {
      return this.service.update(id, body, context);
    }

    @Patch(':id')
    @RequireScope('events:write')
    @UpdateDocs(noun, 'edit_events', requestType, responseType)
    update(
      @Param('id', RouteIdPipe) id: number,
      @Body(new TecInputPipe(...definition.updateBody)) body: Translated<object>,
      @RequestContext() context: SignedInContext,
    ): Promise<Entity> {
      return this.service.update(id, body, context);
    }

    @Delete(':id')
    @RequireScope('events:write')
    @DeleteDocs(noun, true)
    remove(@Param('id', RouteIdPipe) id: number, @Query('force') force: unknown, @RequestContext() context: SignedInContext): Promise<[]> {
      return this.service.remove(id, readForceFlag(force), context);
    }
  }
  return TecLinkedPostController;
}

@TecResource()
@BesideNamespaces('tec/v1/venues')
export class TecVenuesController extends createTecLinkedPostController<TecVenueResponse>({
  noun: 'venue',
  service: TecVenuesService,
  response: TecVenueResponse,
  request: TecVenueRequest,
  createBody: [createVenueBody, CreateVenueDto],
  updateBody: [updateVenueBody, UpdateVenueDto],
}) {}

@TecResource()
@BesideNamespaces('tec/v1/organizers')
export class TecOrganizersController extends createTecLinkedPostController<TecOrganizerResponse>({
  noun: 'organizer',
  service: TecOrganizersService,
  response: TecOrganizerResponse,
  request: TecOrganizerRequest,
  createBody: [createOrganizerBody, CreateOrganizerDto],
  updateBody: [updateOrganizerBody, UpdateOrganizerDto],
}) {}
