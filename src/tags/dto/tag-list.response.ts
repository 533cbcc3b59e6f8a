import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TagResponse } from '../../terms/term-response.dto';

@ApiSchema({ name: 'TagList' })
export class TagListResponse {
  @ApiProperty({ description: 'This page of the list, with its effective query' })
  rest_url: string;

  @ApiProperty({ description: 'Number of matching tags' })
  total: number;

  @ApiProperty({ description: 'Number of pages (0 when nothing matches)' })
  total_pages: number;

  @ApiProperty({ type: [TagResponse] })
  tags: TagResponse[];

  @ApiPropertyOptional({ description: 'The next page, when there is one' })
  next_rest_url?: string;

  @ApiPropertyOptional({ description: 'The previous page, when there is one' })
  previous_rest_url?: string;
}
