import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger, ToList } from '../../common/http/transforms';
import { MAX_ID } from './update-cart.dto';
import { MaxListValues } from '../../common/security/list-limits';

/** Query of GET /cart. */
export class GetCartQuery {
  @ApiPropertyOptional({ description: 'Only these providers (CSV list or array); unknown names match nothing', type: [String] })
  @IsOptional()
  @ToList()
  @MaxListValues('provider')
  @Allow()
  provider?: unknown[];

  @ApiPropertyOptional({
    description: 'Only the tickets of this event; it must exist (400) and have tickets (403 post-has-no-tickets)',
    type: 'integer',
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id?: number;
}
