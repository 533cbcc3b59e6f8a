import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInteger, ToList } from '../../common/http/transforms';
import { MaxListValues } from '../../common/security/list-limits';
import { MAX_ID } from '../../cart/dto/update-cart.dto';
import { WAITLIST_STATUSES, WaitlistStatus } from '../waitlist-entry.entity';

/** Query of GET /waitlist (managers). */
export class ListWaitlistQuery {
  @ApiPropertyOptional({ description: 'Page of results', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({ description: 'Entries per page, 1 to 100', default: 25, minimum: 1, maximum: 100, type: 'integer' })
  @Allow()
  per_page?: string;

  @ApiPropertyOptional({ description: 'Only the entries of this ticket (the caller must manage its event)', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id?: number;

  @ApiPropertyOptional({ description: 'Only entries in these statuses (CSV list or array)', type: [String], enum: WAITLIST_STATUSES })
  @IsOptional()
  @ToList()
  @MaxListValues('status')
  @IsIn(WAITLIST_STATUSES, { each: true, message: `status must hold waitlist statuses: ${WAITLIST_STATUSES.join(', ')}` })
  status?: WaitlistStatus[];
}

/** Query of GET /waitlist/stats (managers). */
export class WaitlistStatsQuery {
  @ApiPropertyOptional({ description: 'The ticket (required; the caller must manage its event)', type: 'integer' })
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;
}
