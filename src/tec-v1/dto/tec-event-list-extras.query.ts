import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional } from 'class-validator';
import { UpperCased } from '../../common/http/transforms';
import { EVENT_LIST_ORDERS, type EventListOrder } from '../../catalogue/event-reads.repository';
import type { EventListExtras } from '../../catalogue/event-reads.service';

/** tec/v1's event list parameters that the events namespace's list does not have (EventListExtras). */
export class TecEventListExtrasQuery implements EventListExtras {
  @ApiPropertyOptional({ description: 'Events starting on or before this date', type: String })
  @Allow()
  starts_before?: unknown;

  @ApiPropertyOptional({ description: 'Events starting on or after this date', type: String })
  @Allow()
  starts_after?: unknown;

  @ApiPropertyOptional({ description: 'Events ending on or before this date', type: String })
  @Allow()
  ends_before?: unknown;

  @ApiPropertyOptional({ description: 'Events ending on or after this date', type: String })
  @Allow()
  ends_after?: unknown;

  @ApiPropertyOptional({ enum: EVENT_LIST_ORDERS, default: 'event_date', description: 'Applied only together with order' })
  @IsOptional()
  @IsIn(EVENT_LIST_ORDERS, { message: `orderby must be one of ${EVENT_LIST_ORDERS.join(', ')}` })
  orderby?: EventListOrder;

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'ASC', description: 'Applied only together with orderby (any case)' })
  @IsOptional()
  @UpperCased()
  @IsIn(['ASC', 'DESC'], { message: 'order must be asc or desc' })
  order?: 'ASC' | 'DESC';
}
