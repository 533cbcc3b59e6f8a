import { Injectable } from '@nestjs/common';
import type { ToolRequirement } from '../../access/tool-access';
import { EventReads } from '../../catalogue/event-reads.service';
import type { EventResponse } from '../../events/dto/event.response';
import { parseJsonItems, parseJsonText } from '../../tec-v1/tec-responses';
import { ListEventsQuery } from '../../events/dto/list-events.query';
import { LinkedPostListQueryDto } from '../../linked-posts/linked-post-list.query';
import { OrganizersService } from '../../organizers/organizers.service';
import { ListTicketsQuery } from '../../tickets/dto/list-tickets.query';
import { TicketsService } from '../../tickets/tickets.service';
import { VenuesService } from '../../venues/venues.service';
import { asQuery, flag, idArgument, integer, integers, McpTool, objectSchema, PAGING, text, validated } from '../mcp-tool';

const EVENTS_READ: ToolRequirement = { audience: 'anyone', scope: 'events:read' };
const TICKETS_READ: ToolRequirement = { audience: 'anyone', scope: 'tickets:read' };

/**
 * The public reads, in the events and tickets namespaces' shapes: what an anonymous caller of the
 * REST API may read (published events, venues, organizers, tickets and what is left of them); a
 * signed-in caller sees what their role lets them see there.
 */
@Injectable()
export class CalendarTools {
  constructor(
    private readonly events: EventReads,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly tickets: TicketsService,
  ) {}

  tools(): McpTool[] {
    return [
      {
        name: 'search_events',
        title: 'Search events',
        description:
          'Events in a date window (upcoming by default), by words, venue, organizer, category or tag; published ones for everyone, drafts for those who may edit them.',
        inputSchema: objectSchema({
          search: text('Words to find in the title and description'),
          start_date: text('Events ending on or after this date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS); default now'),
          end_date: text('Events starting on or before this date'),
          venue: integers('Venue ids'),
          organizer: integers('Organizer ids'),
          categories: { type: 'array', items: { type: ['integer', 'string'] }, description: 'Category ids or slugs' },
          tags: { type: 'array', items: { type: ['integer', 'string'] }, description: 'Tag ids or slugs' },
          featured: flag('Featured events only'),
          status: text('Statuses beyond publish (draft, pending, private): callers who may edit events'),
          ...PAGING,
        }),
        requirements: [EVENTS_READ],
        readOnly: true,
        run: async (args, call) => {
          const page = await this.events.list(await validated(ListEventsQuery, asQuery(args), 'query'), call.context);
          return { total: page.total, total_pages: page.totalPages, events: parseJsonItems<EventResponse>(page.events.items) };
        },
      },
      {
        name: 'get_event',
        title: 'Get an event',
        description: 'One event with its venue, organizers, categories, tags and cost, as GET /events/{id} answers it.',
        inputSchema: objectSchema({ id: integer('The event id') }, ['id']),
        requirements: [EVENTS_READ],
        readOnly: true,
        run: async (args, call) => parseJsonText<EventResponse>(await this.events.get({ id: idArgument(args, 'id') }, call.context)),
      },
      {
        name: 'search_venues',
        title: 'Search venues',
        description: 'Venues by words, or those of an event.',
        inputSchema: objectSchema({ search: text('Words to find'), event: integer('Venues of this event'), ...PAGING }),
        requirements: [EVENTS_READ],
        readOnly: true,
        run: async (args, call) => this.venues.list(await validated(LinkedPostListQueryDto, asQuery(args), 'query'), call.context),
      },
      {
        name: 'get_venue',
        title: 'Get a venue',
        description: 'One venue: name, address, geolocation, contact.',
        inputSchema: objectSchema({ id: integer('The venue id') }, ['id']),
        requirements: [EVENTS_READ],
        readOnly: true,
        run: (args, call) => this.venues.findOne({ id: idArgument(args, 'id') }, call.context),
      },
      {
        name: 'search_organizers',
        title: 'Search organizers',
        description: 'Organizers by words, or those of an event.',
        inputSchema: objectSchema({ search: text('Words to find'), event: integer('Organizers of this event'), ...PAGING }),
        requirements: [EVENTS_READ],
        readOnly: true,
        run: async (args, call) => this.organizers.list(await validated(LinkedPostListQueryDto, asQuery(args), 'query'), call.context),
      },
      {
        name: 'get_organizer',
        title: 'Get an organizer',
        description: 'One organizer: name, contact, website.',
        inputSchema: objectSchema({ id: integer('The organizer id') }, ['id']),
        requirements: [EVENTS_READ],
        readOnly: true,
        run: (args, call) => this.organizers.findOne({ id: idArgument(args, 'id') }, call.context),
      },
      {
        name: 'search_tickets',
        title: 'Search tickets',
        description: 'Tickets (and RSVPs) of an event, or by words; hidden tickets only for their event’s managers.',
        inputSchema: objectSchema({
          event_id: integer('Tickets of this event'),
          search: text('Words to find in the name and description'),
          is_available: flag('Only tickets with units left (true) or sold out (false)'),
          ...PAGING,
        }),
        requirements: [TICKETS_READ],
        readOnly: true,
        run: async (args, call) => {
          const { event_id: eventId, ...rest } = args;
          const query = asQuery({ ...rest, ...(eventId === undefined ? {} : { include_post: [eventId] }) });
          return this.tickets.list(await validated(ListTicketsQuery, query, 'query'), call.context);
        },
      },
      {
        name: 'get_ticket',
        title: 'Get a ticket',
        description: 'One ticket: price, sale window, capacity and what is left.',
        inputSchema: objectSchema({ id: integer('The ticket id') }, ['id']),
        requirements: [TICKETS_READ],
        readOnly: true,
        run: (args, call) => this.tickets.get(idArgument(args, 'id'), call.context),
      },
      {
        name: 'ticket_availability',
        title: 'Ticket availability',
        description: 'Whether a ticket can be bought and how many units are left (-1: unlimited), with its sale window and price.',
        inputSchema: objectSchema({ id: integer('The ticket id') }, ['id']),
        requirements: [TICKETS_READ],
        readOnly: true,
        run: async (args, call) => {
          const ticket = await this.tickets.get(idArgument(args, 'id'), call.context);
          return {
            id: ticket.id,
            event_id: ticket.post_id,
            title: ticket.title,
            cost: ticket.cost,
            is_available: ticket.is_available,
            available: ticket.capacity_details.available,
            available_percentage: ticket.capacity_details.available_percentage,
            available_from: ticket.available_from,
            available_until: ticket.available_until,
          };
        },
      },
    ];
  }
}
