import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';

/** Query of GET /coupons. */
export class ListCouponsQuery {
  @ApiPropertyOptional({ description: 'Page of results', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({ description: 'Coupons per page, 1 to 100', default: 25, minimum: 1, maximum: 100, type: 'integer' })
  @Allow()
  per_page?: string;

  @ApiPropertyOptional({ description: 'Only coupons of this event', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(2_147_483_647, { message: 'post_id must be an event id' })
  post_id?: number;
}
