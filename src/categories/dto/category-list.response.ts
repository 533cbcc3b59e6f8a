import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CategoryResponse } from '../../terms/term-response.dto';

@ApiSchema({ name: 'CategoryList' })
export class CategoryListResponse {
  @ApiProperty({ description: 'This page of the list, with its effective query' })
  rest_url: string;

  @ApiProperty({ description: 'Number of matching categories' })
  total: number;

  @ApiProperty({ description: 'Number of pages (0 when nothing matches)' })
  total_pages: number;

  @ApiProperty({ type: [CategoryResponse] })
  categories: CategoryResponse[];

  @ApiPropertyOptional({ description: 'The next page, when there is one' })
  next_rest_url?: string;

  @ApiPropertyOptional({ description: 'The previous page, when there is one' })
  previous_rest_url?: string;
}
