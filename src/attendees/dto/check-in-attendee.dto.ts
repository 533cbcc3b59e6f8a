import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsDefined } from 'class-validator';
import { ToBoolean } from '../../common/http/transforms';

/** Body of POST|PUT|PATCH /attendees/{id}. */
@ApiSchema({ name: 'AttendeeCheckIn' })
export class CheckInAttendeeDto {
  /** true checks the attendee in, false undoes the check-in. */
  @ApiProperty({ description: 'true checks the attendee in; false undoes it (also "1"/"0", "yes"/"no")', type: Boolean })
  @ToBoolean()
  @IsDefined()
  @IsBoolean({ message: 'check_in must be a boolean' })
  check_in: boolean;
}
