import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { readForceFlag, RouteIdPipe } from '../common/http/route-params';
import {
  LinkedPostCreateDocs,
  LinkedPostDeleteDocs,
  LinkedPostIdParam,
  LinkedPostKind,
  LinkedPostListDocs,
  LinkedPostReadDocs,
  LinkedPostSlugParam,
  LinkedPostUpdateDocs,
} from '../linked-posts/linked-post-docs';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import { ListOrganizersQuery } from './dto/list-organizers.query';
import { UpdateOrganizerDto } from './dto/update-organizer.dto';
import { OrganizerListResponse, OrganizerResponse } from './dto/organizer.response';
import { OrganizersService } from './organizers.service';

const ORGANIZER: LinkedPostKind = { noun: 'organizer', type: OrganizerResponse, listType: OrganizerListResponse };

/** The organizer routes; the organizer and venue controllers are one shape (see linked-post-docs.ts). */
@ApiTags('events')
@Controller('events/v1/organizers')
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Get()
  @LinkedPostListDocs(ORGANIZER)
  async list(
    @Query() query: ListOrganizersQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizerListResponse> {
    const page = await this.organizers.list(query, context);
    setTotalHeaders(response, 'events', page.total, page.total_pages);
    return page;
  }

  @Post()
  @LinkedPostCreateDocs(ORGANIZER)
  async create(
    @Body() body: CreateOrganizerDto,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizerResponse> {
    const organizer = await this.organizers.create(body, context.user, context);
    response.setHeader('Location', context.namespaceUrl('events', `organizers/${organizer.id}`));
    return organizer;
  }

  @Get('by-slug/:slug')
  @LinkedPostReadDocs(ORGANIZER)
  @LinkedPostSlugParam('organizer')
  findBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<OrganizerResponse> {
    return this.organizers.findOne({ slug }, context);
  }

  @Post('by-slug/:slug')
  @LinkedPostUpdateDocs(ORGANIZER)
  @LinkedPostSlugParam('organizer')
  updateBySlugWithPost(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ slug }, body, context.user, context);
  }

  @Put('by-slug/:slug')
  @LinkedPostUpdateDocs(ORGANIZER)
  @LinkedPostSlugParam('organizer')
  updateBySlugWithPut(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ slug }, body, context.user, context);
  }

  @Patch('by-slug/:slug')
  @LinkedPostUpdateDocs(ORGANIZER)
  @LinkedPostSlugParam('organizer')
  updateBySlugWithPatch(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ slug }, body, context.user, context);
  }

  @Delete('by-slug/:slug')
  @LinkedPostDeleteDocs(ORGANIZER)
  @LinkedPostSlugParam('organizer')
  removeBySlug(
    @Param('slug') slug: string,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.remove({ slug }, readForceFlag(force), context.user, context);
  }

  @Get(':id')
  @LinkedPostReadDocs(ORGANIZER)
  @LinkedPostIdParam('organizer')
  findById(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<OrganizerResponse> {
    return this.organizers.findOne({ id }, context);
  }

  @Post(':id')
  @LinkedPostUpdateDocs(ORGANIZER)
  @LinkedPostIdParam('organizer')
  updateWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ id }, body, context.user, context);
  }

  @Put(':id')
  @LinkedPostUpdateDocs(ORGANIZER)
  @LinkedPostIdParam('organizer')
  updateWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ id }, body, context.user, context);
  }

  @Patch(':id')
  @LinkedPostUpdateDocs(ORGANIZER)
  @LinkedPostIdParam('organizer')
  updateWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ id }, body, context.user, context);
  }

  @Delete(':id')
  @LinkedPostDeleteDocs(ORGANIZER)
  @LinkedPostIdParam('organizer')
  remove(
    @Param('id', RouteIdPipe) id: number,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.remove({ id }, readForceFlag(force), context.user, context);
  }
}
