import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { AttendeesService } from './attendees.service';
import { QrCheckInResponse } from './dto/attendee.response';
import { QrCheckInDto } from './dto/qr-check-in.dto';
import { RequireScope } from '../auth/scope-decorators';

@ApiTags('tickets')
@Controller('tickets/v1/qr')
export class QrController {
  constructor(private readonly attendees: AttendeesService) {}

  @Post()
  @RequireScope('checkin:write')
  @HttpCode(200)
  @RequireCapability('publish_events', { forbidden: 'rest_forbidden: the caller does not manage the attendee’s event' })
  @ApiOperation({
    summary: 'Check in the attendee holding a security code (the check-in app scanning a QR code); managers of the event only',
  })
  @ApiOkResponse({ type: QrCheckInResponse, description: '{msg: "Checked In!", attendee} with checkin_details source app' })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param (security_code) or rest_invalid_param' })
  @ApiNotFoundResponse({ description: 'attendee-not-found: no attendee holds this code' })
  @ApiConflictResponse({ description: 'attendee-already-checked-in or attendee-invalid-check-in' })
  async checkIn(@Body() body: QrCheckInDto, @RequestContext() context: SignedInContext): Promise<QrCheckInResponse> {
    const attendee = await this.attendees.checkInByCode(body.security_code, context.user, context);
    return { msg: 'Checked In!', attendee };
  }
}
