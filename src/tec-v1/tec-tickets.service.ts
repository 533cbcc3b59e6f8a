import { Injectable } from '@nestjs/common';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import type { CreateTicketDto } from '../tickets/dto/create-ticket.dto';
import type { ListTicketsQuery } from '../tickets/dto/list-tickets.query';
import type { TicketResponse } from '../tickets/dto/ticket.response';
import { TicketsService } from '../tickets/tickets.service';
import { TecTicketResponse } from './dto/tec-post.response';
import type { TecTicketUpdateInput } from './dto/tec-ticket-update.input';
import { entityNotFound, TecOperation } from './tec-errors';
import { toTecTicket } from './tec-posts.mapper';
import { createTicketBody, ticketsQuery } from './tec-requests';
import { asTec, pageNumber, TecPage } from './tec-responses';

/**
 * tec/v1's tickets: the Tickets Commerce tickets of the tickets namespace (TicketsService and its
 * rules), in the WordPress post shape. The event a ticket belongs to is fixed once created.
 */
@Injectable()
export class TecTicketsService {
  constructor(private readonly tickets: TicketsService) {}

  list(query: ListTicketsQuery, context: RequestContext): Promise<TecPage<TecTicketResponse>> {
    return asTec(
      'read',
      async () => {
        const page = await this.tickets.list({ ...query, provider: ['tc'] }, context);
        return {
          items: page.tickets.map((ticket) => toTecTicket(ticket, context)),
          page: pageNumber(query),
          total: page.total,
          totalPages: page.total_pages,
        };
      },
      ticketsQuery.tecName,
    );
  }

  get(id: number, context: RequestContext): Promise<TecTicketResponse> {
    return asTec('read', async () => toTecTicket(await this.commerceTicket(id, context, 'read'), context));
  }

  create(input: CreateTicketDto, context: SignedInContext): Promise<TecTicketResponse> {
    return asTec(
      'created',
      async () => toTecTicket(await this.tickets.create(input, context.user, context), context),
      createTicketBody.tecName,
    );
  }

  /** `event`, when sent, must be the ticket's own (400 otherwise): tickets do not move between events. */
  update(id: number, input: TecTicketUpdateInput, context: SignedInContext): Promise<TecTicketResponse> {
    return asTec(
      'updated',
      async () => {
        const postId = input.post_id ?? (await this.commerceTicket(id, context, 'updated')).post_id;
        return toTecTicket(await this.tickets.update(id, { ...input, post_id: postId }, context.user, context), context);
      },
      createTicketBody.tecName,
    );
  }

  /** Tickets have no trash here: with or without `force`, the ticket is deleted (409 has-attendees once sold). */
  async remove(id: number, context: SignedInContext): Promise<[]> {
    await asTec('deleted', async () => {
      const { post_id } = await this.commerceTicket(id, context, 'deleted');
      await this.tickets.remove(id, { post_id }, {}, context.user, context);
    });
    return [];
  }

  private async commerceTicket(id: number, context: RequestContext, operation: TecOperation): Promise<TicketResponse> {
    const ticket = await this.tickets.get(id, context);
    if (ticket.provider !== 'tc') throw entityNotFound(operation);
    return ticket;
  }
}
