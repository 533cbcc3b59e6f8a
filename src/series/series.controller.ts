import { Controller, Get, HttpCode, Param, Res } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { ICS_CONTENT_TYPE } from '../ics/event-calendar';
import { SeriesCalendarService } from './series-calendar.service';
import { RequireScope } from '../auth/scope-decorators';

@ApiTags('events')
@Controller('events/v1/series')
export class SeriesController {
  constructor(private readonly calendar: SeriesCalendarService) {}

  @Get(':id/ics')
  @RequireScope('events:read')
  @HttpCode(200)
  @ApiParam({ name: 'id', description: 'Series id (series_id of its events)', schema: { type: 'integer' } })
  @ApiProduces('text/calendar')
  @ApiOperation({
    summary: 'A recurring event as an iCalendar file',
    description:
      'One VEVENT with RRULE (UNTIL in UTC), EXDATE (deleted occurrences, and those the caller may not read) and RDATE, in the series’ time zone; ' +
      'each occurrence edited on its own or moved is its own VEVENT with the same UID and RECURRENCE-ID. Readable by whoever may read the series’ first event.',
  })
  @ApiOkResponse({
    description: 'text/calendar; charset=utf-8 (RFC 5545), as an attachment',
    content: { 'text/calendar': { schema: { type: 'string' } } },
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @ApiForbiddenResponse({ description: 'event-not-accessible or event-no-longer-available: the first event is not readable' })
  @ApiNotFoundResponse({ description: 'series-not-found' })
  async ics(
    @Param('id', RouteIdPipe) id: number,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const file = await this.calendar.file(id, context, context.namespaceUrl('events', `series/${id}/ics`));
    response.setHeader('Content-Type', ICS_CONTENT_TYPE);
    response.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    return file.body;
  }
}
