import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { ContactPhone, ContactWebsite, LinkedPostFieldsDto, LinkedPostName, UnlessEmpty } from '../../linked-posts/linked-post-fields.dto';

/** Fields of an organizer on create; `organizer`, the name, is required. */
@ApiSchema({ name: 'OrganizerCreate' })
export class CreateOrganizerDto extends LinkedPostFieldsDto {
  @LinkedPostName('organizer', 'Ref Organizer')
  organizer: string;

  @ContactPhone()
  phone?: string | null;

  @ContactWebsite()
  website?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Email address. "" clears it.', maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @UnlessEmpty()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(255)
  email?: string | null;
}
