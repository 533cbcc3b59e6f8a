import { ApiSchema, PartialType } from '@nestjs/swagger';
import { CreateEventDto } from './create-event.dto';

/** Every field optional; fields left out keep their values, on POST, PUT and PATCH alike. */
@ApiSchema({ name: 'EventUpdate' })
export class UpdateEventDto extends PartialType(CreateEventDto) {}
