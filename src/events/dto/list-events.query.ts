import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean, ToInteger, ToIntList, ToList } from '../../common/http/transforms';
import { MaxListValues } from '../../common/security/list-limits';

const LIST = { style: 'form', explode: false } as const;

/** Query parameters of GET /events. Dates and lists are interpreted by the service. */
export class ListEventsQuery {
  @ApiPropertyOptional({ description: 'Page of the archive', default: 1, minimum: 1, type: 'integer' })
  @Allow()
  page?: string;

  @ApiPropertyOptional({ description: 'Events per page (above 100 is read as 100)', default: 25, minimum: 1, type: 'integer' })
  @Allow()
  per_page?: string;

  @ApiPropertyOptional({
    description: 'Events that start on or after this date (site time zone; from 00:00:00 of its day). Default: start of today.',
    example: '2027-01-01 00:00:00',
  })
  @Allow()
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Events that end on or before this date (site time zone; until 23:59:59 of its day). Default: 24 months from now.',
    example: '2027-12-31 23:59:59',
  })
  @Allow()
  end_date?: string;

  @ApiPropertyOptional({ description: 'Text in the title, description or excerpt' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: 'Events in any of these categories (ids or slugs)', type: [String], ...LIST })
  @IsOptional()
  @ToList()
  @MaxListValues('categories')
  @Allow()
  categories?: Array<string | number>;

  @ApiPropertyOptional({ description: 'Events with any of these tags (ids or slugs)', type: [String], ...LIST })
  @IsOptional()
  @ToList()
  @MaxListValues('tags')
  @Allow()
  tags?: Array<string | number>;

  @ApiPropertyOptional({ description: 'Events at any of these venue ids', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('venue')
  @IsInt({ each: true, message: 'venue must hold venue ids' })
  @Min(1, { each: true, message: 'venue must hold venue ids' })
  venue?: number[];

  @ApiPropertyOptional({ description: 'Events of any of these organizer ids', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('organizer')
  @IsInt({ each: true, message: 'organizer must hold organizer ids' })
  @Min(1, { each: true, message: 'organizer must hold organizer ids' })
  organizer?: number[];

  @ApiPropertyOptional({ description: 'true: featured events only; false: the others', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  featured?: boolean;

  @ApiPropertyOptional({ description: 'Post status (anonymous callers: publish only); a comma-separated list for signed-in callers' })
  @IsOptional()
  @Allow()
  status?: string;

  @ApiPropertyOptional({ description: 'Only events whose venue has coordinates', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  geoloc?: boolean;

  @ApiPropertyOptional({
    description: 'Latitude of a point: events whose venue lies within GEOLOC_RADIUS_KM, nearest first. Needs geoloc_lng.',
    type: Number,
  })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'geoloc_lat must be a number' })
  @Min(-90)
  @Max(90)
  geoloc_lat?: number;

  @ApiPropertyOptional({ description: 'Longitude of the point. Needs geoloc_lat.', type: Number })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'geoloc_lng must be a number' })
  @Min(-180)
  @Max(180)
  geoloc_lng?: number;

  @ApiPropertyOptional({ description: 'Only these event ids; the date window is ignored', type: [Number], ...LIST })
  @IsOptional()
  @ToIntList()
  @MaxListValues('include')
  @IsInt({ each: true, message: 'include must hold event ids' })
  @Min(1, { each: true, message: 'include must hold event ids' })
  include?: number[];

  @ApiPropertyOptional({ description: 'Only children of this event', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'post_parent must be an event id' })
  @Min(1, { message: 'post_parent must be an event id' })
  post_parent?: number;

  @ApiPropertyOptional({
    description: 'Only occurrences of this series (its id is each occurrence’s series_id); the date window still applies',
    type: 'integer',
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'series must be a series id' })
  @Min(1, { message: 'series must be a series id' })
  series?: number;
}
