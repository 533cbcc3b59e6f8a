import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { LinkedPostPageResponse, LinkedPostResponse } from '../../linked-posts/linked-post-response';

/**
 * A venue as the API returns it. Empty fields are left out, except `show_map`
 * and `show_map_link`; `json_ld` only on single GETs and inside events.
 */
@ApiSchema({ name: 'Venue' })
export class VenueResponse extends LinkedPostResponse {
  @ApiProperty({ description: 'Name', example: 'Loopback Hall' })
  venue: string;

  @ApiProperty({ example: 'loopback-hall' })
  slug: string;

  @ApiPropertyOptional()
  address?: string;

  @ApiPropertyOptional()
  city?: string;

  @ApiPropertyOptional()
  country?: string;

  @ApiPropertyOptional()
  province?: string;

  @ApiPropertyOptional()
  state?: string;

  @ApiPropertyOptional()
  zip?: string;

  @ApiPropertyOptional()
  phone?: string;

  @ApiPropertyOptional()
  website?: string;

  @ApiPropertyOptional({ description: 'State or province as shown' })
  stateprovince?: string;

  @ApiPropertyOptional({ description: 'Latitude' })
  geo_lat?: number;

  @ApiPropertyOptional({ description: 'Longitude' })
  geo_lng?: number;

  @ApiPropertyOptional({ description: 'schema.org Place', type: 'object', additionalProperties: true })
  json_ld?: Record<string, unknown>;

  @ApiProperty()
  show_map: boolean;

  @ApiProperty()
  show_map_link: boolean;

  @ApiProperty({ example: 'example.org?id=4' })
  global_id: string;

  @ApiProperty({ type: [String] })
  global_id_lineage: string[];
}

@ApiSchema({ name: 'VenueList' })
export class VenueListResponse extends LinkedPostPageResponse('Venues') {
  @ApiProperty({ type: [VenueResponse] })
  venues: VenueResponse[];
}
