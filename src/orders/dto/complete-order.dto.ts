import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { MAX_ID } from '../../cart/dto/update-cart.dto';

/**
 * Body of POST /orders/{id}/complete. Managers send nothing. The payment webhook signs the body
 * (`X-Signature`) and names the order in it, so that a signature cannot be replayed on another order.
 */
@ApiSchema({ name: 'OrderComplete' })
export class CompleteOrderDto {
  @ApiPropertyOptional({ description: 'Signed requests: the id of the order paid for; must match the path', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'order_id must be an order id' })
  @Min(1, { message: 'order_id must be an order id' })
  @Max(MAX_ID, { message: 'order_id must be an order id' })
  order_id?: number;
}
