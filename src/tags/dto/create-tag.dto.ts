import { ApiSchema } from '@nestjs/swagger';
import { CreateTermDto } from '../../terms/term-body.dto';

/** Fields of an event tag on create: exactly a term's fields (tags have no parent). */
@ApiSchema({ name: 'TagCreate' })
export class CreateTagDto extends CreateTermDto {}
