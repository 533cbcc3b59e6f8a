import ical, { ICalEventData, ICalEventStatus, ICalLocationWithTitle } from 'ical-generator';
import { DateTime } from 'luxon';
import type { RequestContext } from '../common/http/request-context';
import { postBaseFields } from '../common/posts/post-response';
import type { Event } from '../events/event.entity';
import type { EventRelations } from '../events/events.mapper';
import type { Venue } from '../venues/venue.entity';
import { richTextToPlainText } from './plain-text';
import { buildVTimezone, canonicalIanaZone } from './vtimezone';

export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/**
 * SEQUENCE counts seconds of modification time from this date: it grows with every edit, as
 * RFC 5545 wants, without a revision counter in the database, and fits the 32-bit integer many
 * clients parse it into until 2088.
 */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

/** How often subscribed clients should fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;

export interface CalendarEntry {
  event: Event;
  relations: EventRelations;
}

export interface CalendarOptions {
  /** X-WR-CALNAME: what a client shows as the calendar's name. */
  name: string;
  /** The URL this calendar is served at. */
  url: string;
  context: RequestContext;
}

function sequenceOf(modified: Date): number {
  return Math.max(0, Math.floor((modified.getTime() - SEQUENCE_EPOCH_MS) / 1000));
}

/** `YYYY-MM-DD` of a stored wall-clock value as a date at UTC midnight, which ical-generator writes as a DATE. */
function dateOnly(wallClock: string, plusDays = 0): Date {
  const [year, month, day] = wallClock.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + plusDays));
}

function venueLocation(venue: Venue): ICalLocationWithTitle {
  const region = [venue.stateprovince || venue.state || venue.province, venue.zip].filter(Boolean).join(' ');
  const address = [venue.address, venue.city, region, venue.country].filter(Boolean).join(', ');
  const location: ICalLocationWithTitle = { title: venue.title };
  if (address) location.address = address;
  if (venue.geoLat !== null && venue.geoLng !== null) location.geo = { lat: venue.geoLat, lon: venue.geoLng };
  return location;
}

/**
 * The schedule as iCalendar wants it. All-day events are DATE values, DTEND being the day after
 * the last day (exclusive). Timed events in an IANA zone keep it (TZID, with a VTIMEZONE);
 * those in UTC or a manual offset ("UTC+2", no zone a client could look up) are written in UTC.
 */
function schedule(event: Event): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  if (event.allDay) {
    return { allDay: true, start: dateOnly(event.startLocal), end: dateOnly(event.endLocal, 1) };
  }
  const zone = canonicalIanaZone(event.timezone);
  if (!zone) return { start: event.startUtc, end: event.endUtc };
  return {
    timezone: zone,
    start: DateTime.fromJSDate(event.startUtc, { zone }),
    end: DateTime.fromJSDate(event.endUtc, { zone }),
  };
}

function toCalendarEvent({ event, relations }: CalendarEntry, context: RequestContext, host: string): ICalEventData {
  const data: ICalEventData = {
    id: `${event.id}@${host}`,
    sequence: sequenceOf(event.updatedAt),
    // For a published calendar DTSTAMP is when the event was last revised (RFC 5545 §3.8.7.2):
    // using the modification time also keeps the file, and so its ETag, the same between edits.
    stamp: event.updatedAt,
    created: event.createdAt,
    lastModified: event.updatedAt,
    ...schedule(event),
    summary: event.title,
    url: postBaseFields(event, 'event', context).url,
    status: event.status === 'publish' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    categories: relations.categories.map(({ term }) => ({ name: term.name })),
  };
  const description = richTextToPlainText(event.description) || richTextToPlainText(event.excerpt);
  if (description) data.description = description;
  const venue = relations.venues[0];
  if (venue) data.location = venueLocation(venue);
  // ORGANIZER is a calendar address: an organizer without an email cannot be one.
  const organizer = relations.organizers.find((candidate) => candidate.email);
  // A parameter value cannot hold a double quote in any escaped form (RFC 5545 §3.1).
  if (organizer?.email) data.organizer = { name: organizer.title.replace(/"/g, "'"), email: organizer.email };
  return data;
}

/** The first and last instants of the timed events of each IANA zone, which its VTIMEZONE must cover. */
function zoneSpans(entries: CalendarEntry[]): Map<string, { from: Date; to: Date }> {
  const spans = new Map<string, { from: Date; to: Date }>();
  for (const { event } of entries) {
    const zone = event.allDay ? null : canonicalIanaZone(event.timezone);
    if (!zone) continue;
    const span = spans.get(zone);
    spans.set(zone, {
      from: span && span.from < event.startUtc ? span.from : event.startUtc,
      to: span && span.to > event.endUtc ? span.to : event.endUtc,
    });
  }
  return spans;
}

/**
 * An iCalendar (RFC 5545) file of these events. The VTIMEZONE components are placed before the
 * first event rather than through ical-generator's generator hook, which writes them before
 * calendar properties (REFRESH-INTERVAL) that the grammar wants first.
 */
export function buildEventCalendar(entries: CalendarEntry[], options: CalendarOptions): string {
  const host = new URL(options.context.origin).hostname;
  const calendar = ical({
    prodId: { company: 'cal', product: 'events', language: 'EN' },
    name: options.name,
    url: options.url,
    ttl: REFRESH_SECONDS,
  });
  for (const entry of entries) calendar.createEvent(toCalendarEvent(entry, options.context, host));
  const text = calendar.toString();
  const zones = [...zoneSpans(entries)]
    .map(([zone, span]) => buildVTimezone(zone, span.from, span.to))
    .filter((component): component is string => component !== null);
  // Every line ends with CRLF, the last one included; ical-generator leaves that one out.
  if (zones.length === 0) return `${text}\r\n`;
  return `${text.replace('\r\nBEGIN:VEVENT\r\n', `\r\n${zones.join('\r\n')}\r\nBEGIN:VEVENT\r\n`)}\r\n`;
}
