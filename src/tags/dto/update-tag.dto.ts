import { ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { OptionalTermName } from '../../terms/term-body.dto';
import { CreateTagDto } from './create-tag.dto';

/**
 * Every field optional; fields left out keep their values. `null` is read as a value, not as
 * left out: it clears the description and is refused for the name and the slug.
 */
@ApiSchema({ name: 'TagUpdate' })
export class UpdateTagDto extends PartialType(OmitType(CreateTagDto, ['name'] as const), { skipNullProperties: false }) {
  @OptionalTermName()
  name?: string;
}
