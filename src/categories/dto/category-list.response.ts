import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CategoryResponse, TermPageResponse } from '../../terms/term-response.dto';

@ApiSchema({ name: 'CategoryList' })
export class CategoryListResponse extends TermPageResponse('categories') {
  @ApiProperty({ type: [CategoryResponse] })
  categories: CategoryResponse[];
}
