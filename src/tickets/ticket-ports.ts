/**
 * TICKET_SERIES: what the tickets module asks of the series module when a ticket is created for
 * every occurrence (`scope=all`); a query port answered by the series module's global
 * SeriesFactsModule, so tickets does not import series. Without it no event is in a series.
 */
export const TICKET_SERIES = Symbol('TICKET_SERIES');

export interface TicketSeries {
  /** The occurrences a ticket created with scope=all goes to (those not trashed nor ended, and this one); null outside a series. */
  ticketTargets(eventId: number): Promise<number[] | null>;
  /** Keeps a ticket created with scope=all for the occurrences the series gets later. */
  rememberTicket(eventId: number, ticket: object): Promise<void>;
}
