import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CART_COOKIE, CART_TOKEN_HEADER } from '../cart/cart-identity';
import { BuyerIdentity } from '../cart/buyer-identity';
import { RequestContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CompleteOrderDto } from './dto/complete-order.dto';
import { RefundOrderDto } from './dto/refund-order.dto';
import { ListOrdersQuery } from './dto/list-orders.query';
import { OrderListResponse, OrderResponse } from './dto/order.response';
import { OrdersService, SignedRequest } from './orders.service';
import { canonicalJson } from './webhook-signature';
import { RequireScope } from '../auth/scope-decorators';

const ID_PARAM = ApiParam({ name: 'id', description: 'Order id', schema: { type: 'integer' } });
const CART_TOKEN_REQUEST_HEADER = ApiHeader({
  name: CART_TOKEN_HEADER,
  required: false,
  description: `Anonymous buyers: the cart token their orders were placed with (or the ${CART_COOKIE} cookie)`,
});
const NOT_FOUND = ApiNotFoundResponse({
  description: 'order-not-found: no such order, or one the caller may not see (ids cannot be probed)',
});

/** The documentation shared by the cancel and refund routes. */
const OrderTransitionDocs = (summary: string, forbiddenDescription: string, ...extra: MethodDecorator[]) =>
  applyDecorators(
    HttpCode(200),
    ...extra,
    ID_PARAM,
    CART_TOKEN_REQUEST_HEADER,
    ApiOperation({ summary }),
    ApiOkResponse({ type: OrderResponse, description: 'The order after the change' }),
    ApiUnauthorizedResponse({ description: 'rest_forbidden (anonymous) or incorrect_password' }),
    ApiForbiddenResponse({ description: forbiddenDescription }),
    NOT_FOUND,
    ApiConflictResponse({ description: 'order-invalid-status: the order is not in a status this change applies to' }),
  );

@ApiTags('tickets')
@Controller('tickets/v1/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @RequireScope('orders:read')
  @HttpCode(200)
  @CART_TOKEN_REQUEST_HEADER
  @ApiOperation({
    summary: "List orders: every order for managers (manage_attendees), the caller's own (by user or cart token) for buyers",
  })
  @ApiOkResponse({ type: OrderListResponse, description: 'Headers X-ET-TOTAL and X-ET-TOTAL-PAGES carry the totals' })
  @ApiBadRequestResponse({
    description: 'rest_invalid_param (page, per_page outside 1..100, status) or invalid-page-number (past the last page)',
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  async list(
    @Query() query: ListOrdersQuery,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    const page = await this.orders.list(query, buyer, context);
    setTotalHeaders(response, 'tickets', page.total, page.totalPages);
    return { rest_url: page.restUrl, total: page.total, total_pages: page.totalPages, orders: page.orders };
  }

  @Get(':id')
  @RequireScope('orders:read')
  @HttpCode(200)
  @ID_PARAM
  @CART_TOKEN_REQUEST_HEADER
  @ApiOperation({ summary: 'Read an order: its buyer, or a manager of any of its events' })
  @ApiOkResponse({ type: OrderResponse })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @NOT_FOUND
  get(
    @Param('id', RouteIdPipe) id: number,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<OrderResponse> {
    return this.orders.get(id, buyer, context);
  }

  @Post(':id/complete')
  @RequireScope('orders:write')
  @HttpCode(200)
  @ID_PARAM
  @ApiHeader({
    name: 'X-Signature',
    required: false,
    description:
      'Payment webhooks: hex HMAC-SHA256 with PAYMENT_WEBHOOK_SECRET of the body in canonical JSON (keys sorted at every level, no blanks), which must name the order: {"order_id":<id>}',
  })
  @ApiOperation({ summary: 'Mark a pending order paid: its tickets move from pending to sold and its attendees to completed' })
  @ApiOkResponse({ type: OrderResponse, description: 'The completed order' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param: order_id is not an id' })
  @ApiUnauthorizedResponse({ description: 'rest_forbidden (anonymous, unsigned) or incorrect_password' })
  @ApiForbiddenResponse({
    description:
      'invalid-signature (bad or missing signature, order_id not this order, signing disabled), or rest_forbidden: not a manager of all its events',
  })
  @NOT_FOUND
  @ApiConflictResponse({ description: 'order-invalid-status: not pending, or its hold has expired' })
  complete(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: CompleteOrderDto,
    @Headers('x-signature') signature: string | undefined,
    @Req() request: Request,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<OrderResponse> {
    const signed: SignedRequest | undefined =
      signature === undefined ? undefined : { signature, payload: this.signedPayload(request), orderId: body.order_id };
    return this.orders.complete(id, buyer, signed, context);
  }

  @Post(':id/cancel')
  @RequireScope('orders:refund')
  @OrderTransitionDocs(
    'Cancel an order and give back its capacity: managers of all its events (pending or completed), or its buyer while it is pending',
    'rest_forbidden: a buyer cancelling a completed order, or a manager of only some of its events',
  )
  cancel(
    @Param('id', RouteIdPipe) id: number,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<OrderResponse> {
    return this.orders.cancel(id, buyer, context);
  }

  @Post(':id/refund')
  @RequireScope('orders:refund')
  @OrderTransitionDocs(
    'Refund a completed order and give back its capacity: managers of all its events',
    'rest_forbidden: not a manager of all its events',
    ApiBasicAuth('basic'),
    ApiBadRequestResponse({
      description:
        'rest_invalid_param: amount (not a decimal, more decimals than the currency has, 0, more than is left, or on an order paid by hand)',
    }),
    ApiServiceUnavailableResponse({ description: 'payment-provider-unavailable: Stripe did not answer; nothing was refunded, retry' }),
  )
  refund(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: RefundOrderDto,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<OrderResponse> {
    return this.orders.refund(id, buyer, context, body.amount);
  }

  /** The exact bytes when the app keeps raw bodies, else the parsed body in canonical JSON. */
  private signedPayload(request: Request): string | Buffer {
    const raw = (request as Request & { rawBody?: unknown }).rawBody;
    return Buffer.isBuffer(raw) ? raw : canonicalJson(request.body ?? {});
  }
}
