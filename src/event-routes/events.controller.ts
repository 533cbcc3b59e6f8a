import { applyDecorators, Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { readForceFlag, RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CreateEventDto } from '../events/dto/create-event.dto';
import { EventListResponse, EventResponse } from '../events/dto/event.response';
import { ListEventsQuery } from '../events/dto/list-events.query';
import { UpdateEventDto } from '../events/dto/update-event.dto';
import { eventListJson } from '../events/events.mapper';
import { EventReads } from '../catalogue/event-reads.service';
import { EventWrites } from './event-writes';
import { JsonText } from '../common/http/json-text';
import { PublicRead } from '../common/http/http-caching';
import { RequireScope } from '../auth/scope-decorators';

/** On an occurrence of a series: which occurrences a write applies to (docs/recurring-events.md). */
const SCOPE_QUERY = ApiQuery({
  name: 'scope',
  required: false,
  enum: ['this', 'following', 'all'],
  description:
    'Occurrences of a series only. this (default): this occurrence alone (an update detaches it); following: this one and later ones ' +
    '(an update splits the series); all: the whole series. 409 series-occurrences-have-attendees when occurrences with attendees would move or go.',
});
const ID_PARAM = ApiParam({ name: 'id', description: 'Event id', schema: { type: 'integer' } });
const SLUG_PARAM = ApiParam({ name: 'slug', description: 'Event slug', schema: { type: 'string' } });
/** The documentation and rules shared by the POST, PUT and PATCH update routes. */
const EventUpdateDocs = (pathParameter: MethodDecorator) =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('edit_events', { forbidden: 'rest_forbidden: not allowed to edit this event, or to name another author' }),
    pathParameter,
    SCOPE_QUERY,
    ApiOperation({ summary: 'Update an event; fields left out keep their values (POST, PUT and PATCH alike)' }),
    ApiOkResponse({ type: EventResponse }),
    ApiBadRequestResponse({ description: 'rest_invalid_param naming the field' }),
    ApiNotFoundResponse({ description: 'rest-event-not-found' }),
    ApiConflictResponse({
      description: 'series-occurrences-have-attendees: occurrences with attendees would move or be deleted (data.occurrences lists them)',
    }),
  );

const FORCE_QUERY = ApiQuery({
  name: 'force',
  required: false,
  description: 'true deletes for good instead of trashing',
  schema: { type: 'boolean' },
});

@ApiTags('events')
@Controller('events/v1/events')
export class EventsController {
  constructor(
    private readonly reads: EventReads,
    private readonly writes: EventWrites,
  ) {}

  @Get()
  @RequireScope('events:read')
  @HttpCode(200)
  @PublicRead('event')
  @ApiOperation({ summary: 'List events (published and upcoming by default, ordered by start)' })
  @ApiOkResponse({ type: EventListResponse, description: 'Headers X-TEC-Total and X-TEC-TotalPages carry the totals' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param naming the parameter' })
  @ApiNotFoundResponse({ description: 'event-archive-page-not-found: a page past the last' })
  async list(@Query() query: ListEventsQuery, @Res({ passthrough: true }) response: Response, @RequestContext() context: RequestContext) {
    const page = await this.reads.list(query, context);
    setTotalHeaders(response, 'events', page.total, page.totalPages);
    return eventListJson(page);
  }

  @Post()
  @RequireScope('events:write')
  @HttpCode(201)
  @RequireCapability('edit_events', { forbidden: 'rest_forbidden: the role cannot create events' })
  @ApiOperation({ summary: 'Create an event' })
  @ApiCreatedResponse({ type: EventResponse, description: 'The event; Location names it' })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param (title, start_date, end_date) or rest_invalid_param' })
  async create(@Body() body: CreateEventDto, @RequestContext() context: SignedInContext, @Res({ passthrough: true }) response: Response) {
    const event = await this.writes.create(body, context.user, context);
    response.setHeader('Location', event.rest_url);
    return event;
  }

  @Get(':id')
  @RequireScope('events:read')
  @HttpCode(200)
  @PublicRead('event')
  @ID_PARAM
  @ApiOperation({ summary: 'Read an event (with json_ld)' })
  @ApiOkResponse({ type: EventResponse })
  @ApiForbiddenResponse({ description: 'event-not-accessible (not published) or event-no-longer-available (trashed)' })
  @ApiNotFoundResponse({ description: 'rest-event-not-found' })
  get(
    @Param('id', RouteIdPipe) id: number,
    @RequestContext() context: RequestContext,
    @Headers('if-none-match') ifNoneMatch?: string,
  ): Promise<JsonText> {
    return this.reads.get({ id }, context, ifNoneMatch !== undefined);
  }

  @Get('by-slug/:slug')
  @RequireScope('events:read')
  @HttpCode(200)
  @PublicRead('event')
  @SLUG_PARAM
  @ApiOperation({ summary: 'Read an event by slug (with json_ld)' })
  @ApiOkResponse({ type: EventResponse })
  @ApiForbiddenResponse({ description: 'event-not-accessible or event-no-longer-available' })
  @ApiNotFoundResponse({ description: 'rest-event-not-found' })
  getBySlug(
    @Param('slug') slug: string,
    @RequestContext() context: RequestContext,
    @Headers('if-none-match') ifNoneMatch?: string,
  ): Promise<JsonText> {
    return this.reads.get({ slug }, context, ifNoneMatch !== undefined);
  }

  @Post(':id')
  @RequireScope('events:write')
  @EventUpdateDocs(ID_PARAM)
  updateWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateEventDto,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ) {
    return this.writes.update({ id }, body, context.user, context, scope);
  }

  @Put(':id')
  @RequireScope('events:write')
  @EventUpdateDocs(ID_PARAM)
  updateWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateEventDto,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ) {
    return this.writes.update({ id }, body, context.user, context, scope);
  }

