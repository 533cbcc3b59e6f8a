import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { ToBoolean } from '../../common/http/transforms';
import {
  ContactPhone,
  ContactWebsite,
  LinkedPostFieldsDto,
  LinkedPostName,
  OptionalPlainText,
} from '../../linked-posts/linked-post-fields.dto';

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
  @LinkedPostName('venue', 'Loopback Hall')
  venue: string;

  @OptionalPlainText('Street address. "" clears it.')
  address?: string | null;

  @OptionalPlainText('City. "" clears it.')
  city?: string | null;

  @OptionalPlainText('Country. "" clears it.')
  country?: string | null;

  @OptionalPlainText('Province. "" clears it.')
  province?: string | null;

  @OptionalPlainText('State. "" clears it.')
  state?: string | null;

  @OptionalPlainText('State or province as shown; when omitted it follows `state`, else `province`. "" clears it.')
  stateprovince?: string | null;

  @OptionalPlainText('Postal code. "" clears it.')
  zip?: string | null;

  @ContactPhone()
  phone?: string | null;

  @ContactWebsite()
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
