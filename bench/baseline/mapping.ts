import type { Zone } from 'luxon';
import {
  calendarDate,
  CurrencySettings,
  dateDetails,
  describeCost,
  formattedPrice,
  isoInZone,
  moneyColumn,
  plainText,
  postImage,
  rawPrice,
  renderParagraphs,
  resolveZone,
  timezoneAbbreviation,
  wallClock,
} from './format';

/**
 * Rows as mysql2 returns them (DATETIME as Date, DECIMAL as string, BOOLEAN as 0/1) and the
 * response objects built from them, keys in the service's order.
 */

export interface RequestContext {
  /** `http://host[:port]` (or PUBLIC_URL). */
  origin: string;
  /** Host name (and path) of the site, for global ids. */
  siteId: string;
  /** `{origin}{API_ROOT}/cal/events/v1/` and its tickets twin. */
  eventsBase: string;
  ticketsBase: string;
  /** SITE_TIMEZONE, in which `date` and `modified` are shown. */
  siteZone: Zone | null;
  currency: CurrencySettings;
}

type Flag = number | boolean;

const isSet = (flag: Flag): boolean => flag === 1 || flag === true;

interface PostRow {
  id: number;
  author_id: number | null;
  status: string;
  title: string;
  slug: string;
  description: string | null;
  excerpt: string | null;
  image: string | null;
  published_at: Date;
  updated_at: Date;
}

export interface EventRow extends PostRow {
  timezone: string;
  all_day: Flag;
  start_utc: Date;
  end_utc: Date;
  start_local: string;
  end_local: string;
  cost: string | null;
  website: string | null;
  show_map: Flag;
  show_map_link: Flag;
  hide_from_listings: Flag;
  sticky: Flag;
  featured: Flag;
  show_attendee_list: Flag;
}

export interface VenueRow extends PostRow {
  address: string | null;
  city: string | null;
  country: string | null;
  province: string | null;
  state: string | null;
  stateprovince: string | null;
  zip: string | null;
  phone: string | null;
  website: string | null;
  show_map: Flag;
  show_map_link: Flag;
  geo_lat: string | null;
  geo_lng: string | null;
}

export interface OrganizerRow extends PostRow {
  phone: string | null;
  website: string | null;
  email: string | null;
}

export interface TermRow {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  /** Categories only. */
  parent_id?: number | null;
  /** Published events linked to the term, stored with it. */
  published_event_count: number;
}

export interface TicketRow {
  id: number;
  event_id: number;
  author_id: number | null;
  provider: string;
  status: string;
  name: string;
  description: string | null;
  price: string;
  sku: string | null;
  iac: string;
  sale_start_utc: Date | null;
  sale_end_utc: Date | null;
  capacity_mode: 'own' | 'capped' | 'global' | 'unlimited';
  capacity: number | null;
  sold: number;
  pending: number;
  published_at: Date;
  updated_at: Date;
}

export interface PoolRow {
  event_id: number;
  capacity: number;
  sold: number;
  pending: number;
}

export interface AttendeeRow {
  id: number;
  order_id: number;
  ticket_id: number;
  event_id: number;
  user_id: number | null;
  provider: string;
  status: string;
  order_status: string;
  rsvp_going: Flag | null;
  holder_name: string;
  holder_email: string;
  security_code: string;
  price_paid: string;
  optout: Flag;
  checked_in: Flag;
  checked_in_at: Date | null;
  checkin_source: string | null;
  checkin_user_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface OrderRow {
  id: number;
  provider: string;
  status: string;
  purchaser_name: string;
  purchaser_email: string;
  total: string;
  currency: string;
  expires_at: Date | null;
  created_at: Date;
}

// ---------------------------------------------------------------- posts

function globalId(context: RequestContext, id: number, type?: string): { global_id: string; global_id_lineage: string[] } {
  const value = type ? `${context.siteId}?type=${type}&id=${id}` : `${context.siteId}?id=${id}`;
  return { global_id: value, global_id_lineage: [value] };
}

function postBase(post: PostRow, type: 'event' | 'venue' | 'organizer', context: RequestContext) {
  return {
    id: post.id,
    author: String(post.author_id ?? 0),
    status: post.status,
    date: wallClock(post.published_at, context.siteZone),
    date_utc: wallClock(post.published_at),
    modified: wallClock(post.updated_at, context.siteZone),
    modified_utc: wallClock(post.updated_at),
    url: `${context.origin}/${type}/${post.slug}/`,
  };
}

/** Venues and organizers leave out empty values ("", null, false, author "0"), but for the map flags. */
function withoutEmpty(fields: Record<string, unknown>, keep: readonly string[] = []): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key in fields) {
    const value = fields[key];
    const empty = value === '' || value === null || value === undefined || value === false || (key === 'author' && value === '0');
    if (!empty || keep.includes(key)) result[key] = value;
  }
  return result;
}