  @Patch(':id')
  @RequireScope('events:write')
  @EventUpdateDocs(ID_PARAM)
  updateWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateEventDto,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ) {
    return this.writes.update({ id }, body, context.user, context, scope);
  }

  @Post('by-slug/:slug')
  @RequireScope('events:write')
  @EventUpdateDocs(SLUG_PARAM)
  updateBySlugWithPost(
    @Param('slug') slug: string,
    @Body() body: UpdateEventDto,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ) {
    return this.writes.update({ slug }, body, context.user, context, scope);
  }

  @Put('by-slug/:slug')
  @RequireScope('events:write')
  @EventUpdateDocs(SLUG_PARAM)
  updateBySlugWithPut(
    @Param('slug') slug: string,
    @Body() body: UpdateEventDto,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ) {
    return this.writes.update({ slug }, body, context.user, context, scope);
  }

  @Patch('by-slug/:slug')
  @RequireScope('events:write')
  @EventUpdateDocs(SLUG_PARAM)
  updateBySlugWithPatch(
    @Param('slug') slug: string,
    @Body() body: UpdateEventDto,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ) {
    return this.writes.update({ slug }, body, context.user, context, scope);
  }

  @Delete(':id')
  @RequireScope('events:write')
  @HttpCode(200)
  @RequireCapability('delete_events', { unauthorized: 'rest_forbidden (anonymous)', forbidden: 'rest_forbidden' })
  @ID_PARAM
  @FORCE_QUERY
  @SCOPE_QUERY
  @ApiOperation({ summary: 'Trash an event, or delete it for good with force=true' })
  @ApiOkResponse({ type: EventResponse, description: 'The event as deleted' })
  @ApiNotFoundResponse({ description: 'rest-event-not-found' })
  @ApiGoneResponse({ description: 'event-is-in-trash: already trashed (use force=true)' })
  @ApiConflictResponse({
    description: 'has-attendees: a forced delete of an event with attendees; series-occurrences-have-attendees (scope following or all)',
  })
  remove(
    @Param('id', RouteIdPipe) id: number,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ): Promise<EventResponse> {
    return this.writes.remove({ id }, readForceFlag(force), context.user, context, scope);
  }

  @Delete('by-slug/:slug')
  @RequireScope('events:write')
  @HttpCode(200)
  @RequireCapability('delete_events', { unauthorized: 'rest_forbidden (anonymous)', forbidden: 'rest_forbidden' })
  @SLUG_PARAM
  @FORCE_QUERY
  @SCOPE_QUERY
  @ApiOperation({ summary: 'Trash or delete an event by slug' })
  @ApiOkResponse({ type: EventResponse })
  @ApiNotFoundResponse({ description: 'rest-event-not-found' })
  @ApiGoneResponse({ description: 'event-is-in-trash' })
  @ApiConflictResponse({ description: 'has-attendees; series-occurrences-have-attendees' })
  removeBySlug(
    @Param('slug') slug: string,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
    @Query('scope') scope?: unknown,
  ): Promise<EventResponse> {
    return this.writes.remove({ slug }, readForceFlag(force), context.user, context, scope);
  }
}
