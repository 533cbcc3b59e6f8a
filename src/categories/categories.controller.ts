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
import { CategoryResponse } from '../common/terms/term-response.dto';
import { toCategoryListResponse, toCategoryResponse } from './categories.mapper';
import { CategoriesService } from './categories.service';
import { CategoryListResponse } from './dto/category-list.response';
import { CreateCategoryDto } from './dto/create-category.dto';
import { ListCategoriesQuery } from './dto/list-categories.query';
import { UpdateCategoryDto } from './dto/update-category.dto';

@ApiTags('events')
@Controller('events/v1/categories')
export class CategoriesController {
  constructor(
    private readonly categories: CategoriesService,
    private readonly urls: ApiUrls,
  ) {}

  private context(request: Request): RequestContext {
    return this.urls.context(request);
  }

  @Get()
  @HttpCode(200)
  @TermListDocs('category', CategoryListResponse)
  async list(
    @Query() query: ListCategoriesQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CategoryListResponse> {
    const page = await this.categories.list(query);
    setTotalHeaders(response, 'events', page.total, page.totalPages);
    return toCategoryListResponse(page, this.context(request));
  }

  @Post()
  @HttpCode(201)
  @RequireCapability('manage_terms')
  @TermCreateDocs('category', CategoryResponse)
  async create(
    @Body() dto: CreateCategoryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CategoryResponse> {
    const body = toCategoryResponse(await this.categories.create(dto), this.context(request));
    response.setHeader('Location', body.urls.self);
    return body;
  }

  @Get(':id')
  @HttpCode(200)
  @TermIdParam()
  @TermReadDocs('category', CategoryResponse)
  async get(@Param('id', RouteIdPipe) id: number, @Req() request: Request): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.get({ id }), this.context(request));
  }

  @Post(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateByPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateCategoryDto,
    @Req() request: Request,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ id }, dto), this.context(request));
  }

  @Put(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateByPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateCategoryDto,
    @Req() request: Request,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ id }, dto), this.context(request));
  }

  @Patch(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateByPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateCategoryDto,
    @Req() request: Request,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ id }, dto), this.context(request));
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermIdParam()
  @TermDeleteDocs('category', CategoryResponse)
  async remove(@Param('id', RouteIdPipe) id: number, @Req() request: Request): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.remove({ id }), this.context(request));
  }

  @Get('by-slug/:slug')
  @HttpCode(200)
  @TermSlugParam()
  @TermReadDocs('category', CategoryResponse)
  async getBySlug(@Param('slug') slug: string, @Req() request: Request): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.get({ slug }), this.context(request));
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateBySlugByPost(
    @Param('slug') slug: string,
    @Body() dto: UpdateCategoryDto,
    @Req() request: Request,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ slug }, dto), this.context(request));
  }

  @Put('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateBySlugByPut(@Param('slug') slug: string, @Body() dto: UpdateCategoryDto, @Req() request: Request): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ slug }, dto), this.context(request));
  }

  @Patch('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateBySlugByPatch(
    @Param('slug') slug: string,
    @Body() dto: UpdateCategoryDto,
    @Req() request: Request,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ slug }, dto), this.context(request));
  }

  @Delete('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms')
  @TermSlugParam()
  @TermDeleteDocs('category', CategoryResponse)
  async removeBySlug(@Param('slug') slug: string, @Req() request: Request): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.remove({ slug }), this.context(request));
  }
}