const coordinate = (value: string | null): number | null => (value === null ? null : Number(value));

export function venueJsonLd(venue: VenueRow): Record<string, unknown> {
  const jsonLd: Record<string, unknown> = { '@type': 'Place', name: venue.title, description: plainText(venue.excerpt || venue.description) };
  if (venue.image) jsonLd.image = venue.image;
  jsonLd.url = '';
  jsonLd.address = {
    '@type': 'PostalAddress',
    ...withoutEmpty({
      streetAddress: venue.address,
      addressLocality: venue.city,
      addressRegion: venue.stateprovince || venue.state || venue.province || '',
      postalCode: venue.zip,
      addressCountry: venue.country,
    }),
  };
  if (venue.geo_lat !== null && venue.geo_lng !== null) {
    jsonLd.geo = { '@type': 'GeoCoordinates', latitude: coordinate(venue.geo_lat), longitude: coordinate(venue.geo_lng) };
  }
  jsonLd.telephone = venue.phone ?? '';
  jsonLd.sameAs = venue.website ?? '';
  return jsonLd;
}

const VENUE_FLAGS = ['show_map', 'show_map_link'] as const;

export function toVenue(venue: VenueRow, context: RequestContext, withJsonLd: boolean): Record<string, unknown> {
  return withoutEmpty(
    {
      ...postBase(venue, 'venue', context),
      venue: venue.title,
      description: renderParagraphs(venue.description),
      excerpt: renderParagraphs(venue.excerpt),
      slug: venue.slug,
      image: postImage(venue.image),
      address: venue.address,
      city: venue.city,
      country: venue.country,
      province: venue.province,
      state: venue.state,
      zip: venue.zip,
      phone: venue.phone,
      website: venue.website,
      stateprovince: venue.stateprovince,
      geo_lat: coordinate(venue.geo_lat),
      geo_lng: coordinate(venue.geo_lng),
      json_ld: withJsonLd ? venueJsonLd(venue) : undefined,
      show_map: isSet(venue.show_map),
      show_map_link: isSet(venue.show_map_link),
      ...globalId(context, venue.id),
    },
    VENUE_FLAGS,
  );
}

function organizerJsonLd(organizer: OrganizerRow): Record<string, unknown> {
  const jsonLd: Record<string, unknown> = { '@type': 'Person', name: organizer.title, description: plainText(organizer.excerpt || organizer.description) };
  if (organizer.image) jsonLd.image = organizer.image;
  jsonLd.url = organizer.website ?? '';
  jsonLd.telephone = organizer.phone ?? '';
  jsonLd.email = organizer.email ?? '';
  jsonLd.sameAs = organizer.website ?? '';
  return jsonLd;
}

function toOrganizer(organizer: OrganizerRow, context: RequestContext): Record<string, unknown> {
  return withoutEmpty({
    ...postBase(organizer, 'organizer', context),
    organizer: organizer.title,
    description: renderParagraphs(organizer.description),
    excerpt: renderParagraphs(organizer.excerpt),
    slug: organizer.slug,
    image: postImage(organizer.image),
    phone: organizer.phone,
    website: organizer.website,
    email: organizer.email,
    json_ld: organizerJsonLd(organizer),
    ...globalId(context, organizer.id),
  });
}

function toEmbeddedTerm(term: TermRow, kind: 'category' | 'tag', count: number, context: RequestContext) {
  const collection = kind === 'category' ? 'categories' : 'tags';
  const parent = term.parent_id ?? 0;
  const urls: Record<string, string> = { self: `${context.eventsBase}${collection}/${term.id}`, collection: `${context.eventsBase}${collection}` };
  if (parent !== 0) urls.up = `${context.eventsBase}${collection}/${parent}`;
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: kind === 'category' ? 'cal_events_cat' : 'post_tag',
    description: term.description ?? '',
    parent,
    count,
    filter: 'raw',
    id: term.id,
    urls,
  };
}

// ---------------------------------------------------------------- events

export interface TicketOffer {
  price: string;
  saleStartUtc: Date | null;
  saleEndUtc: Date | null;
  publishedAt: Date;
  inStock: boolean;
}

