import { Controller, Get, HttpCode, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { SalesReportQuery, SummaryReportQuery } from './dto/report.query';
import { SalesReportResponse, SummaryReportResponse } from './dto/report.response';
import { ReportsService } from './reports.service';
import { RequireScope } from '../auth/scope-decorators';

const MANAGERS = { forbidden: 'rest_forbidden: the caller does not manage the event' };

@ApiTags('tickets')
@Controller('tickets/v1/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('sales')
  @RequireScope('reports:read')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({
    summary:
      "Units, revenue, refunds, cancellations and check-ins of an event's tickets per UTC day or ISO week; managers of the event only",
  })
  @ApiOkResponse({ type: SalesReportResponse })
  @ApiBadRequestResponse({
    description: 'rest_missing_callback_param (post_id) or rest_invalid_param naming post_id (unknown event), from, to or interval',
  })
  sales(@Query() query: SalesReportQuery, @RequestContext() context: SignedInContext): Promise<SalesReportResponse> {
    return this.reports.sales(query, context.user);
  }

  @Get('summary')
  @RequireScope('reports:read')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({ summary: "An event's capacity, sold, pending, available, revenue and check-ins, now; managers of the event only" })
  @ApiOkResponse({ type: SummaryReportResponse })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param (post_id) or rest_invalid_param naming post_id (unknown event)' })
  summary(@Query() query: SummaryReportQuery, @RequestContext() context: SignedInContext): Promise<SummaryReportResponse> {
    return this.reports.summary(query, context.user);
  }
}
