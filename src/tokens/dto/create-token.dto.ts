import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ToBoolean, ToInteger, ToIntList, ToList, Trimmed } from '../../common/http/transforms';
import { SCOPE_PRESETS, SCOPES } from '../../auth/scopes';

const MAX_ID = 2_147_483_647;

/** Body of POST /tokens. */
@ApiSchema({ name: 'ApiTokenCreate' })
export class CreateTokenDto {
  @ApiProperty({ description: 'What the token is for, shown in lists', maxLength: 100, example: 'Sales dashboard' })
  @IsDefined()
  @Trimmed()
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  name: string;

  @ApiPropertyOptional({
    description: 'Scopes as resource:action; with a preset, added to its scopes. Either scopes or preset is required.',
    type: [String],
    enum: SCOPES,
  })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'scopes must be a list of scopes' })
  @ArrayMaxSize(SCOPES.length, { message: `scopes holds at most ${SCOPES.length} scopes` })
  @IsIn(SCOPES, { each: true, message: `scopes must each be one of ${SCOPES.join(', ')}` })
  scopes?: string[];

  @ApiPropertyOptional({ description: 'A preset for a common job: its scopes', enum: Object.keys(SCOPE_PRESETS) })
  @IsOptional()
  @IsIn(Object.keys(SCOPE_PRESETS), { message: `preset must be one of ${Object.keys(SCOPE_PRESETS).join(', ')}` })
  preset?: string;

  @ApiPropertyOptional({ description: 'Every event the owner may act on (the default without limit_events)' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'all_events must be a boolean' })
  all_events?: boolean;

  @ApiPropertyOptional({ description: 'Only these events (ids); public content stays readable as to anyone', type: [Number] })
  @IsOptional()
  @ToIntList()
  @IsArray({ message: 'limit_events must be a list of event ids' })
  @ArrayMaxSize(100, { message: 'limit_events holds at most 100 ids' })
  @IsInt({ each: true, message: 'limit_events must be a list of event ids' })
  @Min(1, { each: true, message: 'limit_events must be a list of event ids' })
  @Max(MAX_ID, { each: true, message: 'limit_events must be a list of event ids' })
  limit_events?: number[];

  @ApiPropertyOptional({
    description: 'full: personal data as stored; redacted (default): emails, names and answers masked in every answer and export',
    enum: ['full', 'redacted'],
    default: 'redacted',
  })
  @IsOptional()
  @IsIn(['full', 'redacted'], { message: 'pii must be full or redacted' })
  pii?: 'full' | 'redacted';

  @ApiPropertyOptional({ description: 'When the token stops working (ISO 8601, in the future); none: never', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date and time' })
  expires_at?: string;

  @ApiPropertyOptional({ description: 'Addresses and CIDR ranges the token may be used from; none: any', type: [String] })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'allowed_ips must be a list of addresses or CIDR ranges' })
  @ArrayMaxSize(50, { message: 'allowed_ips holds at most 50 entries' })
  @IsString({ each: true, message: 'allowed_ips must be a list of addresses or CIDR ranges' })
  @MaxLength(43, { each: true, message: 'allowed_ips must be a list of addresses or CIDR ranges' })
  allowed_ips?: string[];

  @ApiPropertyOptional({ description: 'Administrators: the user the token acts as (default: the caller)' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'owner must be a user id' })
  @Min(1, { message: 'owner must be a user id' })
  @Max(MAX_ID, { message: 'owner must be a user id' })
  owner?: number;
}

/** Query of GET /tokens. */
@ApiSchema({ name: 'ApiTokenListQuery' })
export class ListTokensQuery {
  @ApiPropertyOptional({ description: 'Administrators: the tokens of this user only' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'owner must be a user id' })
  @Min(1, { message: 'owner must be a user id' })
  @Max(MAX_ID, { message: 'owner must be a user id' })
  owner?: number;

  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'page must be an integer of at least 1' })
  @Min(1, { message: 'page must be an integer of at least 1' })
  @Max(100_000, { message: 'page must be at most 100000' })
  page?: number;

  @ApiPropertyOptional({ default: 25, minimum: 1, maximum: 100 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'per_page must be an integer from 1 to 100' })
  @Min(1, { message: 'per_page must be an integer from 1 to 100' })
  @Max(100, { message: 'per_page must be an integer from 1 to 100' })
  per_page?: number;
}
