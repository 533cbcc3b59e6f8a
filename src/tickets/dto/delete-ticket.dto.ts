import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';

/**
 * `post_id` and `remove_ticket_nonce` of DELETE /tickets/{id}, read from the body or, as clients
 * that cannot send a body with DELETE do, from the query. Both are required in one or the other.
 */
@ApiSchema({ name: 'TicketDelete' })
export class DeleteTicketParams {
  @ApiPropertyOptional({ description: 'The event of the ticket (required, in the body or the query)', type: 'integer', minimum: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(2_147_483_647, { message: 'post_id must be an event id' })
  post_id?: number;

  @ApiPropertyOptional({ description: 'Nonce of the caller for remove_ticket_nonce (required, in the body or the query)' })
  @IsOptional()
  @IsString()
  remove_ticket_nonce?: string;
}
