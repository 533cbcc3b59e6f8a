import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { ApiUrls } from '../common/http/api-urls.service';
import type { RequestContext } from '../common/http/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import {
  TermCreateDocs,
  TermDeleteDocs,
  TermIdParam,
  TermListDocs,
  TermReadDocs,
  TermSlugParam,
  TermUpdateDocs,
} from '../common/terms/term-docs';
import { TagResponse } from '../common/terms/term-response.dto';
import { toTagListResponse, toTagResponse } from './tags.mapper';
import { TagsService } from './tags.service';
import { TagListResponse } from './dto/tag-list.response';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQuery } from './dto/list-tags.query';
import { UpdateTagDto } from './dto/update-tag.dto';

@ApiTags('events')
@Controller('events/v1/tags')
export class TagsController {
  constructor(
    private readonly tags: TagsService,
    private readonly urls: ApiUrls,
  ) {}

  private context(request: Request): RequestContext {
    return this.urls.context(request);
  }

  @Get()
  @HttpCode(200)
  @TermListDocs('tag', TagListResponse)
  async list(
    @Query() query: ListTagsQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TagListResponse> {
    const page = await this.tags.list(query);
    setTotalHeaders(response, 'events', page.total, page.totalPages);
    return toTagListResponse(page, this.context(request));
  }

  @Post()
  @HttpCode(201)
  @RequireCapability('manage_terms')
  @TermCreateDocs('tag', TagResponse)
  async create(@Body() dto: CreateTagDto, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TagResponse> {
    const body = toTagResponse(await this.tags.create(dto), this.context(request));
    response.setHeader('Location', body.urls.self);
    return body;
  }

  @Get(':id')
  @HttpCode(200)
  @TermIdParam()
  @TermReadDocs('tag', TagResponse)
  async get(@Param('id', RouteIdPipe) id: number, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.get({ id }), this.context(request));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateByPost(@Param('id', RouteIdPipe) id: number, @Body() dto: UpdateTagDto, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ id }, dto), this.context(request));
  }

  @Put(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateByPut(@Param('id', RouteIdPipe) id: number, @Body() dto: UpdateTagDto, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ id }, dto), this.context(request));
  }

  @Patch(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateByPatch(@Param('id', RouteIdPipe) id: number, @Body() dto: UpdateTagDto, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ id }, dto), this.context(request));
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermDeleteDocs('tag', TagResponse)
  async remove(@Param('id', RouteIdPipe) id: number, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.remove({ id }), this.context(request));
  }

  @Get('by-slug/:slug')
  @HttpCode(200)
  @TermSlugParam()
  @TermReadDocs('tag', TagResponse)
  async getBySlug(@Param('slug') slug: string, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.get({ slug }), this.context(request));
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateBySlugByPost(@Param('slug') slug: string, @Body() dto: UpdateTagDto, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ slug }, dto), this.context(request));
  }

  @Put('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateBySlugByPut(@Param('slug') slug: string, @Body() dto: UpdateTagDto, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ slug }, dto), this.context(request));
  }

  @Patch('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermUpdateDocs('tag', TagResponse)
  async updateBySlugByPatch(@Param('slug') slug: string, @Body() dto: UpdateTagDto, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.update({ slug }, dto), this.context(request));
  }

  @Delete('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermDeleteDocs('tag', TagResponse)
  async removeBySlug(@Param('slug') slug: string, @Req() request: Request): Promise<TagResponse> {
    return toTagResponse(await this.tags.remove({ slug }), this.context(request));
  }
}
