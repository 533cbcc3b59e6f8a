import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The image object of the original, for an image given as a URL (no media library stands behind it). */
@ApiSchema({ name: 'Image' })
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

  @ApiProperty({ description: 'Resized copies: none', type: 'object', additionalProperties: false })
  sizes: Record<string, never>;
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
