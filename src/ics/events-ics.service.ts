import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/http/request-context';
import { ListEventsQuery } from '../events/dto/list-events.query';
import { EventsService } from '../events/events.service';
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

/** The events namespace in iCalendar form: the list as a feed and one event as a file. */
@Injectable()
export class EventsIcsService {
  /**
   * Feeds being built, by caller and URL. A feed is the dearest response of the API, and clients
   * (or one client, repeating itself) that ask for the same feed at the same time share one
   * build: it is as fresh for each of them as its own would have been.
   */
  private readonly feedsInFlight = new Map<string, Promise<IcsFile>>();

  constructor(private readonly events: EventsService) {}

  feed(query: ListEventsQuery, context: RequestContext, url: string): Promise<IcsFile> {
    const key = `${context.user?.id ?? 0}\n${url}`;
    let flight = this.feedsInFlight.get(key);
    if (!flight) {
      flight = this.buildFeed(query, context, url).finally(() => this.feedsInFlight.delete(key));
      this.feedsInFlight.set(key, flight);
    }
    return flight;
  }

  private async buildFeed(query: ListEventsQuery, context: RequestContext, url: string): Promise<IcsFile> {
    const { events, relations, total } = await this.events.findForFeed(query, context, ICS_FEED_MAX_EVENTS);
    const entries = events.map((event) => ({ event, relations: relations.get(event.id)! }));
    return { body: buildEventCalendar(entries, { name: `${context.siteId} events`, url, context }), total, filename: 'events.ics' };
  }

  async single(id: number, context: RequestContext, url: string): Promise<IcsFile> {
    const entry = await this.events.findReadableWithRelations({ id }, context);
    return { body: buildEventCalendar([entry], { name: inlineHtmlToText(entry.event.title), url, context }), total: 1, filename: `${entry.event.slug}.ics` };
  }
}
