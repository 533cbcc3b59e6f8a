import { ApiProperty, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { CreateTicketDto } from './create-ticket.dto';

/**
 * Body of POST|PUT|PATCH /tickets/{id}. Fields left out keep their values; the provider of a
 * ticket never changes (a `provider` field is ignored).
 */
@ApiSchema({ name: 'TicketUpdate' })
export class UpdateTicketDto extends PartialType(OmitType(CreateTicketDto, ['post_id', 'provider', 'add_ticket_nonce'] as const)) {
  @ApiProperty({ description: 'The event of the ticket (must be the one it belongs to)', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(2_147_483_647, { message: 'post_id must be an event id' })
  post_id: number;

  @ApiProperty({ description: 'Nonce of the caller for edit_ticket_nonce (GET /tickets/v1/nonces)' })
  @IsOptional()
  @IsString()
  edit_ticket_nonce?: string;
}
