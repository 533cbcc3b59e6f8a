import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { LinkedPostPageResponse, LinkedPostResponse } from '../../linked-posts/linked-post-response';

/**
 * An organizer as the API returns it. Empty fields are left out; `json_ld` only on
 * single GETs and inside events.
 */
@ApiSchema({ name: 'Organizer' })
export class OrganizerResponse extends LinkedPostResponse {
  @ApiProperty({ description: 'Name', example: 'Ref Organizer' })
  organizer: string;

  @ApiProperty({ example: 'ref-organizer' })
  slug: string;

  @ApiPropertyOptional()
  phone?: string;

  @ApiPropertyOptional()
  website?: string;

  @ApiPropertyOptional()
  email?: string;

  @ApiPropertyOptional({ description: 'schema.org Person', type: 'object', additionalProperties: true })
  json_ld?: Record<string, unknown>;

  @ApiProperty({ example: 'example.org?id=5' })
  global_id: string;

  @ApiProperty({ type: [String] })
  global_id_lineage: string[];
}

@ApiSchema({ name: 'OrganizerList' })
export class OrganizerListResponse extends LinkedPostPageResponse('Organizers') {
  @ApiProperty({ type: [OrganizerResponse] })
  organizers: OrganizerResponse[];
}
