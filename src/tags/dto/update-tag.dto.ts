import { PartialType } from '@nestjs/swagger';
import { CreateTagDto } from './create-tag.dto';

/** Every field optional; fields left out keep their values. */
export class UpdateTagDto extends PartialType(CreateTagDto) {}
