import { ApiSchema, PartialType } from '@nestjs/swagger';
import { CreateVenueDto } from './create-venue.dto';

/** Update on POST, PUT or PATCH: every field optional; fields left out keep their values. */
@ApiSchema({ name: 'VenueUpdate' })
export class UpdateVenueDto extends PartialType(CreateVenueDto) {}
