import { ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { OptionalTermName } from '../../terms/term-body.dto';
import { CreateCategoryDto } from './create-category.dto';

/**
 * Every field optional; fields left out keep their values. `null` is read as a value, not as
 * left out: it clears the description and the parent and is refused for the name and the slug.
 */
@ApiSchema({ name: 'CategoryUpdate' })
export class UpdateCategoryDto extends PartialType(OmitType(CreateCategoryDto, ['name'] as const), { skipNullProperties: false }) {
  @OptionalTermName()
  name?: string;
}
