import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { MetricsService } from './metrics.service';
import { AnyScope } from '../auth/scope-decorators';

/** Prometheus scrape target, outside the API root like /health. */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @AnyScope()
  @HttpCode(200)
  @ApiProduces('text/plain')
  @ApiOperation({
    summary: 'Prometheus metrics of this instance',
    description:
      'Requests and latency by route pattern and status, MySQL pool use, tickets sold, failed checkouts by reason, and the process metrics of prom-client. Counters are per instance: sum them across instances.',
  })
  @ApiOkResponse({ description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  async scrape(@Res({ passthrough: true }) response: Response): Promise<string> {
    const { contentType, body } = await this.metrics.scrape();
    response.setHeader('Content-Type', contentType);
    return body;
  }
}
