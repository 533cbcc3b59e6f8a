import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { CheckinListsService } from './checkin-lists.service';
import { Door, DoorRoute } from './door-route';
import { CheckinListPage, CheckinListResponse, ListStatusResponse, SyncResponse } from './dto/checkin.response';
import { CreateCheckinListDto, ListCheckinListsQuery, UpdateCheckinListDto } from './dto/checkin-list.dto';
import { SyncQuery } from './dto/door.dto';
import { SyncService } from './sync.service';
import type { DoorCaller } from './door-route';
import { RequireScope } from '../auth/scope-decorators';

const ID_PARAM = ApiParam({ name: 'id', description: 'Check-in list id', schema: { type: 'integer' } });
const MANAGERS = { forbidden: 'rest_forbidden: the caller does not manage the event' };

@ApiTags('tickets')
@Controller('tickets/v1/checkin-lists')
export class CheckinListsController {
  constructor(
    private readonly lists: CheckinListsService,
    private readonly syncs: SyncService,
  ) {}

  @Post()
  @RequireScope('checkin:write')
  @HttpCode(201)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({ summary: 'Create a check-in list for an event; managers of the event only' })
  @ApiCreatedResponse({ type: CheckinListResponse, description: 'The list; Location names it' })
  @ApiBadRequestResponse({
    description: 'rest_missing_callback_param or rest_invalid_param naming the field (unknown event or tickets included)',
  })
  async create(
    @Body() body: CreateCheckinListDto,
    @Res({ passthrough: true }) response: Response,
    @RequestContext() context: SignedInContext,
  ): Promise<CheckinListResponse> {
    const list = await this.lists.create(body, context.user, context);
    response.setHeader('Location', context.namespaceUrl('tickets', `checkin-lists/${list.id}`));
    return list;
  }

  @Get()
  @RequireScope('checkin:read')
  @HttpCode(200)
  @DoorRoute()
  @ApiOperation({
    summary:
      'List check-in lists: a device its own, door staff and editors all, authors their events’; post_id creates the event’s default list',
  })
  @ApiOkResponse({ type: CheckinListPage })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (post_id)' })
  list(@Query() query: ListCheckinListsQuery, @Door() caller: DoorCaller): Promise<CheckinListPage> {
    return this.lists.list(query, caller);
  }

  @Get(':id')
  @RequireScope('checkin:read')
  @HttpCode(200)
  @DoorRoute()
  @ID_PARAM
  @ApiOperation({ summary: 'Read a check-in list with its counts' })
  @ApiOkResponse({ type: CheckinListResponse })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  get(@Param('id', RouteIdPipe) id: number, @Door() caller: DoorCaller): Promise<CheckinListResponse> {
    return this.lists.get(id, caller);
  }

  @Patch(':id')
  @RequireScope('checkin:write')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ID_PARAM
  @ApiOperation({ summary: 'Update a check-in list; fields left out keep their values' })
  @ApiOkResponse({ type: CheckinListResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param naming the field' })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateCheckinListDto,
    @RequestContext() context: SignedInContext,
  ): Promise<CheckinListResponse> {
    return this.lists.update(id, body, context.user, context);
  }

  @Delete(':id')
  @RequireScope('checkin:write')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ID_PARAM
  @ApiOperation({ summary: 'Delete a check-in list without check-ins (not the default list)' })
  @ApiOkResponse({ type: CheckinListResponse, description: 'The deleted list' })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  @ApiConflictResponse({ description: 'checkin-list-is-default or checkin-list-has-checkins' })
  remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<CheckinListResponse> {
    return this.lists.remove(id, context.user);
  }

  @Get(':id/status')
  @RequireScope('checkin:read')
  @HttpCode(200)
  @DoorRoute()
  @ID_PARAM
  @ApiOperation({ summary: 'The list’s counts per ticket' })
  @ApiOkResponse({ type: ListStatusResponse })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  status(@Param('id', RouteIdPipe) id: number, @Door() caller: DoorCaller): Promise<ListStatusResponse> {
    return this.lists.status(id, caller);
  }

  @Get(':id/sync')
  @RequireScope('checkin:read')
  @HttpCode(200)
  @DoorRoute()
  @ID_PARAM
  @ApiOperation({
    summary: 'Offline data of the list since a cursor: encrypted attendee records, revoked indexes, settings (docs/checkin.md)',
  })
  @ApiOkResponse({ type: SyncResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (cursor, limit)' })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  sync(@Param('id', RouteIdPipe) id: number, @Query() query: SyncQuery, @Door() caller: DoorCaller): Promise<SyncResponse> {
    return this.syncs.sync(id, query, caller);
  }
}