export interface EventRelations {
  venues: VenueRow[];
  organizers: OrganizerRow[];
  categories: Array<{ term: TermRow; count: number }>;
  tags: Array<{ term: TermRow; count: number }>;
  ticketed: false | string[];
  /** Single reads of ticketed events: the JSON-LD offers. */
  ticketOffers?: TicketOffer[];
}

export function toEvent(event: EventRow, relations: EventRelations, context: RequestContext, withJsonLd: boolean): Record<string, unknown> {
  const base = postBase(event, 'event', context);
  const utcStart = wallClock(event.start_utc);
  const utcEnd = wallClock(event.end_utc);
  const cost = describeCost(event.cost, context.currency);
  const venues = relations.venues.map((venue) => toVenue(venue, context, true));
  const response: Record<string, unknown> = {
    id: event.id,
    ...globalId(context, event.id),
    author: base.author,
    status: base.status,
    date: base.date,
    date_utc: base.date_utc,
    modified: base.modified,
    modified_utc: base.modified_utc,
    url: base.url,
    rest_url: `${context.eventsBase}events/${event.id}`,
    title: event.title,
    description: renderParagraphs(event.description),
    excerpt: renderParagraphs(event.excerpt),
    slug: event.slug,
    image: postImage(event.image),
    all_day: isSet(event.all_day),
    start_date: event.start_local,
    start_date_details: dateDetails(event.start_local),
    end_date: event.end_local,
    end_date_details: dateDetails(event.end_local),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: event.timezone,
    timezone_abbr: timezoneAbbreviation(event.timezone, event.start_utc),
    cost: cost.cost,
    cost_details: cost.cost_details,
    website: event.website || base.url,
    show_map: isSet(event.show_map),
    show_map_link: isSet(event.show_map_link),
    hide_from_listings: isSet(event.hide_from_listings),
    sticky: isSet(event.sticky),
    featured: isSet(event.featured),
    categories: relations.categories.map(({ term, count }) => toEmbeddedTerm(term, 'category', count, context)),
    tags: relations.tags.map(({ term, count }) => toEmbeddedTerm(term, 'tag', count, context)),
    venue: venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
    organizer: relations.organizers.map((organizer) => toOrganizer(organizer, context)),
    custom_fields: [],
  };
  if (withJsonLd) response.json_ld = eventJsonLd(event, relations, response, context);
  response.ticketed = relations.ticketed;
  return response;
}

const IN_STOCK = 'https://schema.org/InStock';
const SOLD_OUT = 'https://schema.org/SoldOut';

function eventJsonLd(event: EventRow, relations: EventRelations, response: Record<string, unknown>, context: RequestContext): Record<string, unknown> {
  const url = response.url as string;
  const jsonLd: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: event.title,
    description: plainText(event.excerpt || event.description),
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoInZone(event.start_utc, event.timezone),
    endDate: isoInZone(event.end_utc, event.timezone),
  };
  if (event.image) jsonLd.image = event.image;
  if (relations.venues.length > 0) jsonLd.location = venueJsonLd(relations.venues[0]);
  if (relations.organizers.length === 1) jsonLd.organizer = organizerJsonLd(relations.organizers[0]);
  if (relations.organizers.length > 1) jsonLd.organizer = relations.organizers.map(organizerJsonLd);
  const code = context.currency.code;
  if (relations.ticketOffers?.length) {
    jsonLd.offers = relations.ticketOffers.map((ticket) => {
      const offer: Record<string, unknown> = {
        '@type': 'Offer',
        url,
        price: ticket.price.endsWith('.00') ? ticket.price.slice(0, -3) : ticket.price,
        category: 'primary',
        availability: ticket.inStock ? IN_STOCK : SOLD_OUT,
        priceCurrency: code,
        validFrom: isoInZone(ticket.saleStartUtc ?? ticket.publishedAt, event.timezone),
      };
      if (ticket.saleEndUtc) offer.validThrough = isoInZone(ticket.saleEndUtc, event.timezone);
      return offer;
    });
  } else {
    const prices = (response.cost_details as { values: string[] }).values;
    if (prices.length > 0) {
      const offers = prices.map((price) => ({
        '@type': 'Offer',
        price,
        priceCurrency: code,
        url,
        category: 'primary',
        availability: IN_STOCK,
        validFrom: isoInZone(event.published_at, event.timezone),
      }));
      jsonLd.offers = offers.length === 1 ? offers[0] : offers;
    }
  }
  return jsonLd;
}

