import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { createLinkedPostController } from '../linked-posts/linked-post.controller';
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import { ListOrganizersQuery } from './dto/list-organizers.query';
import { UpdateOrganizerDto } from './dto/update-organizer.dto';
import { OrganizerListResponse, OrganizerResponse } from './dto/organizer.response';
import { OrganizersService } from './organizers.service';

/** The organizer routes: the shape venues and organizers share (linked-post.controller.ts) with the organizer classes. */
@ApiTags('events')
@Controller('events/v1/organizers')
export class OrganizersController extends createLinkedPostController({
  noun: 'organizer',
  service: OrganizersService,
  listQuery: ListOrganizersQuery,
  createBody: CreateOrganizerDto,
  updateBody: UpdateOrganizerDto,
  type: OrganizerResponse,
  listType: OrganizerListResponse,
}) {}
