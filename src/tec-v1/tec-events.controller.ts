import { Body, Delete, Get, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { BesideNamespaces } from '../common/http/api-root-mount';
import { readForceFlag, RouteIdPipe } from '../common/http/route-params';
import { CreateEventDto } from '../events/dto/create-event.dto';
import { ListEventsQuery } from '../events/dto/list-events.query';
import { UpdateEventDto } from '../events/dto/update-event.dto';
import { TecEventListExtrasQuery } from './dto/tec-event-list-extras.query';
import { TecEventResponse } from './dto/tec-post.response';
import { TecEventRequest } from './dto/tec-requests.docs';
import { CreateDocs, DeleteDocs, ListDocs, ReadDocs, TecResource, UpdateDocs } from './tec-docs';
import { TecEventsService } from './tec-events.service';
import { TecInputPipe } from './tec-input.pipe';
import type { Translated } from './tec-input.pipe';
import { setWpListHeaders } from './tec-list-headers';
import { createEventBody, eventsQuery, updateEventBody } from './tec-requests';
import { RequireScope } from '../auth/scope-decorators';

@TecResource()
@BesideNamespaces('tec/v1/events')
export class TecEventsController {
  constructor(private readonly events: TecEventsService) {}

  @Get()
  @RequireScope('events:read')
  @ListDocs('event', TecEventResponse, [
    ['start_date', 'string', 'Events ending on or after this date (no bound by default)'],
    ['end_date', 'string', 'Events starting on or before this date (no bound by default)'],
    ['search', 'string', 'Words to find'],
    ['categories', 'array', 'Event category ids or slugs'],
    ['tags', 'array', 'Tag ids or slugs'],
    ['venue', 'array', 'Venue ids'],
    ['organizer', 'array', 'Organizer ids'],
    ['featured', 'boolean', 'Featured events only (true) or the others (false)'],
    ['status', 'string', 'Statuses beyond publish: callers who may edit events only'],
    ['post_parent', 'integer', 'Children of this event'],
  ])
  async list(
    @Query(new TecInputPipe(eventsQuery, ListEventsQuery)) query: Translated<ListEventsQuery>,
    @Query() extras: TecEventListExtrasQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @RequestContext() context: RequestContext,
  ): Promise<TecEventResponse[]> {
    const page = await this.events.list(query, extras, context);
    setWpListHeaders(response, request, context, page);
    return page.items;
  }

  @Post()
  @RequireScope('events:write')
  @CreateDocs('event', 'edit_events', TecEventRequest, TecEventResponse)
  create(
    @Body(new TecInputPipe(createEventBody, CreateEventDto)) body: Translated<CreateEventDto>,
    @RequestContext() context: SignedInContext,
  ): Promise<TecEventResponse> {
    return this.events.create(body, context);
  }

  @Get(':id')
  @RequireScope('events:read')
  @ReadDocs('event', TecEventResponse)
  get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<TecEventResponse> {
    return this.events.get(id, context);
  }

  @Put(':id')
  @RequireScope('events:write')
  @UpdateDocs('event', 'edit_events', TecEventRequest, TecEventResponse)
  replace(
    @Param('id', RouteIdPipe) id: number,
    @Body(new TecInputPipe(updateEventBody, UpdateEventDto)) body: Translated<UpdateEventDto>,
    @RequestContext() context: SignedInContext,
  ): Promise<TecEventResponse> {
    return this.events.update(id, body, context);
  }

  @Patch(':id')
  @RequireScope('events:write')
  @UpdateDocs('event', 'edit_events', TecEventRequest, TecEventResponse)
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body(new TecInputPipe(updateEventBody, UpdateEventDto)) body: Translated<UpdateEventDto>,
    @RequestContext() context: SignedInContext,
  ): Promise<TecEventResponse> {
    return this.events.update(id, body, context);
  }

  @Delete(':id')
  @RequireScope('events:write')
  @DeleteDocs('event', true)
  remove(@Param('id', RouteIdPipe) id: number, @Query('force') force: unknown, @RequestContext() context: SignedInContext): Promise<[]> {
    return this.events.remove(id, readForceFlag(force), context);
  }
}
