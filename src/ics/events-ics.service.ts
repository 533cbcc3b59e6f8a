import { Inject, Injectable } from '@nestjs/common';
import { CountCache } from '../catalogue/caching/count-cache';
import { CLOCK, Clock } from '../common/clock';
import type { RequestContext } from '../auth/request-context';
import { ListEventsQuery } from '../events/dto/list-events.query';
import { EventReads } from '../catalogue/event-reads.service';
import { buildEventCalendar } from './event-calendar';
import { inlineHtmlToText } from './plain-text';

/**
 * Most events one feed holds. A subscription asks for the whole feed every hour or so, so it is
 * not paged like the list; clients that want more narrow it with start_date and end_date.
 */
export const ICS_FEED_MAX_EVENTS = 500;

export interface IcsFile {
  body: string;
  /** Events matching the query, including those beyond ICS_FEED_MAX_EVENTS. */
  total: number;
  filename: string;
}

/** Feeds kept: each up to a few hundred KB. */
const FEED_CACHE_ENTRIES = 20;
/**
 * How long a kept feed may be served: by default a feed holds upcoming events, which change with
 * the time of day as well as with writes.
 */
const FEED_CACHE_MS = 60_000;

interface CachedFeed {
  generation: number;
  storedAt: number;
  file: IcsFile;
}

/** The events namespace in iCalendar form: the list as a feed and one event as a file. */
@Injectable()
export class EventsIcsService {
  /**
   * Feeds being built, by caller and URL. A feed is the dearest response of the API (about 1 s of
   * CPU for 300 events on a busy machine, with the event loop held for much of it), and clients,
   * or one client repeating itself, that ask for the same feed at the same time share one build.
   */
  private readonly feedsInFlight = new Map<string, Promise<IcsFile>>();
  /**
   * Feeds built, by caller and URL, served again while nothing the events scope covers (events,
   * their links, venues, organizers, terms) was written, by any instance (the count cache's
   * generation), and for at most FEED_CACHE_MS.
   */
  private readonly feeds = new Map<string, CachedFeed>();

  constructor(
    private readonly events: EventReads,
    private readonly counts: CountCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async feed(query: ListEventsQuery, context: RequestContext, url: string): Promise<IcsFile> {
    // A token sees less than its owner (event limits, masking): its feeds are kept apart.
    const key = `${context.user?.id ?? 0}/${context.user?.token?.id ?? ''}\n${url}`;
    const generation = await this.counts.generationOf('events');
    const cached = this.feeds.get(key);
    if (cached && cached.generation === generation && this.clock.now().getTime() - cached.storedAt < FEED_CACHE_MS) return cached.file;
    const flightKey = `${generation}\n${key}`;
    let flight = this.feedsInFlight.get(flightKey);
    if (!flight) {
      flight = this.buildFeed(query, context, url).finally(() => this.feedsInFlight.delete(flightKey));
      this.feedsInFlight.set(flightKey, flight);
    }
    const file = await flight;
    this.keep(key, { generation, storedAt: this.clock.now().getTime(), file });
    return file;
  }

  private keep(key: string, entry: CachedFeed): void {
    this.feeds.delete(key);
    // A Map iterates in insertion order: the first key is the feed kept longest.
    if (this.feeds.size >= FEED_CACHE_ENTRIES) this.feeds.delete(this.feeds.keys().next().value!);
    this.feeds.set(key, entry);
  }

  private async buildFeed(query: ListEventsQuery, context: RequestContext, url: string): Promise<IcsFile> {
    const { events, relations, total } = await this.events.findForFeed(query, context, ICS_FEED_MAX_EVENTS);
    const entries = events.map((event) => ({ event, relations: relations.get(event.id)! }));
    return { body: buildEventCalendar(entries, { name: `${context.siteId} events`, url, context }), total, filename: 'events.ics' };
  }

  async single(id: number, context: RequestContext, url: string): Promise<IcsFile> {
    const entry = await this.events.findReadableWithRelations({ id }, context);
    return {
      body: buildEventCalendar([entry], { name: inlineHtmlToText(entry.event.title), url, context }),
      total: 1,
      filename: `${entry.event.slug}.ics`,
    };
  }
}
