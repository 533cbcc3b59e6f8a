import { Body, Controller, Headers, HttpCode, Post, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CART_COOKIE, CART_TOKEN_HEADER } from '../cart/cart-identity';
import { RequestContext } from '../auth/request-context';
import { CheckoutMetricsInterceptor } from '../metrics/checkout-metrics.interceptor';
import { CheckoutService } from './checkout.service';
import { CheckoutDto } from './dto/checkout.dto';
import { OrderResponse } from './dto/order.response';
import { readIdempotencyKey } from './idempotency.service';
import { BuyerIdentity, cartBuyer } from '../cart/buyer-identity';
import { RequireScope } from '../auth/scope-decorators';

@ApiTags('tickets')
@Controller('tickets/v1/cart/checkout')
export class CheckoutController {
  constructor(private readonly checkouts: CheckoutService) {}

  @Post()
  @RequireScope('orders:write')
  @HttpCode(201)
  @UseInterceptors(CheckoutMetricsInterceptor)
  @ApiHeader({ name: CART_TOKEN_HEADER, required: false, description: `Anonymous buyers: their cart token (or the ${CART_COOKIE} cookie)` })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 visible ASCII characters. A retry with the same key and body gets the first answer again (kept 24 h, per buyer); another body gets 422.',
  })
  @ApiOperation({
    summary: "Turn the caller's cart lines of one provider into an order and its attendees (beyond the original)",
    description:
      'One transaction: capacity is taken with conditional updates (never oversold), the order and one attendee per unit are created and the lines leave the cart. Free orders complete at once; paid ones stay pending, holding capacity, for ORDER_HOLD_MINUTES.',
  })
  @ApiCreatedResponse({
    type: OrderResponse,
    description: 'The order; Location names it. A replay (same Idempotency-Key) carries Idempotent-Replayed: true.',
  })
  @ApiBadRequestResponse({
    description:
      'cart-empty; rest_missing_callback_param (provider, purchaser, purchaser[name], purchaser[email]); rest_invalid_param (unknown provider, bad email, going on a paid checkout, attendees for tickets not in the cart, Idempotency-Key)',
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @ApiConflictResponse({ description: 'ticket-capacity-not-available: a ticket is not on sale or sold out' })
  @ApiUnprocessableEntityResponse({ description: 'idempotency-key-reused: the key came earlier with another body' })
  @ApiServiceUnavailableResponse({ description: 'database-busy: the checkout kept colliding with others; retry (Retry-After)' })
  async checkout(
    @Body() body: CheckoutDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrderResponse> {
    const result = await this.checkouts.checkout({
      buyer: cartBuyer(buyer),
      body,
      rawBody: response.req.body as unknown,
      idempotencyKey: readIdempotencyKey(idempotencyKey),
      context,
    });
    response.status(result.statusCode);
    response.setHeader('Location', context.namespaceUrl('tickets', `orders/${result.body.id}`));
    if (result.replayed) response.setHeader('Idempotent-Replayed', 'true');
    return result.body;
  }
}
