import { applyDecorators, Body, Controller, HttpCode, Param, Patch, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AttendeeResponse } from '../attendees/dto/attendee.response';
import { RequestContext } from '../auth/request-context';
import { BuyerIdentity } from '../cart/buyer-identity';
import { CART_TOKEN_HEADER } from '../cart/cart-identity';
import { RouteIdPipe } from '../common/http/route-params';
import { AttendeeQuestionsService } from './attendee-questions.service';
import { UpdateAttendeeInformationDto } from './dto/attendee-information.dto';
import { RequireScope } from '../auth/scope-decorators';

const EditDocs = () =>
  applyDecorators(
    HttpCode(200),
    ApiParam({ name: 'id', description: 'Attendee id', schema: { type: 'integer' } }),
    ApiHeader({ name: CART_TOKEN_HEADER, required: false, description: 'Anonymous buyers: the cart token the order was placed with' }),
    ApiOperation({
      summary:
        "Replace an attendee's answers to its ticket's questions: the event's managers any time, the buyer until ATTENDEE_EDIT_CUTOFF_HOURS before the event",
    }),
    ApiOkResponse({ type: AttendeeResponse, description: 'The attendee with its `information`' }),
    ApiBadRequestResponse({
      description:
        'rest_invalid_param: information is not an object, or attendee_information[<ticket>][<attendee>][<slug>] missing or wrong',
    }),
    ApiUnauthorizedResponse({ description: 'rest_forbidden: anonymous without the cart token of the order, or incorrect_password' }),
    ApiForbiddenResponse({ description: 'attendee-edit-forbidden: neither the buyer nor a manager of the event' }),
    ApiNotFoundResponse({ description: 'attendee-not-found' }),
    ApiConflictResponse({ description: 'attendee-edit-closed: the buyer is past the cutoff before the event' }),
  );

@ApiTags('tickets')
@Controller('tickets/v1/attendees')
export class AttendeeInformationController {
  constructor(private readonly questions: AttendeeQuestionsService) {}

  @Put(':id/information')
  @RequireScope('attendees:write')
  @EditDocs()
  replaceInformation(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateAttendeeInformationDto,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<AttendeeResponse> {
    return this.questions.updateInformation(id, body.information, buyer, context);
  }

  @Patch(':id/information')
  @RequireScope('attendees:write')
  @EditDocs()
  updateInformation(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateAttendeeInformationDto,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<AttendeeResponse> {
    return this.questions.updateInformation(id, body.information, buyer, context);
  }
}
