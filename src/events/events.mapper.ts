import { Category } from '../categories/category.entity';
import { dateDetails, formatInZone, formatIsoInZone } from '../common/dates/date-format';
import { toPostImage } from '../linked-posts/linked-post-response';
import { resolveTimeZone } from '../common/dates/timezone';
import { formatMoney } from '../common/money';
import { timeZoneAbbreviation } from '../common/dates/timezone-abbreviation';
import type { RequestContext } from '../auth/request-context';
import { globalIdFields, postBaseFields } from '../posts/post-response';
import { plainText, renderParagraphs } from '../posts/rich-text';
import { toEmbeddedTermResponse } from '../terms/term-response';
import type { CurrencyConfig } from '../config/app.config';
import { Organizer } from '../organizers/organizer.entity';
import { organizerJsonLd, toOrganizerResponse } from '../organizers/organizers.mapper';
import { Tag } from '../tags/tag.entity';
import { Venue } from '../venues/venue.entity';
import { toVenueResponse, venueJsonLd } from '../venues/venues.mapper';
import type { EventResponse } from './dto/event.response';
import { describeCost } from './event-cost';
import type { EventSeriesFacts, EventTicketOffer } from './event-ports';
import { Event } from './event.entity';
import { shownDeclaredFields, type ShownFieldValues } from './event-fields';
import { JsonText } from '../common/http/json-text';
import { ByteAssembler } from '../common/http/byte-assembler';
import type { PageLinks } from '../common/pagination/pagination';

/** What an event response shows besides the event row, loaded in bulk for a whole page. */
export interface EventRelations {
  venues: Venue[];
  organizers: Organizer[];
  categories: Array<{ term: Category; count: number }>;
  tags: Array<{ term: Tag; count: number }>;
  /** false without tickets, else the providers of the event's tickets, as the original. */
  ticketed: false | string[];
  /** The published tickets, loaded for single reads only (they become the JSON-LD offers). */
  ticketOffers?: EventTicketOffer[];
  /** The series the event is an occurrence of. */
  series?: EventSeriesFacts;
}

export interface EventMappingOptions {
  /** schema.org JSON-LD, on single GETs only. */
  jsonLd: boolean;
  currency: CurrencyConfig;
}

function isoInZone(instant: Date, timezone: string): string {
  return formatIsoInZone(instant, resolveTimeZone(timezone) ?? 'UTC');
}

function eventJsonLd(event: Event, relations: EventRelations, response: EventResponse, context: RequestContext, currency: CurrencyConfig) {
  const jsonLd: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: event.title,
    description: plainText(event.excerpt || event.description),
    url: response.url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoInZone(event.startUtc, event.timezone),
    endDate: isoInZone(event.endUtc, event.timezone),
  };
  if (response.image) jsonLd.image = response.image.url;
  if (relations.venues.length > 0) jsonLd.location = venueJsonLd(relations.venues[0]);
  if (relations.organizers.length === 1) jsonLd.organizer = organizerJsonLd(relations.organizers[0]);
  if (relations.organizers.length > 1) jsonLd.organizer = relations.organizers.map((organizer) => organizerJsonLd(organizer));
  const offers = relations.ticketOffers?.length
    ? ticketOffersJsonLd(event, relations.ticketOffers, response, currency)
    : costOffersJsonLd(event, response, currency);
  if (offers) jsonLd.offers = offers;
  // The original adds `performer: "Organization"`, a type name where schema.org wants a Person or
  // Organization object; search engines flag it, and we know no performer, so it is left out.
  return jsonLd;
}

/** Availability as schema.org enumeration members (full IRIs: `inStock`, as the original writes it, is not one). */
const IN_STOCK = 'https://schema.org/InStock';
const SOLD_OUT = 'https://schema.org/SoldOut';

/** 25.00 as "25", 12.50 as "12.50": the original shows whole prices without decimals. */
function offerPrice(priceMinor: number, exponent: number): string {
  return priceMinor % 10 ** exponent === 0 ? String(priceMinor / 10 ** exponent) : formatMoney(priceMinor, exponent);
}

