import ical, { ICalEventData, ICalEventStatus, ICalLocationWithTitle } from 'ical-generator';
import { DateTime } from 'luxon';
import { maskEmail, maskPersonName, shouldRedact } from '../auth/personal-data';
import type { RequestContext } from '../auth/request-context';
import type { Event } from '../events/event.entity';
import type { EventRelations } from '../events/events.mapper';
import type { Venue } from '../venues/venue.entity';
import { inlineHtmlToText, richTextToPlainText } from './plain-text';
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

/**
 * A TEXT value as RFC 5545 §3.3.11 writes it: backslash, semicolon and comma escaped, every line
 * break as `\n`. ical-generator escapes the event properties it writes, but not the calendar's
 * NAME and X-WR-CALNAME, which carry an event title: unescaped, a line break there would start
 * properties, or whole events, of the sender's choosing.
 */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (character) => `\\${character}`).replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A quoted parameter value (ORGANIZER's CN) can hold neither a double quote nor a line break in
 * any escaped form (RFC 5545 §3.1), and ical-generator would write a backslash before both.
 */
function parameterText(value: string): string {
  return value.replace(/\r\n|\r|\n/g, ' ').replace(/"/g, "'");
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
  const address = [venue.address, venue.city, region, venue.country].filter(Boolean).map(inlineHtmlToText).join(', ');
  const location: ICalLocationWithTitle = { title: inlineHtmlToText(venue.title) };
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
    summary: inlineHtmlToText(event.title),
    // The event's `url` in responses (postBaseFields), written out: postBaseFields also formats four
    // dates, which took about a third of the time of a 500-event feed. The e2e test holds the two together.
    url: `${context.origin}/event/${event.slug}/`,
    status: event.status === 'publish' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    categories: relations.categories.map(({ term }) => ({ name: inlineHtmlToText(term.name) })),
  };
  const description = richTextToPlainText(event.description) || richTextToPlainText(event.excerpt);
  if (description) data.description = description;
  const venue = relations.venues[0];
  if (venue) data.location = venueLocation(venue);
  // ORGANIZER is a calendar address: an organizer without an email cannot be one.
  const organizer = relations.organizers.find((candidate) => candidate.email);
  if (organizer?.email) {
    const name = inlineHtmlToText(organizer.title);
    // An API token with `pii: redacted` sees people masked here as in every JSON answer.
    data.organizer = shouldRedact(context.user)
      ? { name: parameterText(maskPersonName(name)), email: maskEmail(organizer.email) }
      : { name: parameterText(name), email: organizer.email };
  }
  return data;
}

/** The start and end of the timed events of each IANA zone, which its VTIMEZONE must define. */
function zoneInstants(entries: CalendarEntry[]): Map<string, Date[]> {
  const instants = new Map<string, Date[]>();
  for (const { event } of entries) {
    const zone = event.allDay ? null : canonicalIanaZone(event.timezone);
    if (!zone) continue;
    const list = instants.get(zone) ?? [];
    list.push(event.startUtc, event.endUtc);
    instants.set(zone, list);
  }
  return instants;
}

/** Octets of a code point in UTF-8. */
function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * Folds a content line longer than 75 octets (RFC 5545 §3.1): CRLF and a space before the octet
 * that would pass the limit, never inside a character. ical-generator's own folding allocates a
 * TextEncoder for every character, which took 0.3 to 0.5 s of CPU for a 500-event feed.
 */
export function foldLine(line: string): string {
  if (line.length <= 75 && Buffer.byteLength(line) <= 75) return line;
  let folded = '';
  let octets = 0;
  for (const character of line) {
    const size = utf8Length(character.codePointAt(0)!);
    if (octets + size > 75) {
      folded += '\r\n ';
      // The space that starts a continuation line counts.
      octets = 1;
    }
    folded += character;
    octets += size;
  }
  return folded;
}

/**
 * An iCalendar (RFC 5545) file of these events. ical-generator writes the calendar and each
 * event; the events are folded here (see foldLine), and the VTIMEZONE components go between the
 * calendar properties and the first event, where the grammar wants them (ical-generator's hook for
 * them writes them before properties such as REFRESH-INTERVAL).
 */
export function buildEventCalendar(entries: CalendarEntry[], options: CalendarOptions): string {
  return buildCalendar(entries, options, (entry, host) => toCalendarEvent(entry, options.context, host), []);
}

/** A recurring event: one VEVENT with the rule and an override per occurrence edited on its own. */
export interface SeriesCalendarEntries {
  /** Shared by every VEVENT of the series. */
  uid: string;
  /** The first event, scheduled at the series' DTSTART. */
  master: CalendarEntry;
  /** RRULE, and EXDATE and RDATE when there are, as content lines. */
  ruleLines: string[];
  /** Occurrences that differ from the rule, each with the start the rule gave it. */
  overrides: Array<CalendarEntry & { recurrenceId: Date | DateTime }>;
  /** Starts and ends of every occurrence, so that the VTIMEZONE covers them all. */
  instants: Date[];
}

/** An iCalendar file of one series (RFC 5545 §3.8.5: RRULE, EXDATE, RDATE, RECURRENCE-ID). */
export function buildSeriesCalendar(series: SeriesCalendarEntries, options: CalendarOptions): string {
  const entries = [series.master, ...series.overrides];
  return buildCalendar(
    entries,
    options,
    (entry, host) => {
      const data = toCalendarEvent(entry, options.context, host);
      data.id = series.uid;
      if (entry === series.master) data.repeating = series.ruleLines.join('\n');
      else data.recurrenceId = (entry as SeriesCalendarEntries['overrides'][number]).recurrenceId;
      return data;
    },
    series.instants,
  );
}

function buildCalendar(
  entries: CalendarEntry[],
  options: CalendarOptions,
  toData: (entry: CalendarEntry, host: string) => ICalEventData,
  extraInstants: Date[],
): string {
  const host = new URL(options.context.origin).hostname;
  const calendar = ical({
    prodId: { company: 'cal', product: 'events', language: 'EN' },
    name: escapeText(options.name),
    url: options.url,
    ttl: REFRESH_SECONDS,
  });
  const events = entries.map((entry) => calendar.createEvent(toData(entry, host)).toString());
  calendar.clear();
  const instantsByZone = zoneInstants(entries);
  for (const list of instantsByZone.values()) list.push(...extraInstants);
  const zones = [...instantsByZone]
    .map(([zone, instants]) => buildVTimezone(zone, instants))
    .filter((component): component is string => component !== null);
  const components = [
    ...zones,
    ...events
      .join('')
      .split('\r\n')
      .filter((line) => line !== '')
      .map(foldLine),
  ].join('\r\n');
  const shell = calendar.toString().split('\r\n').map(foldLine).join('\r\n');
  const end = shell.lastIndexOf('END:VCALENDAR');
  // Every line ends with CRLF, the last one included; ical-generator leaves that one out.
  return `${shell.slice(0, end)}${components === '' ? '' : `${components}\r\n`}END:VCALENDAR\r\n`;
}
