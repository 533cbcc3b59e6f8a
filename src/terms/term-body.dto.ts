import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { Trimmed } from '../common/http/transforms';
import { InlineHtmlText, PlainText, RichTextLimits } from '../common/security/text-sanitizing';

export const TERM_NAME_MAX_LENGTH = 200;

const NAME_DESCRIPTION = 'Name; unique (case-insensitive) among the terms of its level';

const TermNameRules = () =>
  applyDecorators(
    Trimmed(),
    PlainText(TERM_NAME_MAX_LENGTH),
    IsString(),
    IsNotEmpty({ message: 'name must not be empty' }),
    MaxLength(TERM_NAME_MAX_LENGTH),
  );

/** Validated whenever sent: `null` is refused like "" (a term always has a name and a slug). */
const ValidateIfSent = () => ValidateIf((_dto: object, value: unknown) => value !== undefined);

/** `name` of an update: optional, but never empty. */
export const OptionalTermName = () =>
  applyDecorators(
    ApiPropertyOptional({ description: NAME_DESCRIPTION, maxLength: TERM_NAME_MAX_LENGTH }),
    ValidateIfSent(),
    TermNameRules(),
  );

/** Fields categories and tags share on create (type checks nearest the property, see ListTermsQuery). */
export class CreateTermDto {
  @ApiProperty({ description: NAME_DESCRIPTION, maxLength: TERM_NAME_MAX_LENGTH })
  @IsDefined()
  @TermNameRules()
  name: string;

  @ApiPropertyOptional({
    description: 'Description; inline markup only (links, emphasis, code, quotes). "" or null clears it.',
    type: 'string',
    nullable: true,
  })
  @IsOptional()
  // A TEXT column holds 65,535 bytes, whatever the characters.
  @RichTextLimits('description')
  @IsString()
  @InlineHtmlText('description')
  description?: string | null;

  @ApiPropertyOptional({ description: 'URL-friendly name; made from the name when omitted, made unique with -2, -3...', maxLength: 200 })
  @ValidateIfSent()
  @Trimmed()
  @IsNotEmpty({ message: 'slug must not be empty' })
  @MaxLength(200)
  @IsString()
  slug?: string;
}
