import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { LowerCased, ToBoolean, ToInteger, ToIntList } from '../common/http/transforms';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../common/pagination/pagination';
import { MaxListValues } from '../common/security/list-limits';

export const TERM_ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export type TermOrderDirection = (typeof TERM_ORDER_DIRECTIONS)[number];

export const TERM_ORDER_FIELDS = ['id', 'name', 'slug', 'count'] as const;
export type TermOrderField = (typeof TERM_ORDER_FIELDS)[number];

/**
 * Query parameters of GET /categories and GET /tags (categories add `parent`). Each type check is
 * the decorator nearest its property: it is registered first, so its reason is the one reported.
 */
export class ListTermsQuery {
  @ApiPropertyOptional({ description: 'Page of the list', type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt()
  page?: number;

  @ApiPropertyOptional({
    description: `Terms per page; values above ${MAX_PER_PAGE} are clamped`,
    type: 'integer',
    minimum: 1,
    default: DEFAULT_PER_PAGE,
  })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt()
  per_page?: number;

  @ApiPropertyOptional({ description: 'Text contained in the name or the slug (case-insensitive)' })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  search?: string;

  @ApiPropertyOptional({
    description: 'Term ids to leave out, as an array or comma-separated; each must exist',
    type: 'integer',
    isArray: true,
  })
  @IsOptional()
  @ToIntList()
  @MaxListValues('exclude')
  @Min(1, { each: true })
  @IsInt({ each: true })
  exclude?: number[];

  @ApiPropertyOptional({
    description: 'Only these term ids, as an array or comma-separated; each must exist',
    type: 'integer',
    isArray: true,
  })
  @IsOptional()
  @ToIntList()
  @MaxListValues('include')
  @Min(1, { each: true })
  @IsInt({ each: true })
  include?: number[];

  @ApiPropertyOptional({ description: 'Sort direction', enum: TERM_ORDER_DIRECTIONS, default: 'asc' })
  @IsOptional()
  @LowerCased()
  @IsIn(TERM_ORDER_DIRECTIONS, { message: `order must be one of ${TERM_ORDER_DIRECTIONS.join(', ')}` })
  order?: TermOrderDirection;

  @ApiPropertyOptional({ description: 'Sort key', enum: TERM_ORDER_FIELDS, default: 'name' })
  @IsOptional()
  @LowerCased()
  @IsIn(TERM_ORDER_FIELDS, { message: `orderby must be one of ${TERM_ORDER_FIELDS.join(', ')}` })
  orderby?: TermOrderField;

  @ApiPropertyOptional({ description: 'Hide terms linked to no published event', type: 'boolean', default: true })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  hide_empty?: boolean;

  @ApiPropertyOptional({ description: 'Only terms linked to this event id (which must exist)', type: 'integer', minimum: 1 })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt()
  post?: number;

  @ApiPropertyOptional({ description: 'Alias of `post`; wins over it when both are sent', type: 'integer', minimum: 1 })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt()
  event?: number;

  @ApiPropertyOptional({ description: 'Exact slug' })
  @IsOptional()
  @IsNotEmpty({ message: 'slug must not be empty' })
  @MaxLength(200)
  @IsString()
  slug?: string;
}

/** Names of the list filters every term list takes, in the order they appear in page links. */
export const TERM_LIST_PARAMETERS = [
  'per_page',
  'search',
  'exclude',
  'include',
  'order',
  'orderby',
  'hide_empty',
  'post',
  'event',
  'slug',
] as const;
