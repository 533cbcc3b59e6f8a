import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireAuthentication, RequiresNonce } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { COUPON_ATTEMPTS_DESCRIPTION, RETRY_AFTER_HEADERS } from '../common/security/openapi-limits';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CreateTicketDto } from './dto/create-ticket.dto';
import { DeleteTicketParams } from './dto/delete-ticket.dto';
import { ListTicketsQuery } from './dto/list-tickets.query';
import { TicketListResponse, TicketResponse } from './dto/ticket.response';
import { UpdateTicketDto } from './dto/update-ticket.dto';
import { TicketPage, TicketsService } from './tickets.service';
import { PublicRead } from '../common/http/http-caching';
import { RequireScope } from '../auth/scope-decorators';

const ID_PARAM = ApiParam({ name: 'id', description: 'Ticket id', schema: { type: 'integer' } });

const NONCE_FORBIDDEN = 'forbidden "Invalid nonce": a nonce of another action or user, or a caller who does not manage the event';

/** The documentation and rules shared by the POST, PUT and PATCH update routes. */
const TicketUpdateDocs = () =>
  applyDecorators(
    HttpCode(200),
    RequireAuthentication({
      unauthorized: 'rest_forbidden (anonymous), incorrect_password, or ticket-not-accessible',
      forbidden: NONCE_FORBIDDEN,
    }),
    RequiresNonce('edit_ticket_nonce'),
    ID_PARAM,
    ApiOperation({ summary: 'Update a ticket; fields left out keep their values (POST, PUT and PATCH alike)' }),
    ApiOkResponse({ type: TicketResponse }),
    ApiBadRequestResponse({
      description:
        'rest_missing_callback_param (post_id, edit_ticket_nonce), rest_invalid_param (post_id not the ticket event, dates, capacity), tec-tickets-rest-invalid_price',
    }),
    ApiNotFoundResponse({ description: 'ticket-not-found' }),
  );

@ApiTags('tickets')
@Controller('tickets/v1/tickets')
export class TicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Get()
  @RequireScope('tickets:read')
  @HttpCode(200)
  @PublicRead('ticket')
  @ApiOperation({ summary: 'List tickets (published tickets of published events by default, ordered by title)' })
  @ApiOkResponse({ type: TicketListResponse, description: 'Headers X-ET-TOTAL and X-ET-TOTAL-PAGES carry the totals' })
  @ApiBadRequestResponse({
    description: 'rest_invalid_param naming the parameter (per_page outside 1..100 too), or invalid-page-number for a page past the last',
  })
  @ApiUnauthorizedResponse({ description: 'incorrect_password' })
  @ApiTooManyRequestsResponse({ description: COUPON_ATTEMPTS_DESCRIPTION, headers: RETRY_AFTER_HEADERS })
  async list(
    @Query() query: ListTicketsQuery,
    @Res({ passthrough: true }) response: Response,
    @RequestContext() context: RequestContext,
  ): Promise<TicketPage> {
    const page = await this.tickets.list(query, context);
    setTotalHeaders(response, 'tickets', page.total, page.total_pages);
    return page;
  }

  @Post()
  @RequireScope('tickets:write')
  @HttpCode(201)
  @RequireAuthentication({ forbidden: NONCE_FORBIDDEN })
  @RequiresNonce('add_ticket_nonce')
  @ApiOperation({ summary: 'Create a ticket for an event the caller manages' })
  @ApiCreatedResponse({ type: TicketResponse, description: 'The ticket; Location names it' })
  @ApiBadRequestResponse({
    description:
      'rest_missing_callback_param (add_ticket_nonce, post_id, provider, name, ticket[capacity], ticket[event_capacity]), rest_invalid_param, bad_request "Commerce Module invalid", tec-tickets-rest-invalid_price',
  })
  @ApiQuery({
    name: 'scope',
    required: false,
    enum: ['this', 'all'],
    description:
      'all, on an occurrence of a series: the ticket is copied to every occurrence not ended, and to those the series gets later, each with its own capacity',
  })
  async create(
    @Body() body: CreateTicketDto,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
    @Query('scope') scope?: unknown,
  ): Promise<TicketResponse> {
    const ticket = await this.tickets.create(body, context.user, context, scope);
    response.setHeader('Location', ticket.rest_url);
    return ticket;
  }

  @Get(':id')
  @RequireScope('tickets:read')
  @HttpCode(200)
  @PublicRead('ticket')
  @ID_PARAM
  @ApiOperation({ summary: 'Read a ticket' })
  @ApiOkResponse({ type: TicketResponse })
  @ApiUnauthorizedResponse({
    description: 'ticket-not-accessible: the ticket or its event is not published and the caller may not read it',
  })
  @ApiNotFoundResponse({ description: 'ticket-not-found' })
  @ApiQuery({ name: 'coupon', required: false, description: 'A code that reveals the ticket when it is sold only with one' })
  @ApiTooManyRequestsResponse({ description: COUPON_ATTEMPTS_DESCRIPTION, headers: RETRY_AFTER_HEADERS })
  get(
    @Param('id', RouteIdPipe) id: number,
    @RequestContext() context: RequestContext,
    @Query('coupon') coupon?: unknown,
  ): Promise<TicketResponse> {
    return this.tickets.get(id, context, typeof coupon === 'string' && coupon.trim() !== '' ? coupon.trim() : undefined);
  }

  @Post(':id')
  @RequireScope('tickets:write')
  @TicketUpdateDocs()
  updateWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateTicketDto,
    @RequestContext() context: SignedInContext,
  ): Promise<TicketResponse> {
    return this.tickets.update(id, body, context.user, context);
  }

  @Put(':id')
  @RequireScope('tickets:write')
  @TicketUpdateDocs()
  updateWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateTicketDto,
    @RequestContext() context: SignedInContext,
  ): Promise<TicketResponse> {
    return this.tickets.update(id, body, context.user, context);
  }

  @Patch(':id')
  @RequireScope('tickets:write')
  @TicketUpdateDocs()
  updateWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateTicketDto,
    @RequestContext() context: SignedInContext,
  ): Promise<TicketResponse> {
    return this.tickets.update(id, body, context.user, context);
  }

  @Delete(':id')
  @RequireScope('tickets:write')
  @HttpCode(200)
  @RequireAuthentication({
    unauthorized: 'rest_forbidden (anonymous), incorrect_password, or ticket-not-accessible',
    forbidden: NONCE_FORBIDDEN,
  })
  @RequiresNonce('remove_ticket_nonce', { alsoInQuery: true })
  @ID_PARAM
  @ApiOperation({ summary: 'Delete a ticket for good; post_id and remove_ticket_nonce come in the body or the query' })
  @ApiOkResponse({ type: TicketResponse, description: 'The ticket as it was deleted' })
  @ApiBadRequestResponse({
    description: 'rest_missing_callback_param (remove_ticket_nonce, post_id) or rest_invalid_param (post_id not the ticket event)',
  })
  @ApiNotFoundResponse({ description: 'ticket-not-found' })
  @ApiConflictResponse({ description: 'has-attendees: the ticket has attendees or orders' })
  remove(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: DeleteTicketParams,
    @Query() query: DeleteTicketParams,
    @RequestContext() context: SignedInContext,
  ): Promise<TicketResponse> {
    return this.tickets.remove(id, body, query, context.user, context);
  }
}
