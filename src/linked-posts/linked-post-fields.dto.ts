import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { FixedOffsetZone } from 'luxon';
import { parseDateInput } from '../common/dates/date-input';
import { ToInteger } from '../common/http/transforms';
import { POST_STATUSES, PostStatus } from '../posts/post-status';
import { PlainText, RichTextLimits, TitleText } from '../common/security/text-sanitizing';

/** Skips the validators that follow for `""`, which clears a field (or, for dates, leaves it as it is). */
export const UnlessEmpty = () => ValidateIf((_object, value) => value !== '');

/** A date `parseDateInput` reads; whether it parses does not depend on the zone it is read in. */
export function IsDateInput(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isDateInput',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must be a date: YYYY-MM-DD HH:MM:SS, ISO 8601 or a unix timestamp', ...options },
      validator: { validate: (value: unknown) => parseDateInput(value, FixedOffsetZone.utcInstance) !== null },
    });
}

// The field decorators below list their rules bottom-up, the order stacked decorators run in: a
// field's first failing rule, which names it in a 400, stays the one it was when they were stacked.

/** The resource's name (`venue`, `organizer`): required, a title of up to 255 characters. */
export const LinkedPostName = (noun: string, example: string) =>
  applyDecorators(
    TitleText(),
    MaxLength(255),
    Matches(/\S/, { message: `${noun} must not be empty` }),
    IsString(),
    IsDefined(),
    ApiProperty({ type: String, description: `Name of the ${noun}`, maxLength: 255, example }),
  );

/** Optional plain text of up to `maxLength` characters (an address part, a telephone, an event's note); `""` clears it. */
export const OptionalPlainText = (description: string, maxLength = 255) =>
  applyDecorators(
    PlainText(maxLength),
    MaxLength(maxLength),
    IsString(),
    IsOptional(),
    ApiPropertyOptional({ type: String, description, maxLength, nullable: true }),
  );

/** An optional absolute http(s) URL of up to 500 characters (`image`, `website`); `""` clears it. */
export const OptionalHttpUrl = (field: string, description: string) =>
  applyDecorators(
    MaxLength(500),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
      { message: `${field} must be an absolute http(s) URL` },
    ),
    UnlessEmpty(),
    IsString(),
    IsOptional(),
    ApiPropertyOptional({ type: String, description, maxLength: 500, nullable: true }),
  );

/** The telephone of a venue or an organizer. */
export const ContactPhone = () => OptionalPlainText('Telephone. "" clears it.');

/** The website of a venue or an organizer. */
export const ContactWebsite = () => OptionalHttpUrl('website', 'Website: an absolute http(s) URL. "" clears it.');

/**
 * Fields venues and organizers share on create. Each resource adds its name and
 * its own fields. Unlike events, `""` is accepted here and clears the field. JSON `null` passes
 * `@IsOptional`: it clears text fields like `""` and counts as not sent for the others
 * (author, status, slug, dates, flags).
 */
export class LinkedPostFieldsDto {
  @ApiPropertyOptional({ type: String, description: 'Description (HTML; unsafe markup is removed). "" clears it.', nullable: true })
  @IsOptional()
  @IsString()
  @RichTextLimits('description')
  description?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Short summary (HTML). "" clears it.', nullable: true })
  @IsOptional()
  @IsString()
  @RichTextLimits('excerpt')
  excerpt?: string | null;

  @ApiPropertyOptional({
    type: String,
    description: 'URL-friendly name; made from the name when omitted or "", made unique with -2, -3...',
    maxLength: 190,
  })
  @IsOptional()
  @IsString()
  @MaxLength(190)
  slug?: string | null;

  @ApiPropertyOptional({
    type: String,
    description: 'Publication status. Callers who cannot publish get pending instead of publish.',
    enum: POST_STATUSES,
  })
  @IsOptional()
  @IsIn(POST_STATUSES, { message: `status must be one of ${POST_STATUSES.join(', ')}` })
  status?: PostStatus | null;

  @OptionalHttpUrl('image', 'Image: an absolute http(s) URL. "" removes it.')
  image?: string | null;

  @ApiPropertyOptional({ description: 'Author user id; only editors and administrators may name another user.', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'author must be a user id' })
  @Min(1, { message: 'author must be a user id' })
  author?: number | null;

  @ApiPropertyOptional({
    type: String,
    description: 'Publication date in the site time zone (YYYY-MM-DD HH:MM:SS); wins over date_utc. "" is ignored.',
  })
  @IsOptional()
  @UnlessEmpty()
  @IsDateInput()
  date?: string | number | null;

  @ApiPropertyOptional({ type: String, description: 'Publication date in UTC (YYYY-MM-DD HH:MM:SS). "" is ignored.' })
  @IsOptional()
  @UnlessEmpty()
  @IsDateInput()
  date_utc?: string | number | null;
}
