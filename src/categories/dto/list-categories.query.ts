import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { ListTermsQuery } from '../../terms/list-terms.query';

/** Query parameters of GET /categories: the term list filters plus `parent`. */
export class ListCategoriesQuery extends ListTermsQuery {
  @ApiPropertyOptional({
    description: 'Only children of this category (an existing one); 0 for top-level categories',
    type: 'integer',
    minimum: 0,
  })
  @IsOptional()
  @ToInteger()
  @Min(0)
  @IsInt()
  parent?: number;
}
