import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import {
  TERM_WRITE_ACCESS,
  TermCreateDocs,
  TermDeleteDocs,
  TermIdParam,
  TermListDocs,
  TermReadDocs,
  TermSlugParam,
  TermUpdateDocs,
} from '../terms/term-docs';
import { TagResponse } from '../terms/term-response.dto';
import { toTagListResponse, toTagResponse } from './tags.mapper';
import { TagsService } from './tags.service';
import { TagListResponse } from './dto/tag-list.response';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQuery } from './dto/list-tags.query';
import { UpdateTagDto } from './dto/update-tag.dto';

@ApiTags('events')
@Controller('events/v1/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @HttpCode(200)
  @TermListDocs('tag', TagListResponse)
  async list(
    @Query() query: ListTagsQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TagListResponse> {
    const page = await this.tags.list(query);
    setTotalHeaders(response, 'events', page.total, page.totalPages);
    return toTagListResponse(page, context);
  }

  @Post()
  @HttpCode(201)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermCreateDocs('tag', TagResponse)
  async create(
    @Body() dto: CreateTagDto,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TagResponse> {
    const body = toTagResponse(await this.tags.create(dto), context);
    response.setHeader('Location', body.urls.self);
    return body;
  }

  @Get(':id')
  @HttpCode(200)
  @TermIdParam()
  @TermReadDocs('tag', TagResponse)
  async get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<TagResponse> {
    return toTagResponse(await this.tags.get({ id }), context);
  }

  @Post(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateByPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateTagDto,
    @RequestContext() context: RequestContext,
  ): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ id }, dto), context);
  }

  @Put(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateByPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateTagDto,
    @RequestContext() context: RequestContext,
  ): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ id }, dto), context);
  }

  @Patch(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateByPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateTagDto,
    @RequestContext() context: RequestContext,
  ): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ id }, dto), context);
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermDeleteDocs('tag', TagResponse)
  async remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<TagResponse> {
    return toTagResponse(await this.tags.remove({ id }), context);
  }

  @Get('by-slug/:slug')
  @HttpCode(200)
  @TermSlugParam()
  @TermReadDocs('tag', TagResponse)
  async getBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<TagResponse> {
    return toTagResponse(await this.tags.get({ slug }), context);
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateBySlugByPost(
    @Param('slug') slug: string,
    @Body() dto: UpdateTagDto,
    @RequestContext() context: RequestContext,
  ): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ slug }, dto), context);
  }

  @Put('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateBySlugByPut(
    @Param('slug') slug: string,
    @Body() dto: UpdateTagDto,
    @RequestContext() context: RequestContext,
  ): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ slug }, dto), context);
  }

  @Patch('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateBySlugByPatch(
    @Param('slug') slug: string,
    @Body() dto: UpdateTagDto,
    @RequestContext() context: RequestContext,
  ): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ slug }, dto), context);
  }

  @Delete('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermDeleteDocs('tag', TagResponse)
  async removeBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<TagResponse> {
    return toTagResponse(await this.tags.remove({ slug }), context);
  }
}
