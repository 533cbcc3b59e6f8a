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
import { CategoryResponse } from '../terms/term-response.dto';
import { toCategoryListResponse, toCategoryResponse } from './categories.mapper';
import { CategoriesService } from './categories.service';
import { CategoryListResponse } from './dto/category-list.response';
import { CreateCategoryDto } from './dto/create-category.dto';
import { ListCategoriesQuery } from './dto/list-categories.query';
import { UpdateCategoryDto } from './dto/update-category.dto';

@ApiTags('events')
@Controller('events/v1/categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @HttpCode(200)
  @TermListDocs('category', CategoryListResponse)
  async list(
    @Query() query: ListCategoriesQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CategoryListResponse> {
    const page = await this.categories.list(query);
    setTotalHeaders(response, 'events', page.total, page.totalPages);
    return toCategoryListResponse(page, context);
  }

  @Post()
  @HttpCode(201)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermCreateDocs('category', CategoryResponse)
  async create(
    @Body() dto: CreateCategoryDto,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CategoryResponse> {
    const body = toCategoryResponse(await this.categories.create(dto), context);
    response.setHeader('Location', body.urls.self);
    return body;
  }

  @Get(':id')
  @HttpCode(200)
  @TermIdParam()
  @TermReadDocs('category', CategoryResponse)
  async get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.get({ id }), context);
  }

  @Post(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateByPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateCategoryDto,
    @RequestContext() context: RequestContext,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ id }, dto), context);
  }

  @Put(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateByPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateCategoryDto,
    @RequestContext() context: RequestContext,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ id }, dto), context);
  }

  @Patch(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateByPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() dto: UpdateCategoryDto,
    @RequestContext() context: RequestContext,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ id }, dto), context);
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermIdParam()
  @TermDeleteDocs('category', CategoryResponse)
  async remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.remove({ id }), context);
  }

  @Get('by-slug/:slug')
  @HttpCode(200)
  @TermSlugParam()
  @TermReadDocs('category', CategoryResponse)
  async getBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.get({ slug }), context);
  }

  @Post('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateBySlugByPost(
    @Param('slug') slug: string,
    @Body() dto: UpdateCategoryDto,
    @RequestContext() context: RequestContext,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ slug }, dto), context);
  }

  @Put('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateBySlugByPut(
    @Param('slug') slug: string,
    @Body() dto: UpdateCategoryDto,
    @RequestContext() context: RequestContext,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ slug }, dto), context);
  }

  @Patch('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermUpdateDocs('category', CategoryResponse)
  async updateBySlugByPatch(
    @Param('slug') slug: string,
    @Body() dto: UpdateCategoryDto,
    @RequestContext() context: RequestContext,
  ): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.update({ slug }, dto), context);
  }

  @Delete('by-slug/:slug')
  @HttpCode(200)
  @RequireCapability('manage_terms', TERM_WRITE_ACCESS)
  @TermSlugParam()
  @TermDeleteDocs('category', CategoryResponse)
  async removeBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<CategoryResponse> {
    return toCategoryResponse(await this.categories.remove({ slug }), context);
  }
}
