import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsObject } from 'class-validator';
import { ATTENDEE_FIELD_TYPES, type AttendeeFieldType } from '../attendee-fields';

/** One attendee question of a ticket (Event Tickets Plus: an attendee information field). */
@ApiSchema({ name: 'AttendeeInformationField' })
export class AttendeeInformationField {
  @ApiProperty({ enum: ATTENDEE_FIELD_TYPES, description: 'checkbox takes several options; select and radio one' })
  type: AttendeeFieldType;
  @ApiProperty({ example: 'T-shirt size' }) label: string;
  @ApiProperty({ example: 't-shirt-size', description: 'Key of the answer; from the label when not given' }) slug: string;
  @ApiProperty() required: boolean;
  @ApiProperty({ type: [String], description: 'select, radio and checkbox: the choices; [] for the others' }) options: string[];
  @ApiProperty({ description: 'Help text shown with the question' }) description: string;
}

/** Body of PUT|PATCH /attendees/{id}/information. */
@ApiSchema({ name: 'AttendeeInformationUpdate' })
export class UpdateAttendeeInformationDto {
  @ApiProperty({
    description: "The attendee's answers by field slug; they replace the stored ones and are checked as at checkout",
    type: 'object',
    additionalProperties: true,
    example: { 't-shirt-size': 'M', email: 'ada@example.org' },
  })
  @IsDefined()
  @IsObject({ message: 'information must be an object of answers by field slug' })
  information: Record<string, unknown>;
}
