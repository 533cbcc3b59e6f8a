import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { RequestContext } from '../auth/request-context';
import { BuyerIdentity } from '../cart/buyer-identity';
import { CART_COOKIE, CART_TOKEN_HEADER } from '../cart/cart-identity';
import { RouteIdPipe } from '../common/http/route-params';
import { OrderResponse } from '../orders/dto/order.response';
import { PaymentEventsService } from './payment-events.service';
import { RequireScope } from '../auth/scope-decorators';

@ApiTags('tickets')
@Controller('tickets/v1/orders/:id/payment/capture')
export class PaymentCaptureController {
  constructor(private readonly events: PaymentEventsService) {}

  @Post()
  @RequireScope('orders:write')
  @HttpCode(200)
  @ApiParam({ name: 'id', description: 'Order id', schema: { type: 'integer' } })
  @ApiHeader({
    name: CART_TOKEN_HEADER,
    required: false,
    description: `Anonymous buyers: the cart token their orders were placed with (or the ${CART_COOKIE} cookie)`,
  })
  @ApiOperation({
    summary:
      "The buyer approved the order's payment at the provider (PayPal's onApprove): the service captures it and completes the order; its buyer or a manager of any of its events",
    description:
      "For providers whose buyer approves and the merchant then takes the money (paypal). A payment captured already answers the order as it is. The provider's own approval webhook captures as well; the capture counts once.",
  })
  @ApiOkResponse({
    type: OrderResponse,
    description: 'The order after the capture (completed, or refunded when paid after its hold lapsed and its tickets are gone)',
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @ApiNotFoundResponse({ description: 'order-not-found: no such order, or one the caller may not see (ids cannot be probed)' })
  @ApiConflictResponse({
    description:
      'payment-not-capturable: the order has no payment the service captures (paid by hand, or through Stripe), or is no longer pending; payment-not-approved: the buyer has not approved it at the provider; payment-provider-refused',
  })
  @ApiServiceUnavailableResponse({ description: 'payment-provider-unavailable: the provider did not answer; nothing was taken, retry' })
  capture(
    @Param('id', RouteIdPipe) id: number,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<OrderResponse> {
    return this.events.captureForBuyer(id, buyer, context);
  }
}
