import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import { AnnulService } from './annul.service';
import { Door, DoorRoute } from './door-route';
import { DoorService } from './door.service';
import { AnnulResponse, DoorAttendeeResponse, HistoryPage, RedeemResponse, SearchResponse } from './dto/checkin.response';
import { AnnulDto, HistoryQuery, RedeemDto, SearchQuery, UpdateDoorAttendeeDto } from './dto/door.dto';
import { RedeemService } from './redeem.service';
import type { DoorCaller } from './door-route';
import { RequireScope } from '../auth/scope-decorators';

const MANAGERS = { forbidden: 'rest_forbidden: the caller does not manage the event' };

@ApiTags('tickets')
@Controller('tickets/v1')
export class DoorController {
  constructor(
    private readonly redeems: RedeemService,
    private readonly annulments: AnnulService,
    private readonly door: DoorService,
  ) {}

  @Post('checkin/redeem')
  @RequireScope('checkin:write')
  @HttpCode(201)
  @DoorRoute()
  @ApiOperation({
    summary: 'Redeem a ticket’s secret at the door (entry or exit); refusals carry status "error" and a reason (docs/checkin.md)',
  })
  @ApiCreatedResponse({ type: RedeemResponse, description: '{status: "ok", attendee, checkin}' })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param or rest_invalid_param naming the field' })
  @ApiNotFoundResponse({ description: 'checkin-invalid (reason invalid): no attendee of the lists’ events holds the secret' })
  @ApiConflictResponse({
    description:
      'checkin-unpaid, checkin-canceled, checkin-already-redeemed (data.last), checkin-product, checkin-invalid-time, checkin-revoked, checkin-ambiguous, checkin-blocked (all but the last two name the attendee in data.attendee); nonce-reused: the nonce was sent before with another request',
  })
  redeem(@Body() body: RedeemDto, @Door() caller: DoorCaller, @RequestContext() context: RequestContext): Promise<RedeemResponse> {
    return this.redeems.redeem(body, caller, context);
  }

  @Post('checkin/annul')
  @RequireScope('checkin:write')
  @HttpCode(200)
  @DoorRoute()
  @ApiOperation({
    summary:
      'Annul a scan (by its nonce or id) within CHECKIN_ANNUL_MINUTES: it stays in the history, marked annulled, and no longer counts; the ticket can enter again',
  })
  @ApiOkResponse({ type: AnnulResponse, description: '{status: "ok", checkin (annulled: true), attendee}' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param: exactly one of nonce and checkin_id' })
  @ApiForbiddenResponse({
    type: ApiErrorResponse,
    description: "checkin-annul-forbidden: another device's scan, or a list the caller may not use",
  })
  @ApiNotFoundResponse({ description: 'checkin-not-found: no check-in with this id, or with this nonce of the caller' })
  @ApiConflictResponse({ description: 'checkin-already-annulled, checkin-not-annullable (a refused scan), checkin-annul-expired' })
  annul(@Body() body: AnnulDto, @Door() caller: DoorCaller): Promise<AnnulResponse> {
    return this.annulments.annul(body, caller);
  }

  @Get('checkin/search')
  @RequireScope('checkin:read')
  @HttpCode(200)
  @DoorRoute()
  @ApiOperation({
    summary:
      'Find holders of the tickets a list admits by name, email or the start of a secret (at least 3 characters), or by order number (any digits); 20 results',
  })
  @ApiOkResponse({ type: SearchResponse })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param or rest_invalid_param (list, search)' })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  search(@Query() query: SearchQuery, @Door() caller: DoorCaller): Promise<SearchResponse> {
    return this.door.search(query, caller);
  }

  @Get('checkins')
  @RequireScope('checkin:read')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({ summary: 'The check-in history, newest first: every scan with its time, gate, type, result and reason' })
  @ApiOkResponse({ type: HistoryPage })
  @ApiBadRequestResponse({
    description: 'rest_invalid_param (list, post_id, device, gate, successful, annulled, page, per_page) or invalid-page-number',
  })
  history(@Query() query: HistoryQuery, @RequestContext() context: SignedInContext): Promise<HistoryPage> {
    return this.door.history(query, context.user);
  }

  @Patch('checkin/attendees/:id')
  @RequireScope('checkin:write')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ApiParam({ name: 'id', description: 'Attendee id', schema: { type: 'integer' } })
  @ApiOperation({ summary: 'Block or unblock an attendee at the door, or replace their check-in secret' })
  @ApiOkResponse({ type: DoorAttendeeResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (blocked, reissue_secret)' })
  @ApiNotFoundResponse({ description: 'attendee-not-found' })
  updateAttendee(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateDoorAttendeeDto,
    @RequestContext() context: SignedInContext,
  ): Promise<DoorAttendeeResponse> {
    return this.door.updateAttendee(id, body, context.user);
  }
}
