import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { JoinWaitlistDto } from './dto/join-waitlist.dto';
import { ListWaitlistQuery, WaitlistStatsQuery } from './dto/list-waitlist.query';
import { OfferNextDto, ReorderWaitlistDto } from './dto/manage-waitlist.dto';
import {
  WaitlistEntryResponse,
  WaitlistJoinedResponse,
  WaitlistLeftResponse,
  WaitlistListResponse,
  WaitlistOffersResponse,
  WaitlistStatsResponse,
} from './dto/waitlist.response';
import { WaitlistService } from './waitlist.service';
import { RequireScope } from '../auth/scope-decorators';

const MANAGERS = RequireCapability('publish_events', {
  forbidden: 'rest_forbidden: the role lacks publish_events, or the caller does not manage the ticket’s event',
});
const TICKET_NOT_FOUND = ApiNotFoundResponse({ description: 'ticket-does-not-exist' });

@ApiTags('tickets')
@Controller('tickets/v1/waitlist')
export class WaitlistController {
  constructor(private readonly waitlist: WaitlistService) {}

  @Post()
  @RequireScope('waitlist:write')
  @HttpCode(201)
  @ApiOperation({ summary: "Join a sold-out ticket's waitlist (anyone); keep cancel_token to leave" })
  @ApiCreatedResponse({ type: WaitlistJoinedResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param / rest_missing_callback_param (ticket_id, name, email, quantity 1–10)' })
  @ApiUnauthorizedResponse({ description: 'incorrect_password: credentials sent and wrong' })
  @ApiNotFoundResponse({ description: 'ticket-does-not-exist: no such ticket, or one the caller may not read' })
  @ApiConflictResponse({
    description:
      'waitlist-disabled (the ticket has no waitlist), waitlist-ticket-available (units can be bought now), ' +
      'waitlist-already-joined (this email waits or holds an offer for this ticket)',
  })
  join(@Body() body: JoinWaitlistDto, @RequestContext() context: RequestContext): Promise<WaitlistJoinedResponse> {
    return this.waitlist.join(body, context.user);
  }

  @Get()
  @RequireScope('waitlist:read')
  @HttpCode(200)
  @MANAGERS
  @ApiOperation({ summary: 'List waitlist entries of the events the caller manages, in line order per ticket' })
  @ApiOkResponse({ type: WaitlistListResponse, description: 'Headers X-ET-TOTAL and X-ET-TOTAL-PAGES carry the totals' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (ticket_id, status, page, per_page) or invalid-page-number' })
  @TICKET_NOT_FOUND
  async list(
    @Query() query: ListWaitlistQuery,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WaitlistListResponse> {
    const page = await this.waitlist.list(query, context.user);
    setTotalHeaders(response, 'tickets', page.total, page.totalPages);
    return { total: page.total, total_pages: page.totalPages, entries: page.entries };
  }

  @Get('stats')
  @RequireScope('waitlist:read')
  @HttpCode(200)
  @MANAGERS
  @ApiOperation({ summary: "Entries and units per status of one ticket's waitlist" })
  @ApiOkResponse({ type: WaitlistStatsResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (ticket_id)' })
  @TICKET_NOT_FOUND
  stats(@Query() query: WaitlistStatsQuery, @RequestContext() context: SignedInContext): Promise<WaitlistStatsResponse> {
    return this.waitlist.stats(query.ticket_id, context.user);
  }

  @Post('offer-next')
  @RequireScope('waitlist:write')
  @HttpCode(200)
  @MANAGERS
  @ApiOperation({ summary: 'Offer up to `quantity` free units to the next entries in line now (held for WAITLIST_OFFER_HOURS)' })
  @ApiOkResponse({ type: WaitlistOffersResponse, description: 'The entries offered; empty when no unit is free or nobody waits' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param / rest_missing_callback_param (ticket_id, quantity)' })
  @TICKET_NOT_FOUND
  offerNext(@Body() body: OfferNextDto, @RequestContext() context: SignedInContext): Promise<WaitlistOffersResponse> {
    return this.waitlist.offerNext(body.ticket_id, body.quantity, context.user);
  }

  @Patch(':id')
  @RequireScope('waitlist:write')
  @HttpCode(200)
  @MANAGERS
  @ApiParam({ name: 'id', description: 'Waitlist entry id', schema: { type: 'integer' } })
  @ApiOperation({ summary: 'Move an entry in line: higher priority goes first' })
  @ApiOkResponse({ type: WaitlistEntryResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param / rest_missing_callback_param (priority)' })
  @ApiNotFoundResponse({ description: 'waitlist-entry-not-found: no such entry, or one of an event the caller does not manage' })
  reorder(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: ReorderWaitlistDto,
    @RequestContext() context: SignedInContext,
  ): Promise<WaitlistEntryResponse> {
    return this.waitlist.reorder(id, body.priority, context.user);
  }

  @Delete(':cancel_token')
  @RequireScope('waitlist:write')
  @HttpCode(200)
  @ApiParam({ name: 'cancel_token', description: 'The cancel_token the join answered', schema: { type: 'string' } })
  @ApiOperation({ summary: 'Leave the waitlist (anyone holding the cancel token); an offer is declined and its units passed on' })
  @ApiOkResponse({ type: WaitlistLeftResponse })
  @ApiNotFoundResponse({ description: 'waitlist-entry-not-found: no entry has this token' })
  @ApiConflictResponse({ description: 'waitlist-entry-not-cancellable: the entry is already purchased, expired or cancelled' })
  leave(@Param('cancel_token') cancelToken: string): Promise<WaitlistLeftResponse> {
    return this.waitlist.leave(cancelToken);
  }
}
