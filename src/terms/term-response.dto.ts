import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'TermUrls' })
export class TermUrlsResponse {
  @ApiProperty({ description: 'This term in the events namespace', example: 'https://example.org/cal/events/v1/categories/7' })
  self: string;

  @ApiProperty({ description: 'The collection of this kind of term', example: 'https://example.org/cal/events/v1/categories' })
  collection: string;

  @ApiPropertyOptional({
    description: 'The parent category, only when there is one',
    example: 'https://example.org/cal/events/v1/categories/3',
  })
  up?: string;
}

/** An event tag as the term routes return it. */
@ApiSchema({ name: 'Term' })
export class TagResponse {
  @ApiProperty({ example: 7 })
  id: number;

  @ApiProperty({ description: 'Number of published events linked to the term', example: 2 })
  count: number;

  @ApiProperty({ description: 'Description ("" when none)' })
  description: string;

  @ApiProperty({ example: 'Workshops' })
  name: string;

  @ApiProperty({ example: 'workshops' })
  slug: string;

  @ApiProperty({ description: '`{API_PREFIX}_events_cat` for categories, `post_tag` for tags', example: 'cal_events_cat' })
  taxonomy: string;

  @ApiProperty({ description: 'Always empty', type: 'array', items: {}, example: [] })
  meta: never[];

  @ApiProperty({ description: 'Front-end permalink of the term', example: 'https://example.org/events/category/workshops/' })
  url: string;

  @ApiProperty({ type: TermUrlsResponse })
  urls: TermUrlsResponse;
}

/** An event category as the term routes return it: a tag's fields plus `parent`. */
@ApiSchema({ name: 'Category' })
export class CategoryResponse extends TagResponse {
  @ApiProperty({ description: 'Parent category id, 0 for a top-level category', example: 0 })
  parent: number;
}

export type TermResponse = CategoryResponse | TagResponse;

/** A category or tag as an event embeds it, with WordPress's term fields. */
@ApiSchema({ name: 'EmbeddedTerm' })
export class EmbeddedTermResponse {
  @ApiProperty({ example: 'Workshops' })
  name: string;

  @ApiProperty({ example: 'workshops' })
  slug: string;

  @ApiProperty({ description: 'Always 0', example: 0 })
  term_group: number;

  @ApiProperty({ description: 'Same as `id`', example: 7 })
  term_taxonomy_id: number;

  @ApiProperty({ example: 'cal_events_cat' })
  taxonomy: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ description: 'Parent category id; 0 for top-level categories and for tags', example: 0 })
  parent: number;

  @ApiProperty({ description: 'Number of published events linked to the term', example: 1 })
  count: number;

  @ApiProperty({ enum: ['raw'], example: 'raw' })
  filter: 'raw';

  @ApiProperty({ example: 7 })
  id: number;

  @ApiProperty({ type: TermUrlsResponse })
  urls: TermUrlsResponse;
}

/** The page fields of a list of categories or tags; the terms themselves are the subclass's. */
export function TermPageResponse(plural: 'categories' | 'tags') {
  class TermPage {
    @ApiProperty({ description: 'This page of the list, with its effective query' })
    rest_url: string;

    @ApiProperty({ description: `Number of matching ${plural}` })
    total: number;

    @ApiProperty({ description: 'Number of pages (0 when nothing matches)' })
    total_pages: number;

    @ApiPropertyOptional({ description: 'The next page, when there is one' })
    next_rest_url?: string;

    @ApiPropertyOptional({ description: 'The previous page, when there is one' })
    previous_rest_url?: string;
  }
  return TermPage;
}
