import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { createLinkedPostController } from '../linked-posts/linked-post.controller';
import { CreateVenueDto } from './dto/create-venue.dto';
import { ListVenuesQuery } from './dto/list-venues.query';
import { UpdateVenueDto } from './dto/update-venue.dto';
import { VenueListResponse, VenueResponse } from './dto/venue.response';
import { VenuesService } from './venues.service';

/** The venue routes: the shape venues and organizers share (linked-post.controller.ts) with the venue classes. */
@ApiTags('events')
@Controller('events/v1/venues')
export class VenuesController extends createLinkedPostController({
  noun: 'venue',
  service: VenuesService,
  listQuery: ListVenuesQuery,
  createBody: CreateVenueDto,
  updateBody: UpdateVenueDto,
  type: VenueResponse,
  listType: VenueListResponse,
}) {}
