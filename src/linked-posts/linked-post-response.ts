import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { RequestContext } from '../auth/request-context';
import { postBaseFields } from '../posts/post-response';
import type { PostEntity } from '../posts/post.entity-base';
import { plainText, renderParagraphs } from '../posts/rich-text';
import type { LinkedPostType } from './linked-post-resource';

/** One resized copy of an image, as the original's media library describes it. */
@ApiSchema({ name: 'ImageSize' })
export class ImageSizeResponse {
  @ApiProperty({ type: 'integer', description: 'The image width in pixels in this size' })
  width: number;

  @ApiProperty({ type: 'integer', description: 'The image height in pixels in this size' })
  height: number;

  @ApiProperty({ name: 'mime-type', description: 'The image mime-type', example: 'image/jpeg' })
  'mime-type': string;

  @ApiProperty({ description: 'The link to the image in this size', format: 'uri' })
  url: string;
}

/** The image object of the original, for an image given as a URL (no media library stands behind it). */
@ApiSchema({ name: 'Image' })
@ApiExtraModels(ImageSizeResponse)
export class PostImageResponse {
  @ApiProperty({ description: 'Image URL' })
  url: string;

  @ApiProperty({ description: 'Attachment id; 0, images are URLs' })
  id: number;

  @ApiProperty({ description: 'File extension taken from the URL', example: 'jpg' })
  extension: string;

  @ApiProperty({ description: 'Unknown: 0' })
  width: number;

  @ApiProperty({ description: 'Unknown: 0' })
  height: number;

  @ApiProperty({
    description: 'Resized copies by size name (`thumbnail`, `medium`...): none here, images are URLs',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ImageSizeResponse) },
  })
  sizes: Record<string, ImageSizeResponse>;
}

export function toPostImage(url: string | null): PostImageResponse | false {
  if (!url) return false;
  const extension = /\.([a-z0-9]{2,5})(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return { url, id: 0, extension, width: 0, height: 0, sizes: {} };
}

/** Fields every post response starts with (`postBaseFields`), for the OpenAPI document. */
export class PostBaseResponse {
  @ApiProperty({ example: 4 })
  id: number;

  @ApiPropertyOptional({ description: 'Author user id, as a string; omitted when there is none', example: '1' })
  author?: string;

  @ApiProperty({ example: 'publish' })
  status: string;

  @ApiProperty({ description: 'Publication date, site time zone', example: '2026-11-21 22:42:43' })
  date: string;

  @ApiProperty({ description: 'Publication date, UTC', example: '2026-11-21 22:42:43' })
  date_utc: string;

  @ApiProperty({ description: 'Last modification, site time zone', example: '2026-11-21 22:42:43' })
  modified: string;

  @ApiProperty({ description: 'Last modification, UTC', example: '2026-11-21 22:42:43' })
  modified_utc: string;

  @ApiProperty({ description: 'Permalink of the post on the site' })
  url: string;
}

/**
 * The optional fields venues and organizers share after the base ones, for the OpenAPI document.
 * Their name and slug, which are required, stay in each class, so that `required` lists them in the order of the body.
 */
export class LinkedPostResponse extends PostBaseResponse {
  @ApiPropertyOptional({ description: 'Description, as HTML paragraphs' })
  description?: string;

  @ApiPropertyOptional({ description: 'Summary, as HTML paragraphs' })
  excerpt?: string;

  @ApiPropertyOptional({ type: PostImageResponse })
  image?: PostImageResponse;
}

/** The fields a venue or an organizer starts with, in the original's key order; the name is keyed by the type. */
export function linkedPostHeadFields(post: PostEntity, type: LinkedPostType, context: RequestContext) {
  return {
    ...postBaseFields(post, type, context),
    [type]: post.title,
    description: renderParagraphs(post.description),
    excerpt: renderParagraphs(post.excerpt),
    slug: post.slug,
    image: toPostImage(post.image),
  };
}

/** The schema.org object of a venue (`Place`) or an organizer (`Person`) up to its image; each adds the rest. */
export function linkedPostJsonLd(post: PostEntity, schemaType: 'Place' | 'Person'): Record<string, unknown> {
  const jsonLd: Record<string, unknown> = {
    '@type': schemaType,
    name: post.title,
    description: plainText(post.excerpt || post.description),
  };
  const image = toPostImage(post.image);
  if (image) jsonLd.image = image.url;
  return jsonLd;
}

/** The page fields of a list of venues or organizers, which follow the posts themselves. */
export function LinkedPostPageResponse(plural: 'Venues' | 'Organizers') {
  class LinkedPostPage {
    @ApiProperty({ description: 'This page, with the effective query' })
    rest_url: string;

    @ApiPropertyOptional({ description: 'The next page, when there is one' })
    next_rest_url?: string;

    @ApiPropertyOptional({ description: 'The previous page, when there is one' })
    previous_rest_url?: string;

    @ApiProperty({ description: `${plural} matching the query (also in X-TEC-Total)` })
    total: number;

    @ApiProperty({ description: 'Pages (also in X-TEC-TotalPages)' })
    total_pages: number;
  }
  return LinkedPostPage;
}
