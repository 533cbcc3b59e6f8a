import { decode } from 'he';
import { DateTime } from 'luxon';
import type { RequestContext } from '../auth/request-context';
import { resolveTimeZone } from '../common/dates/timezone';
import type { EventResponse } from '../events/dto/event.response';
import type { OrganizerResponse } from '../organizers/dto/organizer.response';
import type { TicketResponse } from '../tickets/dto/ticket.response';
import type { VenueResponse } from '../venues/dto/venue.response';
import {
  TecDateTime,
  TecEventDates,
  TecEventResponse,
  TecLinkedPostEnvelope,
  TecOrganizerResponse,
  TecPostResponse,
  TecTicketResponse,
  TecVenueResponse,
} from './dto/tec-post.response';

/*
 * tec/v1 shows the same objects as the events and tickets namespaces, in the WordPress post shape:
 * these functions take the documented responses of those namespaces' services (what the caller
 * may see is already decided there) and lay them out as TEC does.
 */

const WALL_CLOCK = 'yyyy-MM-dd HH:mm:ss';

/** `2025-06-13 17:25:00` → `2025-06-13T17:25:00`, WordPress's REST date format. */
function wpDate(wallClock: string): string {
  return wallClock.replace(' ', 'T');
}

function textOf(html: string | undefined): string {
  return html ? decode(html) : '';
}

interface PostFields {
  id: number;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  status: string;
  slug: string;
}

function postEnvelope(post: PostFields, type: string, link: string, title: string, content: string): TecPostResponse {
  return {
    id: post.id,
    date: wpDate(post.date),
    date_gmt: wpDate(post.date_utc),
    guid: { rendered: link },
    modified: wpDate(post.modified),
    modified_gmt: wpDate(post.modified_utc),
    slug: post.slug,
    status: post.status,
    type,
    link,
    title: { rendered: title },
    content: { rendered: content, protected: false },
  };
}

function linkedPostEnvelope(
  post: PostFields & { author?: string; url: string; description?: string; excerpt?: string },
  type: string,
  title: string,
): TecLinkedPostEnvelope {
  return {
    ...postEnvelope(post, type, post.url, title, post.description ?? ''),
    excerpt: { rendered: post.excerpt ?? '', protected: false },
    author: Number(post.author ?? 0),
    featured_media: 0,
    template: '',
  };
}

/** Google Maps' search link for an address, HTML-escaped as TEC prints it. */
function directionsLink(parts: Array<string | undefined>): string {
  const address = parts.filter((part): part is string => !!part).join(', ');
  if (!address) return '';
  const query = encodeURIComponent(address).replace(/%20/g, '+');
  return `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${query}`;
}

export function toTecVenue(venue: VenueResponse): TecVenueResponse {
  return {
    ...linkedPostEnvelope(venue, 'tribe_venue', venue.venue),
    address: venue.address ?? '',
    country: venue.country ?? '',
    city: venue.city ?? '',
    state_province: venue.stateprovince ?? '',
    state: venue.state ?? '',
    province: venue.province ?? '',
    zip: venue.zip ?? '',
    phone: venue.phone ?? '',
    directions_link: directionsLink([venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]),
    website: venue.website ?? '',
  };
}

export function toTecOrganizer(organizer: OrganizerResponse): TecOrganizerResponse {
  return {
    ...linkedPostEnvelope(organizer, 'tribe_organizer', organizer.organizer),
    phone: organizer.phone ?? '',
    website: organizer.website ?? '',
    email: organizer.email ?? '',
  };
}

function phpDateTime(instant: DateTime, zoneName: string): TecDateTime {
  return { date: `${instant.toFormat(WALL_CLOCK)}.000000`, timezone_type: 3, timezone: zoneName };
}

function zoned(utc: DateTime, zoneName: string): DateTime {
  return utc.setZone(resolveTimeZone(zoneName) ?? 'UTC');
}

function eventDates(start: DateTime, end: DateTime, eventZone: string, siteZone: string): TecEventDates {
  const at = (instant: DateTime, zone: string) => phpDateTime(zoned(instant, zone), zone);
  return {
    start: at(start, eventZone),
    start_utc: at(start, 'UTC'),
    start_site: at(start, siteZone),
    start_display: at(start, eventZone),
    end: at(end, eventZone),
    end_utc: at(end, 'UTC'),
    end_site: at(end, siteZone),
    end_display: at(end, eventZone),
  };
}

/** TEC's date formats: `F j, Y` (the year left out in the current year) and `g:i a`. */
function dayText(local: DateTime, now: DateTime): string {
  return local.toFormat(local.year === now.year ? 'LLLL d' : 'LLLL d, yyyy', { locale: 'en-US' });
}

