import type { RequestContext } from '../auth/request-context';
import { TagResponse } from '../terms/term-response.dto';
import { CountedTerm, TermListPage, toTermListResponse, toTermResponse } from '../terms/term-response';
import type { TagListResponse } from './dto/tag-list.response';
import type { Tag } from './tag.entity';

export function toTagResponse({ term, count }: CountedTerm<Tag>, context: RequestContext): TagResponse {
  return toTermResponse(term, 'tag', count, context);
}

export function toTagListResponse(page: TermListPage<Tag>, context: RequestContext): TagListResponse {
  return toTermListResponse(page, 'tag', context) as TagListResponse;
}
