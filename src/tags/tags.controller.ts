import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { createTermController } from '../terms/term.controller';
import { TagResponse } from '../terms/term-response.dto';
import { TagsService } from './tags.service';
import { TagListResponse } from './dto/tag-list.response';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQuery } from './dto/list-tags.query';
import { UpdateTagDto } from './dto/update-tag.dto';

/** The tag routes: the shape categories and tags share (term.controller.ts) with the tag classes. */
@ApiTags('events')
@Controller('events/v1/tags')
export class TagsController extends createTermController({
  kind: 'tag',
  service: TagsService,
  listQuery: ListTagsQuery,
  createBody: CreateTagDto,
  updateBody: UpdateTagDto,
  response: TagResponse,
  listResponse: TagListResponse,
}) {}
