import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/*
 * The request bodies of tec/v1 as its OpenAPI document shows them. They document only: each body
 * is translated to the events or tickets namespace's DTO and validated by its rules (TecInputPipe).
 */

class TecPostRequest {
  @ApiPropertyOptional({ description: 'HTML' }) content?: string;
  @ApiPropertyOptional({ description: 'HTML' }) excerpt?: string;
  @ApiPropertyOptional() slug?: string;
  @ApiPropertyOptional({ enum: ['publish', 'pending', 'draft', 'future', 'private'], default: 'publish' }) status?: string;
  @ApiPropertyOptional({ description: 'Publication date, site time zone' }) date?: string;
  @ApiPropertyOptional({ description: 'Publication date, UTC' }) date_gmt?: string;
  @ApiPropertyOptional({ type: 'integer' }) author?: number;
}

@ApiSchema({ name: 'TecEventRequest' })
export class TecEventRequest extends TecPostRequest {
  @ApiProperty({ description: 'Required on create' }) title: string;
  @ApiProperty({ description: 'Wall clock in the event time zone, required on create', example: '2025-06-05 12:00:00' }) start_date: string;
  @ApiProperty({ description: 'Required on create', example: '2025-06-05 16:00:00' }) end_date: string;
  @ApiPropertyOptional({ example: 'Europe/Athens' }) timezone?: string;
  @ApiPropertyOptional() all_day?: boolean;
  @ApiPropertyOptional() featured?: boolean;
  @ApiPropertyOptional() sticky?: boolean;
  @ApiPropertyOptional({ example: '$10' }) cost?: string;
  @ApiPropertyOptional({ type: [Number], description: 'Venue ids' }) venues?: number[];
  @ApiPropertyOptional({ type: [Number], description: 'Organizer ids' }) organizers?: number[];
  @ApiPropertyOptional({ type: [Number], description: 'Event category ids' }) tribe_events_cat?: number[];
  @ApiPropertyOptional({ type: [Number], description: 'Tag ids' }) tags?: number[];
}

@ApiSchema({ name: 'TecVenueRequest' })
export class TecVenueRequest extends TecPostRequest {
  @ApiProperty({ description: 'The venue name, required on create' }) title: string;
  @ApiPropertyOptional() address?: string;
  @ApiPropertyOptional() city?: string;
  @ApiPropertyOptional() state_province?: string;
  @ApiPropertyOptional() state?: string;
  @ApiPropertyOptional() province?: string;
  @ApiPropertyOptional() zip?: string;
  @ApiPropertyOptional() country?: string;
  @ApiPropertyOptional() phone?: string;
  @ApiPropertyOptional() website?: string;
}

@ApiSchema({ name: 'TecOrganizerRequest' })
export class TecOrganizerRequest extends TecPostRequest {
  @ApiProperty({ description: 'The organizer name, required on create' }) title: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() phone?: string;
  @ApiPropertyOptional() website?: string;
}

@ApiSchema({ name: 'TecTicketRequest' })
export class TecTicketRequest {
  @ApiProperty({ description: 'Required on create' }) title: string;
  @ApiProperty({ type: 'integer', description: 'The event; required on create (event_id accepted too), cannot change after' })
  event: number;
  @ApiPropertyOptional({ description: 'Plain text' }) description?: string;
  @ApiPropertyOptional({ example: 25.05 }) price?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Capacity; -1 for unlimited' }) capacity?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Same as capacity when capacity is not sent' }) stock?: number;
  @ApiPropertyOptional({ enum: ['own', 'capped', 'global', 'unlimited'] }) stock_mode?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Shared capacity of the event (capped and global)' }) event_capacity?: number;
  @ApiPropertyOptional({ description: 'Sale start, Y-m-d[ H:i:s] in the event time zone', example: '2025-05-01 00:00:00' })
  start_date?: string;
  @ApiPropertyOptional({ description: 'Sale end, Y-m-d[ H:i:s]', example: '2025-09-04 23:59:59' }) end_date?: string;
  @ApiPropertyOptional() sku?: string;
  @ApiPropertyOptional() show_description?: boolean;
}
