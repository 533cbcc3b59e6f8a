import { Injectable, Type } from '@nestjs/common';
import type { ToolRequirement } from '../../access/tool-access';
import { invalidParam, missingParams } from '../../common/errors/api-error';
import { CreateEventDto } from '../../events/dto/create-event.dto';
import { ListEventsQuery } from '../../events/dto/list-events.query';
import { UpdateEventDto } from '../../events/dto/update-event.dto';
import { LinkedPostListQueryDto } from '../../linked-posts/linked-post-list.query';
import { CreateOrganizerDto } from '../../organizers/dto/create-organizer.dto';
import { UpdateOrganizerDto } from '../../organizers/dto/update-organizer.dto';
import { TecTicketUpdateInput } from '../../tec-v1/dto/tec-ticket-update.input';
import { TecEventsService } from '../../tec-v1/tec-events.service';
import { TecInputPipe, TecTranslation } from '../../tec-v1/tec-input.pipe';
import { TecOrganizersService, TecVenuesService } from '../../tec-v1/tec-linked-posts.service';
import {
  createEventBody,
  createOrganizerBody,
  createTicketBody,
  createVenueBody,
  eventsQuery,
  linkedPostsQuery,
  ticketsQuery,
  updateEventBody,
  updateOrganizerBody,
  updateTicketBody,
  updateVenueBody,
} from '../../tec-v1/tec-requests';
import { TecTicketsService } from '../../tec-v1/tec-tickets.service';
import { CreateTicketDto } from '../../tickets/dto/create-ticket.dto';
import { ListTicketsQuery } from '../../tickets/dto/list-tickets.query';
import { CreateVenueDto } from '../../venues/dto/create-venue.dto';
import { UpdateVenueDto } from '../../venues/dto/update-venue.dto';
import { asQuery, McpTool, signedIn, ToolCall } from '../mcp-tool';

/*
 * TEC's three MCP tools (the-events-calendar/mcp-server 0.1.6), with their names and arguments, over
 * tec/v1's services: an agent configured for TEC's server works against /mcp unchanged. Each answers
 * as TEC's does: a sentence, then the JSON tec/v1 would answer.
 */

const POST_TYPES = ['event', 'venue', 'organizer', 'ticket'] as const;
type PostType = (typeof POST_TYPES)[number];

const POST_TYPE = { type: 'string', enum: POST_TYPES, description: 'The type of post (event, venue, organizer, or ticket)' };
const NUMBER_LIST = (description: string) => ({ type: 'array', items: { type: 'number' }, description });

function postTypeOf(args: Record<string, unknown>): PostType {
  const postType = args.postType;
  if (postType === undefined) throw missingParams(['postType']);
  if (!POST_TYPES.includes(postType as PostType)) throw invalidParam('postType', `postType must be one of ${POST_TYPES.join(', ')}`);
  return postType as PostType;
}

function idOf(args: Record<string, unknown>, required: boolean): number | undefined {
  const id = args.id;
  if (id === undefined || id === null) {
    if (required) throw missingParams(['id']);
    return undefined;
  }
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw invalidParam('id', 'id must be a post id');
  return id;
}

function objectArg(args: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = args[name];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParam(name, `${name} must be an object`);
  return value as Record<string, unknown>;
}

const READ: Record<'events' | 'tickets', ToolRequirement> = {
  events: { audience: 'anyone', scope: 'events:read' },
  tickets: { audience: 'anyone', scope: 'tickets:read' },
};
/** tec/v1 asks `edit_events` of every write (tickets: then the service asks whether the caller manages the event). */
const WRITE: Record<'events' | 'tickets', ToolRequirement> = {
  events: { audience: 'edit_events', scope: 'events:write' },
  tickets: { audience: 'edit_events', scope: 'tickets:write' },
};
/** Trashing asks `delete_events`; tickets are deleted by their event's managers. */
const DELETE: Record<'events' | 'tickets', ToolRequirement> = {
  events: { audience: 'delete_events', scope: 'events:write' },
  tickets: { audience: 'edit_events', scope: 'tickets:write' },
};

const pick = (table: Record<'events' | 'tickets', ToolRequirement>, postType: PostType) =>
  table[postType === 'ticket' ? 'tickets' : 'events'];

function tecAnswer(summary: string, body: unknown): { tec: true; summary: string; body: unknown } {
  return { tec: true, summary, body };
}

@Injectable()
export class TecTools {
  constructor(
    private readonly events: TecEventsService,
    private readonly venues: TecVenuesService,
    private readonly organizers: TecOrganizersService,
    private readonly tickets: TecTicketsService,
  ) {}

