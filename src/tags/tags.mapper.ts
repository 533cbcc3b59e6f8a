import type { RequestContext } from '../common/http/request-context';
import { TagResponse } from '../common/terms/term-response.dto';
import { CountedTerm, TermListPage, toTermListResponse, toTermResponse } from '../common/terms/term-response';
import type { TagListResponse } from './dto/tag-list.response';
import type { Tag } from './tag.entity';

export function toTagResponse({ term, count }: CountedTerm<Tag>, context: RequestContext): TagResponse {
  return toTermResponse(term, 'tag', count, context);
}

export function toTagListResponse(page: TermListPage<Tag>, context: RequestContext): TagListResponse {
  return toTermListResponse(page, 'tag', context) as TagListResponse;
}
