import { PartialType } from '@nestjs/swagger';
import { CreateVenueDto } from './create-venue.dto';

/** Update on POST, PUT or PATCH: every field optional; fields left out keep their values. */
export class UpdateVenueDto extends PartialType(CreateVenueDto) {}
