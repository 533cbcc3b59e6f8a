import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional } from 'class-validator';
import { ToList } from '../../common/http/transforms';
import { ORDER_STATUSES, OrderStatus } from '../order.entity';
import { MaxListValues } from '../../common/security/list-limits';

/** Query of GET /orders. */
export class ListOrdersQuery {
  @ApiPropertyOptional({ description: 'Page of results', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({ description: 'Orders per page, 1 to 100', default: 25, minimum: 1, maximum: 100, type: 'integer' })
  @Allow()
  per_page?: string;

  @ApiPropertyOptional({ description: 'Only orders in these statuses (CSV list or array)', type: [String], enum: ORDER_STATUSES })
  @IsOptional()
  @ToList()
  @MaxListValues('status')
  @IsIn(ORDER_STATUSES, { each: true, message: `status must hold order statuses: ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus[];
}
