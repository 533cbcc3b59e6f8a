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
import { CreateVenueDto } from './dto/create-venue.dto';
import { ListVenuesQuery } from './dto/list-venues.query';
import { UpdateVenueDto } from './dto/update-venue.dto';
import { VenueListResponse, VenueResponse } from './dto/venue.response';
import { VenuesService } from './venues.service';

const VENUE: LinkedPostKind = { noun: 'venue', type: VenueResponse, listType: VenueListResponse };

/** The venue routes; the venue and organizer controllers are one shape (see linked-post-docs.ts). */
@ApiTags('events')
@Controller('events/v1/venues')
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @Get()
  @LinkedPostListDocs(VENUE)
  async list(
    @Query() query: ListVenuesQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<VenueListResponse> {
    const page = await this.venues.list(query, context);
    setTotalHeaders(response, 'events', page.total, page.total_pages);
    return page;
  }

  @Post()
  @LinkedPostCreateDocs(VENUE)
  async create(
    @Body() body: CreateVenueDto,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<VenueResponse> {
    const venue = await this.venues.create(body, context.user, context);
    response.setHeader('Location', context.namespaceUrl('events', `venues/${venue.id}`));
    return venue;
  }

  @Get('by-slug/:slug')
  @LinkedPostReadDocs(VENUE)
  @LinkedPostSlugParam('venue')
  findBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<VenueResponse> {
    return this.venues.findOne({ slug }, context);
  }

  @Post('by-slug/:slug')
  @LinkedPostUpdateDocs(VENUE)
  @LinkedPostSlugParam('venue')
  updateBySlugWithPost(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ slug }, body, context.user, context);
  }

  @Put('by-slug/:slug')
  @LinkedPostUpdateDocs(VENUE)
  @LinkedPostSlugParam('venue')
  updateBySlugWithPut(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ slug }, body, context.user, context);
  }

  @Patch('by-slug/:slug')
  @LinkedPostUpdateDocs(VENUE)
  @LinkedPostSlugParam('venue')
  updateBySlugWithPatch(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ slug }, body, context.user, context);
  }

  @Delete('by-slug/:slug')
  @LinkedPostDeleteDocs(VENUE)
  @LinkedPostSlugParam('venue')
  removeBySlug(
    @Param('slug') slug: string,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.remove({ slug }, readForceFlag(force), context.user, context);
  }

  @Get(':id')
  @LinkedPostReadDocs(VENUE)
  @LinkedPostIdParam('venue')
  findById(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<VenueResponse> {
    return this.venues.findOne({ id }, context);
  }

  @Post(':id')
  @LinkedPostUpdateDocs(VENUE)
  @LinkedPostIdParam('venue')
  updateWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ id }, body, context.user, context);
  }

  @Put(':id')
  @LinkedPostUpdateDocs(VENUE)
  @LinkedPostIdParam('venue')
  updateWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ id }, body, context.user, context);
  }

  @Patch(':id')
  @LinkedPostUpdateDocs(VENUE)
  @LinkedPostIdParam('venue')
  updateWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ id }, body, context.user, context);
  }

  @Delete(':id')
  @LinkedPostDeleteDocs(VENUE)
  @LinkedPostIdParam('venue')
  remove(
    @Param('id', RouteIdPipe) id: number,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.remove({ id }, readForceFlag(force), context.user, context);
  }
}