/** One Offer per published ticket: its price, sold out or not, and its sale window. */
export function ticketOffersJsonLd(
  event: Pick<Event, 'timezone'>,
  tickets: EventTicketOffer[],
  response: Pick<EventResponse, 'url'>,
  currency: CurrencyConfig,
): Record<string, unknown>[] {
  return tickets.map((ticket) => {
    const offer: Record<string, unknown> = {
      '@type': 'Offer',
      url: response.url,
      price: offerPrice(ticket.priceMinor, currency.exponent),
      category: 'primary',
      availability: ticket.inStock ? IN_STOCK : SOLD_OUT,
      priceCurrency: currency.code,
      validFrom: isoInZone(ticket.saleStartUtc ?? ticket.publishedAt, event.timezone),
    };
    if (ticket.saleEndUtc) offer.validThrough = isoInZone(ticket.saleEndUtc, event.timezone);
    return offer;
  });
}

/** Without tickets, the offers come from the cost: one per price it names (an object for one). */
function costOffersJsonLd(event: Event, response: EventResponse, currency: CurrencyConfig): unknown {
  const prices = response.cost_details.values;
  if (prices.length === 0) return undefined;
  const offers = prices.map((price) => ({
    '@type': 'Offer',
    price,
    priceCurrency: currency.code,
    url: response.url,
    category: 'primary',
    availability: IN_STOCK,
    validFrom: isoInZone(event.publishedAt, event.timezone),
  }));
  return offers.length === 1 ? offers[0] : offers;
}

export function toEventResponse(
  event: Event,
  relations: EventRelations,
  context: RequestContext,
  options: EventMappingOptions,
): EventResponse {
  const base = postBaseFields(event, 'event', context);
  const utcStart = formatInZone(event.startUtc);
  const utcEnd = formatInZone(event.endUtc);
  const cost = describeCost(event.cost, options.currency);
  const venues = relations.venues.map((venue) => toVenueResponse(venue, context, { jsonLd: true }));
  const response: EventResponse = {
    id: event.id,
    ...globalIdFields(context, event.id),
    author: base.author,
    status: base.status,
    date: base.date,
    date_utc: base.date_utc,
    modified: base.modified,
    modified_utc: base.modified_utc,
    url: base.url,
    rest_url: context.namespaceUrl('events', `events/${event.id}`),
    title: event.title,
    description: renderParagraphs(event.description),
    excerpt: renderParagraphs(event.excerpt),
    slug: event.slug,
    image: toPostImage(event.image),
    all_day: event.allDay,
    start_date: event.startLocal,
    start_date_details: dateDetails(event.startLocal),
    end_date: event.endLocal,
    end_date_details: dateDetails(event.endLocal),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: event.timezone,
    timezone_abbr: timeZoneAbbreviation(event.timezone, event.startUtc),
    cost: cost.cost,
    cost_details: cost.cost_details,
    website: event.website || base.url,
    // Together with the added ones below, every shown field: the two parts make ShownFieldValues whole.
    ...(shownDeclaredFields(event, 'original') as ShownFieldValues),
    categories: relations.categories.map(({ term, count }) => toEmbeddedTermResponse(term, 'category', count, context)),
    tags: relations.tags.map(({ term, count }) => toEmbeddedTermResponse(term, 'tag', count, context)),
    // One venue is an object, none an empty array, several an array (as the original with PRO).
    venue: venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
    organizer: relations.organizers.map((organizer) => toOrganizerResponse(organizer, context, { jsonLd: true })),
    custom_fields: [],
    ticketed: relations.ticketed,
    series_id: relations.series?.seriesId ?? null,
    recurrence: relations.series?.recurrence ?? null,
    ...shownDeclaredFields(event, 'added'),
  };
  if (options.jsonLd) {
    const { ticketed, series_id, recurrence, ...beforeJsonLd } = response;
    const added = shownDeclaredFields(event, 'added');
    for (const key of Object.keys(added)) delete (beforeJsonLd as Record<string, unknown>)[key];
    return {
      ...beforeJsonLd,
      json_ld: eventJsonLd(event, relations, response, context, options.currency),
      ticketed,
      series_id,
      recurrence,
      ...added,
    };
  }
  return response;
}

/**
 * The events list's body, `{events, rest_url, next_rest_url?, previous_rest_url?, total, total_pages}`
 * (EventListResponse), as JSON text around the page's items already serialized; with the surrogate
 * keys of the list and of what its items show.
 */
export function eventListJson(page: {
  events: { items: ByteAssembler; keys: string[] };
  links: PageLinks;
  total: number;
  totalPages: number;
}): JsonText {
  const rest = JSON.stringify({ ...page.links, total: page.total, total_pages: page.totalPages });
  const body = new ByteAssembler()
    .addText('{"events":[')
    .addAll(page.events.items)
    .addText(`],${rest.slice(1)}`);
  return new JsonText(body, ['events', 'events-list', ...page.events.keys.filter((key) => key !== 'events')]);
}
