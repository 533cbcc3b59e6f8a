import { applyDecorators, Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConflictResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { AttendeePage, AttendeesService } from './attendees.service';
import { AttendeeListResponse, AttendeeResponse, CheckinDetails } from './dto/attendee.response';
import { CheckInAttendeeDto } from './dto/check-in-attendee.dto';
import { ListAttendeesQuery } from './dto/list-attendees.query';
import { RequireScope } from '../auth/scope-decorators';

const ID_PARAM = ApiParam({ name: 'id', description: 'Attendee id', schema: { type: 'integer' } });

/** The documentation and rules shared by the POST, PUT and PATCH check-in routes. */
const CheckInDocs = () =>
  applyDecorators(
    HttpCode(200),
    // Authors and up may manage attendees (of their own events); the service checks the event.
    RequireCapability('publish_events', { forbidden: 'rest_forbidden: the caller does not manage the attendee’s event' }),
    ID_PARAM,
    ApiOperation({ summary: 'Check an attendee in (check_in: true) or undo it (check_in: false); managers of the event only' }),
    ApiOkResponse({ type: AttendeeResponse, description: 'The attendee with checked_in and checkin_details (source site)' }),
    ApiBadRequestResponse({ description: 'rest_missing_callback_param (check_in) or rest_invalid_param' }),
    ApiNotFoundResponse({ description: 'attendee-not-found' }),
    ApiConflictResponse({ description: 'attendee-already-checked-in, or attendee-invalid-check-in (order not completed, RSVP not going)' }),
  );

@ApiTags('tickets')
@ApiExtraModels(CheckinDetails)
@Controller('tickets/v1/attendees')
export class AttendeesController {
  constructor(private readonly attendees: AttendeesService) {}

  @Get()
  @RequireScope('attendees:read')
  @HttpCode(200)
  @ApiBasicAuth('basic')
  @ApiOperation({
    summary: 'List attendees',
    description:
      'Managers of an event (editors, administrators, its author) see all its attendees with every field; everyone else sees attendees of published events that show their list, who did not opt out, going (RSVP) and with completed orders, with public fields only.',
  })
  @ApiOkResponse({ type: AttendeeListResponse, description: 'Headers X-ET-TOTAL and X-ET-TOTAL-PAGES carry the totals' })
  @ApiBadRequestResponse({
    description: 'rest_invalid_param naming the parameter (unknown event or ticket ids included), or invalid-page-number',
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password' })
  async list(
    @Query() query: ListAttendeesQuery,
    @Res({ passthrough: true }) response: Response,
    @RequestContext() context: RequestContext,
  ): Promise<AttendeePage> {
    const page = await this.attendees.list(query, context);
    setTotalHeaders(response, 'tickets', page.total, page.total_pages);
    return page;
  }

  @Get(':id')
  @RequireScope('attendees:read')
  @HttpCode(200)
  @ApiBasicAuth('basic')
  @ID_PARAM
  @ApiOperation({ summary: 'Read an attendee (all fields for managers of its event, public fields for others when public)' })
  @ApiOkResponse({ type: AttendeeResponse })
  @ApiUnauthorizedResponse({ description: 'attendee-not-accessible: not public and not managed by the caller; or incorrect_password' })
  @ApiNotFoundResponse({ description: 'attendee-not-found' })
  get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<AttendeeResponse> {
    return this.attendees.get(id, context);
  }

  @Post(':id')
  @RequireScope('checkin:write')
  @CheckInDocs()
  checkInWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: CheckInAttendeeDto,
    @RequestContext() context: SignedInContext,
  ): Promise<AttendeeResponse> {
    return this.attendees.setCheckIn(id, body.check_in, context.user, context);
  }

  @Put(':id')
  @RequireScope('checkin:write')
  @CheckInDocs()
  checkInWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: CheckInAttendeeDto,
    @RequestContext() context: SignedInContext,
  ): Promise<AttendeeResponse> {
    return this.attendees.setCheckIn(id, body.check_in, context.user, context);
  }

  @Patch(':id')
  @RequireScope('checkin:write')
  @CheckInDocs()
  checkInWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: CheckInAttendeeDto,
    @RequestContext() context: SignedInContext,
  ): Promise<AttendeeResponse> {
    return this.attendees.setCheckIn(id, body.check_in, context.user, context);
  }
}
