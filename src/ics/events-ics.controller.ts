import { Controller, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
  OmitType,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { COSTLY_ROUTE_WEIGHT, CostlyRoute } from '../common/throttling/rate-limit.guard';
import { ListEventsQuery } from '../events/dto/list-events.query';
import { ICS_CONTENT_TYPE } from './event-calendar';
import { EventsIcsService, ICS_FEED_MAX_EVENTS, IcsFile } from './events-ics.service';
import { RequireScope } from '../auth/scope-decorators';

/** The list's filters; a feed is not paged. */
export class IcsFeedQuery extends OmitType(ListEventsQuery, ['page', 'per_page'] as const) {}

const CALENDAR_CONTENT = {
  'text/calendar': { schema: { type: 'string' as const, example: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…\r\nEND:VCALENDAR' } },
};

function send(response: Response, file: IcsFile, disposition: 'inline' | 'attachment'): string {
  response.setHeader('Content-Type', ICS_CONTENT_TYPE);
  response.setHeader('Content-Disposition', `${disposition}; filename="${file.filename}"`);
  return file.body;
}

/** The absolute URL of this request, query included, as the calendar's URL property. */
function selfUrl(context: RequestContext, response: Response, path: string): string {
  const { originalUrl } = response.req;
  const queryStart = originalUrl.indexOf('?');
  return context.namespaceUrl('events', path) + (queryStart >= 0 ? originalUrl.slice(queryStart) : '');
}

/**
 * iCalendar renderings of the events routes. Registered before EventsController so that
 * `events/ics` is not taken for an event id.
 */
@ApiTags('events')
@Controller('events/v1/events')
export class EventsIcsController {
  constructor(private readonly ics: EventsIcsService) {}

  @Get('ics')
  @RequireScope('events:read')
  @HttpCode(200)
  @CostlyRoute()
  @ApiProduces('text/calendar')
  @ApiOperation({
    summary: 'The events list as an iCalendar feed to subscribe to',
    description:
      `The filters, visibility and order of GET /events (published upcoming events by default). Not paged: the feed holds ` +
      `the first ${ICS_FEED_MAX_EVENTS} events, X-TEC-Total tells how many matched; narrow it with start_date and end_date. ` +
      'Timed events keep their time zone (TZID with a VTIMEZONE; UTC for manual offsets), all-day events are DATE values. ' +
      `A costly route: besides counting as a request, each caller may fetch it 1/${COSTLY_ROUTE_WEIGHT} of its request limit a minute (429 beyond).`,
  })
  @ApiOkResponse({
    description: 'text/calendar; charset=utf-8 (RFC 5545)',
    content: CALENDAR_CONTENT,
    headers: {
      'X-TEC-Total': { description: 'Events matching the filters, also those beyond the feed’s limit', schema: { type: 'integer' } },
    },
  })
  @ApiBadRequestResponse({ description: 'rest_invalid_param naming the parameter' })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  async feed(
    @Query() query: IcsFeedQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const file = await this.ics.feed(query, context, selfUrl(context, response, 'events/ics'));
    response.setHeader('X-TEC-Total', String(file.total));
    return send(response, file, 'inline');
  }

  @Get(':id/ics')
  @RequireScope('events:read')
  @HttpCode(200)
  @ApiParam({ name: 'id', description: 'Event id', schema: { type: 'integer' } })
  @ApiProduces('text/calendar')
  @ApiOperation({ summary: 'One event as an iCalendar file', description: 'Readable by whoever may read the event.' })
  @ApiOkResponse({
    description: 'text/calendar; charset=utf-8 (RFC 5545), as an attachment named after the slug',
    content: CALENDAR_CONTENT,
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @ApiForbiddenResponse({ description: 'event-not-accessible (not published) or event-no-longer-available (trashed)' })
  @ApiNotFoundResponse({ description: 'rest-event-not-found' })
  async single(
    @Param('id', RouteIdPipe) id: number,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const file = await this.ics.single(id, context, selfUrl(context, response, `events/${id}/ics`));
    return send(response, file, 'attachment');
  }
}
