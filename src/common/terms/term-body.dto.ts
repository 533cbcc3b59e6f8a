import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsByteLength, IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** Term names are trimmed as WordPress does, so "  " counts as empty. */
const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export const TERM_NAME_MAX_LENGTH = 200;

/** Fields categories and tags share on create. */
export class CreateTermDto {
  @ApiProperty({ description: 'Name; unique (case-insensitive) within its level', maxLength: TERM_NAME_MAX_LENGTH })
  @IsDefined()
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(TERM_NAME_MAX_LENGTH)
  name: string;

  @ApiPropertyOptional({ description: 'Description. "" clears it.' })
  @IsOptional()
  @IsString()
  // A TEXT column holds 65,535 bytes, whatever the characters.
  @IsByteLength(0, 65535, { message: 'description must be at most 65535 bytes long' })
  description?: string;

  @ApiPropertyOptional({ description: 'URL-friendly name; made from the name when omitted, made unique with -2, -3...', maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'slug must not be empty' })
  @MaxLength(200)
  slug?: string;
}
