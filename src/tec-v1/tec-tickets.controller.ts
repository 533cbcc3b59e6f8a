import { Body, Delete, Get, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { BesideNamespaces } from '../common/http/api-root-mount';
import { RouteIdPipe } from '../common/http/route-params';
import { CreateTicketDto } from '../tickets/dto/create-ticket.dto';
import { ListTicketsQuery } from '../tickets/dto/list-tickets.query';
import { TecTicketResponse } from './dto/tec-post.response';
import { TecTicketRequest } from './dto/tec-requests.docs';
import { TecTicketUpdateInput } from './dto/tec-ticket-update.input';
import { CreateDocs, DeleteDocs, ListDocs, ReadDocs, TecResource, UpdateDocs } from './tec-docs';
import { TecInputPipe, Translated } from './tec-input.pipe';
import { setWpListHeaders } from './tec-list-headers';
import { createTicketBody, ticketsQuery, updateTicketBody } from './tec-requests';
import { TecTicketsService } from './tec-tickets.service';
import { RequireScope } from '../auth/scope-decorators';

@TecResource()
@BesideNamespaces('tec/v1/tickets')
export class TecTicketsController {
  constructor(private readonly tickets: TecTicketsService) {}

  @Get()
  @RequireScope('tickets:read')
  @ListDocs('ticket', TecTicketResponse, [
    ['search', 'string', 'Words to find in the name and description'],
    ['event', 'integer', 'Tickets of this event'],
    ['include', 'array', 'These ticket ids only'],
    ['exclude', 'array', 'Not these ticket ids'],
    ['orderby', 'string', 'date, id or title; applied only with order'],
    ['order', 'string', 'asc or desc; applied only with orderby'],
  ])
  async list(
    @Query(new TecInputPipe(ticketsQuery, ListTicketsQuery)) query: Translated<ListTicketsQuery>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @RequestContext() context: RequestContext,
  ): Promise<TecTicketResponse[]> {
    const page = await this.tickets.list(query, context);
    setWpListHeaders(response, request, context, page);
    return page.items;
  }

  @Post()
  @RequireScope('tickets:write')
  @CreateDocs('ticket', 'manager', TecTicketRequest, TecTicketResponse)
  create(
    @Body(new TecInputPipe(createTicketBody, CreateTicketDto)) body: Translated<CreateTicketDto>,
    @RequestContext() context: SignedInContext,
  ): Promise<TecTicketResponse> {
    return this.tickets.create(body, context);
  }

  @Get(':id')
  @RequireScope('tickets:read')
  @ReadDocs('ticket', TecTicketResponse)
  get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<TecTicketResponse> {
    return this.tickets.get(id, context);
  }

  @Put(':id')
  @RequireScope('tickets:write')
  @UpdateDocs('ticket', 'manager', TecTicketRequest, TecTicketResponse)
  replace(
    @Param('id', RouteIdPipe) id: number,
    @Body(new TecInputPipe(updateTicketBody, TecTicketUpdateInput)) body: Translated<TecTicketUpdateInput>,
    @RequestContext() context: SignedInContext,
  ): Promise<TecTicketResponse> {
    return this.tickets.update(id, body, context);
  }

  @Patch(':id')
  @RequireScope('tickets:write')
  @UpdateDocs('ticket', 'manager', TecTicketRequest, TecTicketResponse)
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body(new TecInputPipe(updateTicketBody, TecTicketUpdateInput)) body: Translated<TecTicketUpdateInput>,
    @RequestContext() context: SignedInContext,
  ): Promise<TecTicketResponse> {
    return this.tickets.update(id, body, context);
  }

  @Delete(':id')
  @RequireScope('tickets:write')
  @DeleteDocs('ticket', false)
  remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<[]> {
    return this.tickets.remove(id, context);
  }
}
