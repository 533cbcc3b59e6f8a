import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { CreateTermDto } from '../../terms/term-body.dto';

/** Fields of an event category on create: a term's fields plus its parent. */
@ApiSchema({ name: 'CategoryCreate' })
export class CreateCategoryDto extends CreateTermDto {
  @ApiPropertyOptional({
    description: 'Parent category id (an existing category); 0 or null for a top-level category',
    type: 'integer',
    minimum: 0,
    nullable: true,
  })
  @IsOptional()
  @ToInteger()
  @Min(0)
  @IsInt()
  parent?: number | null;
}
