import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The signed-in user as WordPress's `GET /wp/v2/users/me` shows it. */
@ApiSchema({ name: 'WpUser' })
export class WpUserResponse {
  @ApiProperty() id: number;
  @ApiPropertyOptional({ description: 'context=edit only' }) username?: string;
  @ApiProperty({ description: 'Display name (the login when none)' }) name: string;
  @ApiProperty({ example: '' }) url: string;
  @ApiProperty({ example: '' }) description: string;
  @ApiProperty({ description: 'Author archive URL' }) link: string;
  @ApiProperty() slug: string;
  @ApiPropertyOptional({ description: 'context=edit only' }) email?: string;
  @ApiPropertyOptional({ type: [String], description: 'context=edit only', example: ['administrator'] }) roles?: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} }) avatar_urls: Record<string, string>;
}

/** The site settings as WordPress's `GET /wp/v2/settings` shows them (the part a client needs). */
@ApiSchema({ name: 'WpSettings' })
export class WpSettingsResponse {
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'Site URL' }) url: string;
  @ApiProperty({ example: 'Europe/Athens' }) timezone: string;
  @ApiProperty({ example: 'F j, Y' }) date_format: string;
  @ApiProperty({ example: 'g:i a' }) time_format: string;
  @ApiProperty({ example: 1 }) start_of_week: number;
  @ApiProperty({ example: 'en_US' }) language: string;
  @ApiProperty({ description: 'Hours from UTC now' }) gmt_offset: number;
  @ApiProperty() timezone_string: string;
}