// ---------------------------------------------------------------- capacity

/** Units left now: -1 when unlimited (the service's availableUnits). */
export function availableUnits(ticket: TicketRow, pool: PoolRow | undefined): number {
  const left = (capacity: number, sold: number, pending: number) => Math.max(capacity - sold - pending, 0);
  switch (ticket.capacity_mode) {
    case 'unlimited':
      return -1;
    case 'own':
      return left(ticket.capacity ?? 0, ticket.sold, ticket.pending);
    case 'global':
      return pool ? left(pool.capacity, pool.sold, pool.pending) : 0;
    case 'capped': {
      const poolLeft = pool ? left(pool.capacity, pool.sold, pool.pending) : 0;
      return ticket.capacity === null ? poolLeft : Math.min(left(ticket.capacity, ticket.sold, ticket.pending), poolLeft);
    }
  }
}

function effectiveCapacity(ticket: TicketRow, pool: PoolRow | undefined): number | undefined {
  switch (ticket.capacity_mode) {
    case 'unlimited':
      return undefined;
    case 'own':
      return ticket.capacity ?? 0;
    case 'global':
      return pool?.capacity ?? 0;
    case 'capped': {
      const poolCapacity = pool?.capacity ?? 0;
      return ticket.capacity === null ? poolCapacity : Math.min(ticket.capacity, poolCapacity);
    }
  }
}

// ---------------------------------------------------------------- attendees and tickets

/** What the caller may see of an attendee: everything for managers of its event, public fields otherwise. */
export function toAttendee(attendee: AttendeeRow, ticket: TicketRow, eventTimezone: string, manage: boolean, context: RequestContext): Record<string, unknown> {
  const created = wallClock(attendee.created_at, context.siteZone);
  const eventZone = resolveZone(eventTimezone);
  const optout = isSet(attendee.optout);
  const price = moneyColumn(ticket.price);
  const response: Record<string, unknown> = {
    id: attendee.id,
    post_id: attendee.event_id,
    ticket_id: attendee.ticket_id,
    ...globalId(context, attendee.id, 'attendee'),
    author: String(attendee.user_id ?? 0),
    status: attendee.status,
    date: created,
    date_utc: wallClock(attendee.created_at),
    modified: wallClock(attendee.updated_at, context.siteZone),
    modified_utc: wallClock(attendee.updated_at),
    rest_url: `${context.ticketsBase}attendees/${attendee.id}`,
    ticket: {
      id: ticket.id,
      title: ticket.name,
      description: ticket.description ?? '',
      raw_price: rawPrice(price),
      formatted_price: formattedPrice(price),
      currency_config: { symbol: context.currency.symbol, placement: context.currency.position, decimal_point: '.', thousands_sep: ',', number_of_decimals: 2 },
      start_sale: ticket.sale_start_utc ? calendarDate(ticket.sale_start_utc, eventZone) : '',
      end_sale: ticket.sale_end_utc ? calendarDate(ticket.sale_end_utc, eventZone) : '',
    },
  };
  // Opting out hides the name from the public; those who run the event still see it.
  if (!optout || manage) response.title = attendee.holder_name;
  response.optout = optout;
  if (!manage) return response;

  const checkedIn = isSet(attendee.checked_in);
  response.provider = attendee.provider;
  response.order = attendee.order_id;
  response.sku = ticket.sku ?? '';
  response.email = attendee.holder_email;
  response.checked_in = checkedIn;
  if (checkedIn && attendee.checked_in_at) {
    const date = wallClock(attendee.checked_in_at, context.siteZone);
    response.checkin_details = { date, date_details: dateDetails(date), source: attendee.checkin_source ?? 'site', author: String(attendee.checkin_user_id ?? 0) };
  } else {
    response.checkin_details = false;
  }
  response.is_subscribed = false;
  response.is_purchaser = true;
  response.security_code = attendee.security_code;
  if (attendee.provider === 'rsvp') {
    response.rsvp_going = attendee.rsvp_going !== null && isSet(attendee.rsvp_going);
  } else {
    response.payment = {
      provider: attendee.provider,
      price: rawPrice(moneyColumn(attendee.price_paid)),
      currency: context.currency.symbol,
      date: created,
      date_details: dateDetails(created),
    };
  }
  return response;
}

