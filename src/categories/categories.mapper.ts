import type { RequestContext } from '../auth/request-context';
import { CategoryResponse } from '../terms/term-response.dto';
import { CountedTerm, TermListPage, toTermListResponse, toTermResponse } from '../terms/term-response';
import type { Category } from './category.entity';
import type { CategoryListResponse } from './dto/category-list.response';

export function toCategoryResponse({ term, count }: CountedTerm<Category>, context: RequestContext): CategoryResponse {
  return toTermResponse(term, 'category', count, context) as CategoryResponse;
}

export function toCategoryListResponse(page: TermListPage<Category>, context: RequestContext): CategoryListResponse {
  return toTermListResponse(page, 'category', context) as CategoryListResponse;
}
