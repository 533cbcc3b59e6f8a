import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { ToBoolean, ToInteger } from '../common/http/transforms';
import type { LinkedPostListQuery } from './linked-post-resource';

/** Query parameters of GET /venues and GET /organizers. */
export class LinkedPostListQueryDto implements LinkedPostListQuery {
  @ApiPropertyOptional({ description: 'Page of the archive', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: unknown;

  @ApiPropertyOptional({ description: 'Items per page (above 100 is read as 100)', default: 25, minimum: 1, type: 'integer' })
  @Allow()
  per_page?: unknown;

  @ApiPropertyOptional({ type: String, description: 'Words that must all appear in one of the searched fields (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: 'Only those linked to this event id (400 when no such event exists)', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'event must be an event id' })
  @Min(1, { message: 'event must be an event id' })
  event?: number;

  @ApiPropertyOptional({
    description: 'true: linked to at least one event that is not a draft, pending or trashed; false: the others',
    type: Boolean,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  has_events?: boolean;

  @ApiPropertyOptional({
    description: 'true: only those linked to an event, visible to the caller, that has not ended yet',
    type: Boolean,
    default: false,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  only_with_upcoming?: boolean;

  @ApiPropertyOptional({
    type: String,
    description: 'Post status (anonymous callers: publish only); a comma-separated list for signed-in callers',
  })
  @IsOptional()
  @Allow()
  status?: unknown;
}
