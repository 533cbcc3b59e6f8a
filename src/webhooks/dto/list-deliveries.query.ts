import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** Query of GET /webhooks/{id}/deliveries: newest first. */
export class ListDeliveriesQuery {
  @ApiPropertyOptional({ description: 'Page of results', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({ description: 'Deliveries per page, 1 to 100', default: 25, minimum: 1, maximum: 100, type: 'integer' })
  @Allow()
  per_page?: string;
}
