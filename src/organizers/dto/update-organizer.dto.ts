import { ApiSchema, PartialType } from '@nestjs/swagger';
import { CreateOrganizerDto } from './create-organizer.dto';

/** Update on POST, PUT or PATCH: every field optional; fields left out keep their values. */
@ApiSchema({ name: 'OrganizerUpdate' })
export class UpdateOrganizerDto extends PartialType(CreateOrganizerDto) {}
