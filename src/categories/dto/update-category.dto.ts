import { PartialType } from '@nestjs/swagger';
import { CreateCategoryDto } from './create-category.dto';

/** Every field optional; fields left out keep their values. */
export class UpdateCategoryDto extends PartialType(CreateCategoryDto) {}
