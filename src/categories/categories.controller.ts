import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { createTermController } from '../terms/term.controller';
import { CategoryResponse } from '../terms/term-response.dto';
import { CategoriesService } from './categories.service';
import { CategoryListResponse } from './dto/category-list.response';
import { CreateCategoryDto } from './dto/create-category.dto';
import { ListCategoriesQuery } from './dto/list-categories.query';
import { UpdateCategoryDto } from './dto/update-category.dto';

/** The category routes: the shape categories and tags share (term.controller.ts) with the category classes. */
@ApiTags('events')
@Controller('events/v1/categories')
export class CategoriesController extends createTermController({
  kind: 'category',
  service: CategoriesService,
  listQuery: ListCategoriesQuery,
  createBody: CreateCategoryDto,
  updateBody: UpdateCategoryDto,
  response: CategoryResponse,
  listResponse: CategoryListResponse,
}) {}
