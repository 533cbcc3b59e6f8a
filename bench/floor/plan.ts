/**
 * What the floor keeps from the service at start-up: the pages and single events the benchmark's
 * scenarios can reach. The floor serves only those documents; anything else is a 500 naming the
 * missing document, so that a scenario outside the plan fails loudly instead of measuring less.
 */
export interface FloorPlan {
  /** Events lists, each a query string without `page` ('' for the default window, `categories=5`, `tags=3&page=`…). */
  eventLists: Array<{ query: string; pages: number[] }>;
  /** Single events (GET /events/{id}). */
  eventIds: number[];
  /** The manager's lists (tickets, attendees): the `Authorization` header the service is read with, and the pages to keep. */
  manager?: { authorization: string; ticketPages: number[]; attendeePages: number[] };
}

/** The floor's own query for a list of the plan, page included. */
export function eventListPath(query: string, page: number): string {
  const pageParameter = `page=${page}`;
  return `/cal/events/v1/events?${query === '' ? pageParameter : `${query}&${pageParameter}`}`;
}
