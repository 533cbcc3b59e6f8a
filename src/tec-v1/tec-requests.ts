import { perPageOutOfRange } from './tec-errors';
import type { TecTranslation } from './tec-input.pipe';

/*
 * tec/v1's parameters and body fields, as the events and tickets namespaces name them. Fields
 * not listed are dropped, as TEC drops what its schema does not define.
 */

type Input = Record<string, unknown>;

/** TEC's default page size (WordPress's `posts_per_page`). */
export const TEC_DEFAULT_PER_PAGE = 10;
const TEC_MAX_PER_PAGE = 100;

/** Bounds that stand for "no bound": tec/v1 lists have no implicit upcoming window. */
export const OPEN_WINDOW = { start: '1970-01-01 00:00:00', end: '2999-12-31 23:59:59' };

function renaming(pairs: Array<[tec: string, other: string]>): {
  copy: (input: Input, output: Input) => void;
  tecName: Record<string, string>;
} {
  return {
    copy(input, output) {
      for (const [tec, other] of pairs) if (input[tec] !== undefined) output[other] = input[tec];
    },
    tecName: Object.fromEntries(pairs.filter(([tec, other]) => tec !== other).map(([tec, other]) => [other, tec])),
  };
}

/** page and per_page: TEC's default of 10 and its 1..100 range (a 400 beyond, not a clamp). */
function paging(input: Input, output: Input): void {
  output.page = input.page;
  const perPage = input.per_page ?? TEC_DEFAULT_PER_PAGE;
  const number = Number(Array.isArray(perPage) ? perPage[perPage.length - 1] : perPage);
  if (Number.isInteger(number) && number > TEC_MAX_PER_PAGE) throw perPageOutOfRange();
  output.per_page = perPage;
}

const EVENT_QUERY = renaming([
  ['search', 'search'],
  ['categories', 'categories'],
  ['tags', 'tags'],
  ['venue', 'venue'],
  ['organizer', 'organizer'],
  ['featured', 'featured'],
  ['status', 'status'],
  ['post_parent', 'post_parent'],
]);

export const eventsQuery: TecTranslation = {
  translate(input) {
    const output: Input = {};
    paging(input, output);
    EVENT_QUERY.copy(input, output);
    output.start_date = input.start_date ?? OPEN_WINDOW.start;
    output.end_date = input.end_date ?? OPEN_WINDOW.end;
    return output;
  },
  tecName: EVENT_QUERY.tecName,
};

const LINKED_POST_QUERY = renaming([
  ['search', 'search'],
  ['event', 'event'],
  ['has_events', 'has_events'],
  ['only_with_upcoming', 'only_with_upcoming'],
  ['status', 'status'],
]);

export const linkedPostsQuery: TecTranslation = {
  translate(input) {
    const output: Input = {};
    paging(input, output);
    LINKED_POST_QUERY.copy(input, output);
    return output;
  },
  tecName: LINKED_POST_QUERY.tecName,
};

const TICKET_QUERY = renaming([
  ['search', 'search'],
  ['include', 'include'],
  ['exclude', 'exclude'],
]);

const TICKET_ORDER_BY = new Set(['date', 'id', 'title']);

export const ticketsQuery: TecTranslation = {
  translate(input) {
    const output: Input = {};
    paging(input, output);
    TICKET_QUERY.copy(input, output);
    if (input.event !== undefined) output.include_post = [input.event];
    // TEC applies an order only when both are given; `date` and `id` are creation order here.
    if (typeof input.orderby === 'string' && TICKET_ORDER_BY.has(input.orderby) && typeof input.order === 'string') {
      output.orderby = input.orderby === 'title' ? 'title' : 'id';
      output.order = input.order.toUpperCase();
    }
    return output;
  },
  tecName: { ...TICKET_QUERY.tecName, include_post: 'event' },
};

const EVENT_BODY = renaming([
  ['title', 'title'],
  ['content', 'description'],
  ['excerpt', 'excerpt'],
  ['slug', 'slug'],
  ['status', 'status'],
  ['date', 'date'],
  ['date_gmt', 'date_utc'],
  ['author', 'author'],
  ['start_date', 'start_date'],
  ['end_date', 'end_date'],
  ['timezone', 'timezone'],
  ['all_day', 'all_day'],
  ['featured', 'featured'],
  ['sticky', 'sticky'],
  ['cost', 'cost'],
  ['venues', 'venue'],
  ['organizers', 'organizer'],
  ['tribe_events_cat', 'categories'],
  ['tags', 'tags'],
]);

/** An id list sent as one id (`7`) or a comma-separated string stays a list. */
function idList(value: unknown): unknown {
  if (typeof value === 'number') return [value];
  if (typeof value === 'string')
    return value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  return value;
}

