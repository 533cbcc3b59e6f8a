import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean } from '../../common/http/transforms';
import { PlainText, TitleText } from '../../common/security/text-sanitizing';
import { LinkedPostFieldsDto, UnlessEmpty } from '../../linked-posts/linked-post-fields.dto';

/** Coordinates arrive as numbers or, from forms, as strings; `""` clears them. */
const ToCoordinate = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === '') return null;
    if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return Number(value);
    return value;
  });

/** Fields of a venue on create; `venue`, the name, is required. */
@ApiSchema({ name: 'VenueCreate' })
export class CreateVenueDto extends LinkedPostFieldsDto {
  @ApiProperty({ type: String, description: 'Name of the venue', maxLength: 255, example: 'Loopback Hall' })
  @IsDefined()
  @IsString()
  @Matches(/\S/, { message: 'venue must not be empty' })
  @MaxLength(255)
  @TitleText()
  venue: string;

  @ApiPropertyOptional({ type: String, description: 'Street address. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  address?: string | null;

  @ApiPropertyOptional({ type: String, description: 'City. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  city?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Country. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  country?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Province. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  province?: string | null;

  @ApiPropertyOptional({ type: String, description: 'State. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  state?: string | null;

  @ApiPropertyOptional({
    type: String,
    description: 'State or province as shown; when omitted it follows `state`, else `province`. "" clears it.',
    maxLength: 255,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  stateprovince?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Postal code. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  zip?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Telephone. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @PlainText()
  phone?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Website: an absolute http(s) URL. "" clears it.', maxLength: 500, nullable: true })
  @IsOptional()
  @IsString()
  @UnlessEmpty()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'website must be an absolute http(s) URL' },
  )
  @MaxLength(500)
  website?: string | null;

  @ApiPropertyOptional({ description: 'Whether events at this venue show a map ("true"/"false" accepted)', default: true, type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  show_map?: boolean | null;

  @ApiPropertyOptional({
    description: 'Whether events at this venue show a map link ("true"/"false" accepted)',
    default: true,
    type: Boolean,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  show_map_link?: boolean | null;

  @ApiPropertyOptional({
    description: 'Latitude, -90 to 90 (7 decimals kept). "" clears it.',
    minimum: -90,
    maximum: 90,
    type: Number,
    nullable: true,
  })
  @IsOptional()
  @ToCoordinate()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'geo_lat must be a latitude between -90 and 90' })
  @Min(-90, { message: 'geo_lat must be a latitude between -90 and 90' })
  @Max(90, { message: 'geo_lat must be a latitude between -90 and 90' })
  geo_lat?: number | null;

  @ApiPropertyOptional({
    description: 'Longitude, -180 to 180 (7 decimals kept). "" clears it.',
    minimum: -180,
    maximum: 180,
    type: Number,
    nullable: true,
  })
  @IsOptional()
  @ToCoordinate()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'geo_lng must be a longitude between -180 and 180' })
  @Min(-180, { message: 'geo_lng must be a longitude between -180 and 180' })
  @Max(180, { message: 'geo_lng must be a longitude between -180 and 180' })
  geo_lng?: number | null;
}
