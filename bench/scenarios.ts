/**
 * What each benchmark scenario sends. Shared by the runner (names, titles, the floor's plan) and the
 * load process (requests), which receives the context as JSON: request builders must be rebuilt there.
 */

/** A list the scenarios page through: its query without `page`, and the pages asked (`firstPage`..`lastPage`). */
export interface ListRoute {
  query: string;
  firstPage: number;
  lastPage: number;
}

export type ListName =
  'events-list' | 'events-category' | 'events-tag' | 'events-venue' | 'events-organizer' | 'events-two-categories' | 'events-page-200';

/** Ids read from the seeded database (and pages from the service), so that every request hits real rows. */
export interface ScenarioContext {
  lists: Record<ListName, ListRoute>;
  /** Published events (for the single-event route). */
  eventIds: number[];
  /** `Basic …` header of an administrator (application password). */
  managerAuthorization: string;
}

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  title: string;
  /** The events list it pages through (measured at every size of the scaling run). */
  list?: ListName;
  /** Measured while the runner sells tickets at a steady rate (on tickets the lists do not show first). */
  sale?: boolean;
  /** The `n`-th request of the run. */
  request(context: ScenarioContext, n: number): BenchRequest;
}

export const EVENTS_PATH = '/cal/events/v1/events';
export const PER_PAGE = 25;
/** Pages 1..this of each filtered list. */
export const LIST_PAGES = 20;
export const DEEP_PAGE = 200;

function pick<T>(values: T[]): T {
  return values[Math.floor(Math.random() * values.length)];
}

export function listPath(route: ListRoute, page: number): string {
  return `${EVENTS_PATH}?${route.query === '' ? '' : `${route.query}&`}page=${page}`;
}

function listScenario(name: ListName, title: string): Scenario {
  return {
    name,
    title,
    list: name,
    request: (context) => {
      const route = context.lists[name];
      return { method: 'GET', path: listPath(route, route.firstPage + Math.floor(Math.random() * (route.lastPage - route.firstPage + 1))) };
    },
  };
}

function managerScenario(name: string, title: string, path: string, sale: boolean): Scenario {
  return { name, title, sale, request: (context) => ({ method: 'GET', path, headers: { authorization: context.managerAuthorization } }) };
}

export const SCENARIOS: Scenario[] = [
  listScenario('events-list', 'Events list, default window, pages 1–20'),
  listScenario('events-category', 'Events list, one category, pages 1–20'),
  listScenario('events-tag', 'Events list, one tag, pages 1–20'),
  listScenario('events-venue', 'Events list, one venue, pages 1–20'),
  listScenario('events-organizer', 'Events list, one organizer, pages 1–20'),
  listScenario('events-two-categories', 'Events list, two categories, pages 1–20'),
  listScenario('events-page-200', 'Events list, default window, page 200'),
  {
    name: 'event-single',
    title: 'Single event by id',
    request: (context) => ({ method: 'GET', path: `${EVENTS_PATH}/${pick(context.eventIds)}` }),
  },
  managerScenario('tickets-list', 'Tickets list as a manager', '/cal/tickets/v1/tickets', false),
  managerScenario('attendees-manager', 'Attendees list as a manager', '/cal/tickets/v1/attendees', false),
  managerScenario('tickets-list-sale', 'Tickets list as a manager, during a sale', '/cal/tickets/v1/tickets', true),
  managerScenario('attendees-manager-sale', 'Attendees list as a manager, during a sale', '/cal/tickets/v1/attendees', true),
];

/** A sale scenario and the same requests without the sale (the target compares the service's throughput in both). */
export const SALE_PAIRS: Array<{ sale: string; quiet: string }> = [
  { sale: 'tickets-list-sale', quiet: 'tickets-list' },
  { sale: 'attendees-manager-sale', quiet: 'attendees-manager' },
];