function eventBody(create: boolean): TecTranslation {
  return {
    translate(input) {
      const output: Input = {};
      EVENT_BODY.copy(input, output);
      for (const field of ['venue', 'organizer', 'categories', 'tags'])
        if (output[field] !== undefined) output[field] = idList(output[field]);
      // TEC's schema default; the events namespace would make a draft.
      if (create && (output.status === undefined || output.status === '')) output.status = 'publish';
      return output;
    },
    tecName: EVENT_BODY.tecName,
  };
}

export const createEventBody = eventBody(true);
export const updateEventBody = eventBody(false);

const POST_BODY: Array<[string, string]> = [
  ['content', 'description'],
  ['excerpt', 'excerpt'],
  ['slug', 'slug'],
  ['status', 'status'],
  ['date', 'date'],
  ['date_gmt', 'date_utc'],
  ['author', 'author'],
];

function linkedPostBody(noun: 'venue' | 'organizer', fields: Array<[string, string]>, create: boolean): TecTranslation {
  const names = renaming([['title', noun], ...POST_BODY, ...fields]);
  return {
    translate(input) {
      const output: Input = {};
      names.copy(input, output);
      if (create && (output.status === undefined || output.status === '')) output.status = 'publish';
      return output;
    },
    tecName: names.tecName,
  };
}

const VENUE_FIELDS: Array<[string, string]> = [
  ['address', 'address'],
  ['city', 'city'],
  ['state_province', 'stateprovince'],
  ['state', 'state'],
  ['province', 'province'],
  ['zip', 'zip'],
  ['country', 'country'],
  ['phone', 'phone'],
  ['website', 'website'],
];
const ORGANIZER_FIELDS: Array<[string, string]> = [
  ['email', 'email'],
  ['phone', 'phone'],
  ['website', 'website'],
];

export const createVenueBody = linkedPostBody('venue', VENUE_FIELDS, true);
export const updateVenueBody = linkedPostBody('venue', VENUE_FIELDS, false);
export const createOrganizerBody = linkedPostBody('organizer', ORGANIZER_FIELDS, true);
export const updateOrganizerBody = linkedPostBody('organizer', ORGANIZER_FIELDS, false);

const TICKET_BODY = renaming([
  ['title', 'name'],
  ['description', 'description'],
  ['price', 'price'],
  ['sku', 'sku'],
  ['show_description', 'show_description'],
]);

/** `Y-m-d[ H:i:s]` split into the date and the time of day the tickets namespace takes apart. */
function splitDateTime(value: unknown, output: Input, dateField: string, timeField: string): void {
  if (typeof value !== 'string') {
    if (value !== undefined) output[dateField] = value;
    return;
  }
  const [date, time] = value.trim().split(/[ T]/);
  output[dateField] = date;
  if (time) output[timeField] = time;
}

const STOCK_MODES: Record<string, string> = { own: 'own', capped: 'capped', global: 'global', unlimited: '' };

function ticketBody(create: boolean): TecTranslation {
  return {
    translate(input) {
      const output: Input = { provider: 'tc' };
      TICKET_BODY.copy(input, output);
      if (output.description === undefined && input.content !== undefined) output.description = input.content;
      const event = input.event ?? input.event_id;
      if (event !== undefined || create) output.post_id = event;
      splitDateTime(input.start_date, output, 'start_date', 'start_time');
      splitDateTime(input.end_date, output, 'end_date', 'end_time');
      const capacity = input.capacity ?? input.stock;
      const ticket: Input = {};
      if (input.stock_mode !== undefined)
        ticket.mode = typeof input.stock_mode === 'string' ? (STOCK_MODES[input.stock_mode] ?? input.stock_mode) : input.stock_mode;
      if (capacity !== undefined) {
        if (Number(capacity) === -1) ticket.mode = '';
        else ticket.capacity = capacity;
      }
      if (input.event_capacity !== undefined) ticket.event_capacity = input.event_capacity;
      // Neither a capacity nor a mode: a ticket without a limit, as TEC makes it.
      if (create && ticket.mode === undefined && ticket.capacity === undefined) ticket.mode = '';
      if (Object.keys(ticket).length > 0) output.ticket = ticket;
      return output;
    },
    tecName: {
      ...TICKET_BODY.tecName,
      post_id: 'event',
      'ticket[mode]': 'stock_mode',
      'ticket[capacity]': 'capacity',
      'ticket[event_capacity]': 'event_capacity',
      start_time: 'start_date',
      end_time: 'end_date',
    },
  };
}

export const createTicketBody = ticketBody(true);
export const updateTicketBody = ticketBody(false);
