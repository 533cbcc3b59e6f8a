import { applyDecorators, Body, Controller, Get, HttpCode, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestContext } from '../auth/request-context';
import { COUPON_ATTEMPTS_DESCRIPTION, RETRY_AFTER_HEADERS } from '../common/security/openapi-limits';
import { BuyerIdentity, cartBuyer } from './buyer-identity';
import { CART_COOKIE, CART_TOKEN_HEADER } from './cart-identity';
import { CartService } from './cart.service';
import { CartResponse } from './dto/cart.response';
import { GetCartQuery } from './dto/get-cart.query';
import { UpdateCartDto } from './dto/update-cart.dto';
import { RequireScope } from '../auth/scope-decorators';

const CART_TOKEN_REQUEST_HEADER = ApiHeader({
  name: CART_TOKEN_HEADER,
  required: false,
  description: `Anonymous buyers: the token issued on the first cart write (also accepted as the ${CART_COOKIE} cookie). Signed-in buyers have one cart per user.`,
});

/** The documentation shared by the POST, PUT and PATCH cart writes. */
const CartWriteDocs = () =>
  applyDecorators(
    HttpCode(200),
    CART_TOKEN_REQUEST_HEADER,
    ApiOperation({
      summary:
        'Set quantities in the cart: listed tickets get the quantity sent (0 removes), others stay; all lines are checked before anything is saved',
    }),
    ApiOkResponse({
      type: CartResponse,
      description: `The cart as GET shows it, for the request's provider (and post_id). Anonymous buyers get their token in ${CART_TOKEN_HEADER} and the ${CART_COOKIE} cookie (HttpOnly, SameSite=Lax).`,
      headers: { [CART_TOKEN_HEADER]: { description: "The anonymous buyer's cart token", schema: { type: 'string' } } },
    }),
    ApiBadRequestResponse({
      description:
        'rest_missing_callback_param (provider, tickets[i][ticket_id], tickets[i][quantity]) or rest_invalid_param: unknown provider, negative or non-integer quantity, more than MAX_TICKETS_PER_ORDER units of one provider in the cart, a line of another provider, post_id that is not an event, meta for a ticket not in the cart; coupon-not-valid: the code cannot be used now (naming coupon), or the cart would hold more units it covers than it has uses left (naming coupon, or the quantity that asks for more; data.uses_left)',
    }),
    ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' }),
    ApiForbiddenResponse({ description: 'post-has-no-tickets: post_id names an event without tickets' }),
    ApiNotFoundResponse({ description: 'ticket-does-not-exist: a line names an unknown ticket' }),
    ApiConflictResponse({
      description:
        'ticket-capacity-not-available: a ticket is not on sale, fewer units are left, or a line asks more than MAX_TICKETS_PER_ORDER units; coupon-required: the write would leave a ticket sold only with an access code in the cart without a code that reveals it (data.ticket_id)',
    }),
    ApiTooManyRequestsResponse({ description: COUPON_ATTEMPTS_DESCRIPTION, headers: RETRY_AFTER_HEADERS }),
  );

@ApiTags('tickets')
@Controller('tickets/v1/cart')
export class CartController {
  constructor(private readonly carts: CartService) {}

  @Get()
  @RequireScope('orders:read')
  @HttpCode(200)
  @CART_TOKEN_REQUEST_HEADER
  @ApiOperation({ summary: "Read the caller's cart (the signed-in user's, else the one of the cart token)" })
  @ApiOkResponse({ type: CartResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param: post_id is not an event id' })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @ApiForbiddenResponse({ description: 'post-has-no-tickets: post_id names an event without tickets' })
  get(
    @Query() query: GetCartQuery,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
  ): Promise<CartResponse> {
    return this.carts.get(cartBuyer(buyer), query, context);
  }

  @Post()
  @RequireScope('orders:write')
  @CartWriteDocs()
  updateWithPost(
    @Body() body: UpdateCartDto,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return this.update(body, buyer, context, response);
  }

  @Put()
  @RequireScope('orders:write')
  @CartWriteDocs()
  updateWithPut(
    @Body() body: UpdateCartDto,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return this.update(body, buyer, context, response);
  }

  @Patch()
  @RequireScope('orders:write')
  @CartWriteDocs()
  updateWithPatch(
    @Body() body: UpdateCartDto,
    @BuyerIdentity() buyer: BuyerIdentity,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ) {
    return this.update(body, buyer, context, response);
  }

  private async update(body: UpdateCartDto, buyer: BuyerIdentity, context: RequestContext, response: Response): Promise<CartResponse> {
    const result = await this.carts.update(cartBuyer(buyer), body, context);
    if (result.token) {
      response.setHeader(CART_TOKEN_HEADER, result.token);
      response.cookie(CART_COOKIE, result.token, { httpOnly: true, sameSite: 'lax', path: '/', secure: response.req.secure });
    }
    return result.cart;
  }
}
