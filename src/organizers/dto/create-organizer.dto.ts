import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { LinkedPostFieldsDto, UnlessEmpty } from '../../linked-posts/linked-post-fields.dto';
import { PlainText, TitleText } from '../../common/security/text-sanitizing';

/** Fields of an organizer on create; `organizer`, the name, is required. */
@ApiSchema({ name: 'OrganizerCreate' })
export class CreateOrganizerDto extends LinkedPostFieldsDto {
  @ApiProperty({ type: String, description: 'Name of the organizer', maxLength: 255, example: 'Ref Organizer' })
  @IsDefined()
  @IsString()
  @Matches(/\S/, { message: 'organizer must not be empty' })
  @MaxLength(255)
  @TitleText()
  organizer: string;

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

  @ApiPropertyOptional({ type: String, description: 'Email address. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @UnlessEmpty()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(255)
  email?: string | null;
}