function timeText(local: DateTime): string {
  return local.toFormat('h:mm a', { locale: 'en-US' }).replace(/^0/, '').toLowerCase();
}

const span = (className: string, text: string) => `<span class="tribe-event-${className}">${text}</span>`;

/** `tribe_events_event_schedule_details()` and its short form, for an event from `start` to `end` (event time zone). */
function scheduleDetails(start: DateTime, end: DateTime, allDay: boolean, multiday: boolean, now: DateTime): [string, string] {
  if (allDay) {
    const full = multiday
      ? `${span('date-start', dayText(start, now))} - ${span('date-end', dayText(end, now))}`
      : span('date-start', dayText(start, now));
    return [full, full];
  }
  if (multiday) {
    const full = `${span('date-start', `${dayText(start, now)} @ ${timeText(start)}`)} - ${span('date-end', `${dayText(end, now)} @ ${timeText(end)}`)}`;
    return [full, `${span('date-start', dayText(start, now))} - ${span('date-end', dayText(end, now))}`];
  }
  return [
    `${span('date-start', `${dayText(start, now)} @ ${timeText(start)}`)} - ${span('time', timeText(end))}`,
    `${span('date-start', timeText(start))} - ${span('time', timeText(end))}`,
  ];
}

function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function toTecEvent(event: EventResponse, context: RequestContext, now: DateTime): TecEventResponse {
  const startUtc = DateTime.fromFormat(event.utc_start_date, WALL_CLOCK, { zone: 'UTC' });
  const endUtc = DateTime.fromFormat(event.utc_end_date, WALL_CLOCK, { zone: 'UTC' });
  const start = zoned(startUtc, event.timezone);
  const end = zoned(endUtc, event.timezone);
  // An event ending at midnight does not run into the next day.
  const multiday = !start.hasSame(end.minus({ seconds: 1 }), 'day') && end > start;
  const [schedule, shortSchedule] = scheduleDetails(start, end, event.all_day, multiday, now);
  const organizers = event.organizer.map(toTecOrganizer);
  return {
    ...linkedPostEnvelope(event, 'tribe_events', event.title),
    tags: event.tags.map((tag) => tag.id),
    tribe_events_cat: event.categories.map((category) => category.id),
    class_list: [`post-${event.id}`, 'tribe_events', 'type-tribe_events', `status-${event.status}`, 'hentry'],
    start_date: event.start_date,
    start_date_utc: event.utc_start_date,
    end_date: event.end_date,
    end_date_utc: event.utc_end_date,
    dates: eventDates(startUtc, endUtc, event.timezone, context.siteTimezone),
    timezone: event.timezone,
    duration: String(Math.max(0, Math.round(endUtc.diff(startUtc, 'seconds').seconds))),
    multiday,
    is_past: endUtc < now,
    is_now: startUtc <= now && now <= endUtc,
    all_day: event.all_day,
    starts_this_week: null,
    ends_this_week: null,
    this_week_duration: null,
    happens_this_week: null,
    displays_on: [],
    featured: event.featured,
    sticky: event.sticky,
    cost: textOf(event.cost),
    organizer_names: organizers.map((organizer) => organizer.title.rendered),
    organizers,
    venues: asList(event.venue).map(toTecVenue),
    schedule_details: schedule,
    short_schedule_details: shortSchedule,
    ticketed: event.ticketed,
  };
}

function price(ticket: TicketResponse): number {
  const value = Number(ticket.cost_details.values[0] ?? 0);
  return Number.isFinite(value) ? value : 0;
}

export function toTecTicket(ticket: TicketResponse, context: RequestContext): TecTicketResponse {
  const link = `${context.origin}/?post_type=tec_tc_ticket&p=${ticket.id}`;
  const slug = ticket.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const unlimited = ticket.capacity === '';
  return {
    ...postEnvelope({ ...ticket, slug }, 'tec_tc_ticket', link, ticket.title, ''),
    template: '',
    description: ticket.description,
    on_sale: false,
    sale_price: null,
    price: price(ticket),
    regular_price: price(ticket),
    show_description: true,
    start_date: ticket.available_from || null,
    end_date: ticket.available_until || null,
    sale_price_start_date: null,
    sale_price_end_date: null,
    event_id: ticket.post_id,
    manage_stock: !unlimited,
    stock: unlimited ? null : ticket.capacity_details.available,
    sold: ticket.capacity_details.sold ?? ticket.totals?.sold ?? null,
    sku: ticket.sku ?? '',
  };
}
