import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CART_COOKIE, CART_TOKEN_HEADER } from '../cart/cart-identity';
import { BuyerIdentity } from '../cart/buyer-identity';
import { RouteIdPipe } from '../common/http/route-params';
import { ResendResponse } from './dto/resend.response';
import { EmailsService } from './emails.service';
import { RequireScope } from '../auth/scope-decorators';

const CART_TOKEN_REQUEST_HEADER = ApiHeader({
  name: CART_TOKEN_HEADER,
  required: false,
  description: `Anonymous buyers: the cart token their order was placed with (or the ${CART_COOKIE} cookie)`,
});

@ApiTags('tickets')
@Controller('tickets/v1')
export class ResendController {
  constructor(private readonly emails: EmailsService) {}

  @Post('orders/:id/resend')
  @RequireScope('orders:write')
  @HttpCode(202)
  @ApiParam({ name: 'id', description: 'Order id', schema: { type: 'integer' } })
  @CART_TOKEN_REQUEST_HEADER
  @ApiOperation({
    summary:
      "Send the order's email again (confirmation with tickets, or its cancellation or refund notice): its buyer, or a manager of all its events",
  })
  @ApiAcceptedResponse({ type: ResendResponse })
  @ApiUnauthorizedResponse({ description: 'rest_forbidden (anonymous without a cart token) or incorrect_password' })
  @ApiForbiddenResponse({ description: 'rest_forbidden: a manager of only some of its events' })
  @ApiNotFoundResponse({ description: 'order-not-found: no such order, or one the caller may not see' })
  @ApiConflictResponse({ description: 'order-invalid-status: pending or expired orders have no email to send again' })
  async resendOrder(@Param('id', RouteIdPipe) id: number, @BuyerIdentity() buyer: BuyerIdentity): Promise<ResendResponse> {
    return { queued: await this.emails.resendOrder(id, buyer) };
  }

  @Post('attendees/:id/resend')
  @RequireScope('attendees:write')
  @HttpCode(202)
  @ApiParam({ name: 'id', description: 'Attendee id', schema: { type: 'integer' } })
  @CART_TOKEN_REQUEST_HEADER
  @ApiOperation({ summary: "Send an attendee's ticket again, to the attendee's address: managers of its event, or the buyer of its order" })
  @ApiAcceptedResponse({ type: ResendResponse })
  @ApiUnauthorizedResponse({ description: 'rest_forbidden (anonymous without a cart token) or incorrect_password' })
  @ApiNotFoundResponse({ description: 'attendee-not-found: no such attendee, or one the caller may not see' })
  @ApiConflictResponse({ description: 'attendee-invalid-status: its order is not completed (or an RSVP "not going")' })
  async resendAttendee(@Param('id', RouteIdPipe) id: number, @BuyerIdentity() buyer: BuyerIdentity): Promise<ResendResponse> {
    return { queued: await this.emails.resendAttendee(id, buyer) };
  }
}
