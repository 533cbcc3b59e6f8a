import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Door, DoorRoute } from '../checkin/door-route';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import { RouteIdPipe } from '../common/http/route-params';
import { DoorSalesService } from './door-sales.service';
import { DoorSaleResponse, SaleTicketList } from './dto/door-sale.response';
import { SellDto } from './dto/sell.dto';
import type { DoorCaller } from '../checkin/door-route';
import { RequireScope } from '../auth/scope-decorators';

const SALES_FORBIDDEN = ApiForbiddenResponse({
  type: ApiErrorResponse,
  description:
    'rest_forbidden: a device of other lists, or a user neither managing the event nor door staff; checkin-sales-not-allowed: the list’s allow_sales is off',
});

@ApiTags('tickets')
@Controller('tickets/v1')
export class DoorSalesController {
  constructor(private readonly sales: DoorSalesService) {}

  @Get('checkin-lists/:id/sale-tickets')
  @RequireScope('checkin:read')
  @HttpCode(200)
  @DoorRoute()
  @SALES_FORBIDDEN
  @ApiParam({ name: 'id', description: 'Check-in list id', schema: { type: 'integer' } })
  @ApiOperation({ summary: 'The tickets the list admits that are on sale now, for selling at the door (docs/checkin.md)' })
  @ApiOkResponse({ type: SaleTicketList })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found' })
  saleTickets(@Param('id', RouteIdPipe) id: number, @Door() caller: DoorCaller): Promise<SaleTicketList> {
    return this.sales.saleTickets(id, caller);
  }

  @Post('checkin/sell')
  @RequireScope('orders:write')
  @HttpCode(201)
  @DoorRoute()
  @SALES_FORBIDDEN
  @ApiOperation({
    summary: 'Sell tickets at the door: a completed order paid by cash, card terminal or nothing, optionally admitted at once',
    description:
      'The web checkout’s rules (sale window, price, coupon, per-order limit, capacity) in one transaction; the order’s emails go to the purchaser’s address when one is given. A nonce makes retries safe.',
  })
  @ApiCreatedResponse({ type: DoorSaleResponse })
  @ApiBadRequestResponse({
    description:
      'rest_missing_callback_param or rest_invalid_param naming the field (payment_method free for a total above 0, a ticket the list does not admit), coupon-not-valid',
  })
  @ApiNotFoundResponse({ description: 'checkin-list-not-found, ticket-does-not-exist' })
  @ApiConflictResponse({
    description: 'ticket-capacity-not-available (not on sale, sold out, over the per-order limit), coupon-not-usable, nonce-reused',
  })
  sell(@Body() body: SellDto, @Door() caller: DoorCaller): Promise<DoorSaleResponse> {
    return this.sales.sell(body, caller);
  }
}