/** A ticket as anonymous callers see it in GET /tickets (public attendees only, no manager fields). */
export function toPublicListTicket(
  ticket: TicketRow,
  eventTimezone: string,
  pool: PoolRow | undefined,
  attendees: AttendeeRow[],
  context: RequestContext,
): Record<string, unknown> {
  const eventZone = resolveZone(eventTimezone);
  const capacity = effectiveCapacity(ticket, pool);
  const available = availableUnits(ticket, pool);
  const percentage = capacity === undefined ? 100 : capacity <= 0 || available <= 0 ? 0 : Math.floor((available / capacity) * 100);
  const availableFrom = ticket.sale_start_utc ? wallClock(ticket.sale_start_utc, eventZone) : '';
  const availableUntil = ticket.sale_end_utc ? wallClock(ticket.sale_end_utc, eventZone) : '';
  const price = moneyColumn(ticket.price);
  const { currency } = context;
  const isTicketsCommerce = ticket.provider === 'tc';
  const amount = formattedPrice(price);
  return {
    description: ticket.description ?? '',
    capacity: capacity === undefined ? '' : capacity,
    on_sale: isTicketsCommerce ? false : null,
    iac: ticket.iac,
    price_suffix: null,
    post_id: ticket.event_id,
    provider: ticket.provider,
    id: ticket.id,
    type: 'default',
    ...globalId(context, ticket.id, ticket.provider),
    author: String(ticket.author_id ?? 0),
    status: ticket.status,
    date: wallClock(ticket.published_at, context.siteZone),
    date_utc: wallClock(ticket.published_at),
    modified: wallClock(ticket.updated_at, context.siteZone),
    modified_utc: wallClock(ticket.updated_at),
    title: ticket.name,
    image: false,
    available_from: availableFrom,
    available_from_details: dateDetails(availableFrom),
    available_until: availableUntil,
    available_until_details: dateDetails(availableUntil),
    capacity_details: { available_percentage: percentage, available },
    is_available: percentage > 0,
    cost: currency.position === 'prefix' ? `${currency.symbol}${amount}` : `${amount}${currency.symbol}`,
    cost_details: {
      currency_symbol: currency.symbol,
      currency_position: currency.position,
      values: [rawPrice(price)],
      suffix: null,
      currency_decimal_separator: '.',
      currency_decimal_numbers: 2,
      currency_thousand_separator: ',',
    },
    sale_price_data: isTicketsCommerce ? { enabled: '', sale_price: '', start_date: '', end_date: '' } : [],
    supports_attendee_information: false,
    attendees: attendees.map((attendee) => toAttendee(attendee, ticket, eventTimezone, false, context)),
    rest_url: `${context.ticketsBase}tickets/${ticket.id}`,
  };
}

// ---------------------------------------------------------------- orders and carts

export function toOrder(
  order: OrderRow,
  attendees: AttendeeRow[],
  tickets: Map<number, TicketRow>,
  eventZones: Map<number, string>,
  context: RequestContext,
): Record<string, unknown> {
  const response: Record<string, unknown> = {
    id: order.id,
    status: order.status,
    provider: order.provider,
    total: moneyColumn(order.total),
    currency: order.currency,
    purchaser: { name: order.purchaser_name, email: order.purchaser_email },
    attendees: attendees.flatMap((attendee) => {
      const ticket = tickets.get(attendee.ticket_id);
      return ticket ? [toAttendee(attendee, ticket, eventZones.get(attendee.event_id) ?? 'UTC', true, context)] : [];
    }),
    created: wallClock(order.created_at, context.siteZone),
  };
  if (order.status === 'pending' && order.expires_at) response.expires = wallClock(order.expires_at, context.siteZone);
  return response;
}

export interface CartLineRow {
  ticketId: number;
  provider: string;
  quantity: number;
  optout: Flag;
  meta: string | null;
  eventId: number;
  iac: string;
}

function storedItems(meta: string | null): unknown[] | null {
  if (meta === null) return null;
  try {
    const parsed: unknown = JSON.parse(meta);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The cart of a write without `post_id`: no URLs, as the service answers it. */
export function toCart(lines: CartLineRow[]): Record<string, unknown> {
  const meta: Array<{ ticket_id: number; provider: string; items: unknown[] }> = [];
  for (const line of lines) {
    const items = storedItems(line.meta);
    if (items) meta.push({ ticket_id: line.ticketId, provider: line.provider, items });
  }
  return {
    tickets: lines.map((line) => ({ ticket_id: line.ticketId, quantity: line.quantity, post_id: line.eventId, optout: isSet(line.optout) ? 1 : 0, iac: line.iac, provider: line.provider })),
    meta,
    cart_url: '',
    checkout_url: '',
  };
}
