import { applyDecorators, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireAuthentication, RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { CONTENT_TYPES } from './export-writers';
import { ExportDownloadQuery } from './dto/download.query';
import { ExportAttendeesQuery, ExportOrdersQuery } from './dto/export.query';
import { ExportJobResponse } from './dto/export-job.response';
import { ExportsService } from './exports.service';
import { RequireScope } from '../auth/scope-decorators';

const MANAGERS = {
  forbidden:
    'rest_forbidden: authors, editors and administrators only; and post_id or include_post naming an event the caller does not manage',
};
const ID_PARAM = ApiParam({ name: 'id', description: 'Export job id', schema: { type: 'integer' } });

/** A file response: CSV text or an XLSX workbook. */
const FileResponse = (what: string) =>
  applyDecorators(
    ApiOkResponse({
      description: `${what}, as an attachment (Content-Disposition names the file)`,
      content: {
        [CONTENT_TYPES.csv]: { schema: { type: 'string' } },
        [CONTENT_TYPES.xlsx]: { schema: { type: 'string', format: 'binary' } },
      },
    }),
  );

const StreamedExportDocs = (noun: string, filters: string) =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('publish_events', MANAGERS),
    ApiOperation({
      summary: `Export ${noun} as CSV or XLSX, streamed`,
      description: `One row per ${noun.replace(/s$/, '')} the caller manages (editors and administrators: all; authors: of their own events), with ${filters}; rows in id order. CSV cells that would start a formula get a leading apostrophe.`,
    }),
    FileResponse(`The ${noun}`),
    ApiBadRequestResponse({ description: 'rest_invalid_param naming the filter or format' }),
  );

const QueuedExportDocs = (noun: string) =>
  applyDecorators(
    HttpCode(202),
    RequireCapability('publish_events', MANAGERS),
    ApiOperation({
      summary: `Export ${noun} in the background`,
      description: `Takes the query parameters of GET /${noun}/export (filters and format; a body is ignored). Answers the job at once; GET its url for its state, and its download_url once done.`,
    }),
    ApiAcceptedResponse({ type: ExportJobResponse, description: 'The queued job; Location names it' }),
    ApiBadRequestResponse({ description: 'rest_invalid_param naming the filter or format' }),
  );

@ApiTags('tickets')
@Controller('tickets/v1')
export class ExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Get('attendees/export')
  @RequireScope('exports:read')
  @StreamedExportDocs('attendees', 'the filters of GET /attendees (paging and ordering aside)')
  exportAttendees(
    @Query() query: ExportAttendeesQuery,
    @RequestContext() context: SignedInContext,
    @Res() response: Response,
  ): Promise<void> {
    return this.exports.stream('attendees', query, context.user, response);
  }

  @Post('attendees/export')
  @RequireScope('exports:read')
  @QueuedExportDocs('attendees')
  async queueAttendees(
    @Query() query: ExportAttendeesQuery,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ExportJobResponse> {
    const job = await this.exports.createJob('attendees', query, context.user, context);
    response.setHeader('Location', job.url);
    return job;
  }

  @Get('orders/export')
  @RequireScope('exports:read')
  @StreamedExportDocs('orders', 'the filters of GET /orders (paging aside)')
  exportOrders(@Query() query: ExportOrdersQuery, @RequestContext() context: SignedInContext, @Res() response: Response): Promise<void> {
    return this.exports.stream('orders', query, context.user, response);
  }

  @Post('orders/export')
  @RequireScope('exports:read')
  @QueuedExportDocs('orders')
  async queueOrders(
    @Query() query: ExportOrdersQuery,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ExportJobResponse> {
    const job = await this.exports.createJob('orders', query, context.user, context);
    response.setHeader('Location', job.url);
    return job;
  }

  @Get('exports/:id')
  @RequireScope('exports:read')
  @HttpCode(200)
  @RequireAuthentication()
  @ID_PARAM
  @ApiOperation({ summary: 'The state of an export job; its creator only' })
  @ApiOkResponse({ type: ExportJobResponse })
  @ApiNotFoundResponse({ description: 'export-not-found: no such job, or not the caller’s' })
  getJob(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<ExportJobResponse> {
    return this.exports.getJob(id, context.user, context);
  }

  @Get('exports/:id/download')
  @RequireScope('exports:read')
  @HttpCode(200)
  @ID_PARAM
  @ApiOperation({
    summary: 'Download a finished export with the signed token of its download_url (no credentials needed)',
  })
  @FileResponse('The file')
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param (token)' })
  @ApiNotFoundResponse({ description: 'export-not-found: no such job, or a wrong token' })
  @ApiConflictResponse({ description: 'export-not-ready: queued or running; ask again shortly' })
  @ApiGoneResponse({ description: 'export-expired (the file was deleted) or export-failed' })
  download(@Param('id', RouteIdPipe) id: number, @Query() query: ExportDownloadQuery, @Res() response: Response): Promise<void> {
    return this.exports.download(id, query.token, response);
  }
}