  tools(): McpTool[] {
    return [this.read(), this.createUpdate(), this.remove()];
  }

  private read(): McpTool {
    return {
      name: 'tec-calendar-read-entities',
      title: 'Read calendar posts (TEC)',
      description:
        "TEC's read tool: get one event, venue, organizer or ticket (postType and id), list them (postType), or search them (postType and query), in tec/v1's shape.",
      inputSchema: {
        type: 'object',
        properties: {
          postType: POST_TYPE,
          id: { type: 'number', description: 'Post ID for single post retrieval' },
          query: { type: 'string', description: 'Search query string' },
          page: { type: 'number', description: 'Page number' },
          per_page: { type: 'number', description: 'Items per page' },
          order: { type: 'string', enum: ['asc', 'desc'], description: 'Sort order' },
          orderby: { type: 'string', description: 'Field to order by' },
          status: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'Post status filter' },
          include: NUMBER_LIST('Include specific IDs'),
          exclude: NUMBER_LIST('Exclude specific IDs'),
          eventFilters: {
            type: 'object',
            description: 'Event-specific filters (only used when postType is "event")',
            properties: {
              start_date: { type: 'string', description: 'Event start date filter (YYYY-MM-DD).' },
              end_date: { type: 'string', description: 'Event end date filter (YYYY-MM-DD).' },
              venue: { type: 'number', description: 'Filter by venue ID' },
              organizer: { type: 'number', description: 'Filter by organizer ID' },
              featured: { type: 'boolean', description: 'Filter featured events' },
              categories: NUMBER_LIST('Filter by category IDs'),
              tags: NUMBER_LIST('Filter by tag IDs'),
            },
          },
          venueFilters: { type: 'object', description: 'Venue-specific filters (only used when postType is "venue")', properties: {} },
          organizerFilters: {
            type: 'object',
            description: 'Organizer-specific filters (only used when postType is "organizer")',
            properties: {},
          },
          ticketFilters: {
            type: 'object',
            description: 'Ticket-specific filters (only used when postType is "ticket")',
            properties: { event: { type: 'number', description: 'Filter by event ID' } },
          },
        },
        required: ['postType'],
      },
      requirements: [READ.events, READ.tickets],
      requirementFor: (args) => pick(READ, postTypeOf(args)),
      readOnly: true,
      run: (args, call) => this.runRead(args, call),
    };
  }

  private async runRead(args: Record<string, unknown>, call: ToolCall): Promise<unknown> {
    const postType = postTypeOf(args);
    const id = idOf(args, false);
    const { context } = call;
    if (id !== undefined) {
      const post = await this.service(postType).get(id, context);
      return tecAnswer(`Retrieved ${postType} with ID ${id}`, post);
    }
    const filters = objectArg(args, `${postType}Filters`);
    const input: Record<string, unknown> = {
      page: args.page,
      per_page: args.per_page,
      order: args.order,
      orderby: args.orderby,
      status: args.status,
      include: args.include,
      exclude: args.exclude,
      search: args.query,
      ...filters,
    };
    const query = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    let page: { items: unknown[] };
    if (postType === 'event') page = await this.events.list(await tecQuery(eventsQuery, ListEventsQuery, query), {}, context);
    else if (postType === 'ticket') page = await this.tickets.list(await tecQuery(ticketsQuery, ListTicketsQuery, query), context);
    else page = await this.linked(postType).list(await tecQuery(linkedPostsQuery, LinkedPostListQueryDto, query), context);
    const count = page.items.length;
    const noun = `${postType}${count === 1 ? '' : 's'}`;
    return tecAnswer(
      args.query ? `Found ${count} ${noun} matching "${typeof args.query === 'string' ? args.query : ''}"` : `Found ${count} ${noun}`,
      page.items,
    );
  }

  private createUpdate(): McpTool {
    return {
      name: 'tec-calendar-create-update-entities',
      title: 'Create or update calendar posts (TEC)',
      description:
        "TEC's write tool: create a post (postType and data) or update one (postType, id and data). Event: title, start_date, end_date; venue: title or venue; organizer: title or organizer; ticket: title and event.",
      inputSchema: {
        type: 'object',
        properties: {
          postType: POST_TYPE,
          id: { type: 'number', description: 'Post ID (required for updates, omit for creation)' },
          data: { type: 'object', additionalProperties: true, description: 'The post data, as tec/v1 takes it' },
        },
        required: ['postType', 'data'],
      },
      requirements: [WRITE.events, WRITE.tickets],
      requirementFor: (args) => pick(WRITE, postTypeOf(args)),
      readOnly: false,
      run: (args, call) => this.runCreateUpdate(args, call),
    };
  }

  private async runCreateUpdate(args: Record<string, unknown>, call: ToolCall): Promise<unknown> {
    const postType = postTypeOf(args);
    const id = idOf(args, false);
    const data = { ...objectArg(args, 'data') };
    // TEC's server copies `title` to `venue` / `organizer` and back, whichever is given.
    if ((postType === 'venue' || postType === 'organizer') && data.title === undefined && data[postType] !== undefined)
      data.title = data[postType];
    if (postType === 'ticket' && data.event === undefined && data.event_id !== undefined) data.event = data.event_id;
    const { context } = signedIn(call);
    const [translation, dto] = BODIES[postType][id === undefined ? 'create' : 'update'];
    const body = (await new TecInputPipe(translation, dto).transform(data, { type: 'body', metatype: dto })) as never;
    const post =
      id === undefined
        ? await this.service(postType).create(body, context)
        : postType === 'ticket'
          ? await this.tickets.update(id, body, context)
          : await this.service(postType).update(id, body, context);
    return tecAnswer(id === undefined ? `Successfully created ${postType}` : `Successfully updated ${postType} with ID ${id}`, post);
  }

  private remove(): McpTool {
    return {
      name: 'tec-calendar-delete-entities',
      title: 'Delete calendar posts (TEC)',
      description:
        "TEC's delete tool: moves an event, venue or organizer to the trash, or with force deletes it for good; tickets are always deleted. Deleting an event for good asks for a confirmation handle (see delete_event).",
      inputSchema: {
        type: 'object',
        properties: {
          postType: POST_TYPE,
          id: { type: 'number', description: 'Post ID to delete' },
          force: { type: 'boolean', default: false, description: 'true for permanent delete, false for trash (default: false)' },
        },
        required: ['postType', 'id'],
      },
      requirements: [DELETE.events, DELETE.tickets],
      requirementFor: (args) => pick(DELETE, postTypeOf(args)),
      readOnly: false,
      run: (args, call) => this.runRemove(args, call),
    };
  }

  private async runRemove(args: Record<string, unknown>, call: ToolCall): Promise<unknown> {
    const postType = postTypeOf(args);
    const id = idOf(args, true) as number;
    const force = args.force === true;
    if (args.force !== undefined && typeof args.force !== 'boolean') throw invalidParam('force', 'force must be a boolean');
    if (postType === 'event' && force)
      throw invalidParam('force', 'deleting an event for good needs a confirmation: use the delete_event tool (trashing needs none)');
    const { context } = signedIn(call);
    const result =
      postType === 'ticket'
        ? await this.tickets.remove(id, context)
        : postType === 'event'
          ? await this.events.remove(id, force, context)
          : await this.linked(postType).remove(id, force, context);
    return tecAnswer(`Successfully ${force ? 'permanently deleted' : 'moved to trash'} ${postType} with ID: ${id}`, result);
  }

  private linked(postType: 'venue' | 'organizer'): TecVenuesService | TecOrganizersService {
    return postType === 'venue' ? this.venues : this.organizers;
  }

  private service(postType: PostType): TecEventsService | TecVenuesService | TecOrganizersService | TecTicketsService {
    if (postType === 'event') return this.events;
    if (postType === 'ticket') return this.tickets;
    return this.linked(postType);
  }
}

type Body = [TecTranslation, Type<unknown>];
const BODIES: Record<PostType, { create: Body; update: Body }> = {
  event: { create: [createEventBody, CreateEventDto], update: [updateEventBody, UpdateEventDto] },
  venue: { create: [createVenueBody, CreateVenueDto], update: [updateVenueBody, UpdateVenueDto] },
  organizer: { create: [createOrganizerBody, CreateOrganizerDto], update: [updateOrganizerBody, UpdateOrganizerDto] },
  ticket: { create: [createTicketBody, CreateTicketDto], update: [updateTicketBody, TecTicketUpdateInput] },
};

/** A tec/v1 query as the route's pipe turns it into the namespace's (numbers as the query string has them). */
async function tecQuery<T>(translation: TecTranslation, dto: Type<T>, input: Record<string, unknown>): Promise<T> {
  const query = asQuery(input);
  return (await new TecInputPipe(translation, dto).transform(query, { type: 'query', metatype: dto })) as T;
}
