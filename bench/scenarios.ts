/**
 * What each benchmark scenario sends. Shared by the runner (names, titles, the floor's plan) and the
 * load process (requests), which receives the context as JSON: request builders must be rebuilt there.
 *
 * The lists walk a realistic working set: every value of every filter (every category, parents
 * included, every tag, venue and organizer, pairs of categories), pages 1–LIST_PAGES of each (those
 * that exist); the crawler walks all of those pages and every single event uniformly; the visitor
 * draws the same pages and events Zipf-shaped (a few very often, a long tail).
 */

/** A list the scenarios page through: its query without `page`, and the pages asked (`firstPage`..`lastPage`). */
export interface ListRoute {
  query: string;
  firstPage: number;
  lastPage: number;
}

export type ListName =
  'events-list' | 'events-category' | 'events-tag' | 'events-venue' | 'events-organizer' | 'events-two-categories' | 'events-page-200';

/** Ids read from the seeded database, so that every request hits real rows. */
export interface ScenarioContext {
  /** Each list scenario's routes: one per filter value (or pair), each with its pages. */
  lists: Record<ListName, ListRoute[]>;
  /** Published events (for the single-event route, the crawler and the visitor). */
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
  /**
   * Each request carries the If-None-Match of its path as the target answered it before the run
   * (the runner asks each target once), so a current target answers 304.
   */
  conditional?: boolean;
  /** The `n`-th request of the run. */
  request(context: ScenarioContext, n: number): BenchRequest;
}

export const EVENTS_PATH = '/cal/events/v1/events';
export const PER_PAGE = 25;
/** Pages 1..this of each filtered list (those that exist). */
export const LIST_PAGES = 10;
export const DEEP_PAGE = 200;
/** Single events the scenarios draw from (all published ones when fewer). */
export const SINGLE_EVENTS = 20_000;
/** The exponent of the visitor's Zipf law: the k-th most popular path is asked in proportion to 1/k^s. */
export const ZIPF_EXPONENT = 1;

function pick<T>(values: T[]): T {
  return values[Math.floor(Math.random() * values.length)];
}

export function listPath(route: ListRoute, page: number): string {
  return `${EVENTS_PATH}?${route.query === '' ? '' : `${route.query}&`}page=${page}`;
}

export function eventPath(id: number): string {
  return `${EVENTS_PATH}/${id}`;
}

/** Every page of these routes, route by route. */
export function routePaths(routes: ListRoute[]): string[] {
  const paths: string[] = [];
  for (const route of routes) for (let page = route.firstPage; page <= route.lastPage; page += 1) paths.push(listPath(route, page));
  return paths;
}

/** The lists the crawler and the visitor walk: every list scenario's routes but the deep page (a window's far end, not a filter). */
const WALKED_LISTS: ListName[] = [
  'events-list',
  'events-category',
  'events-tag',
  'events-venue',
  'events-organizer',
  'events-two-categories',
];

/** Paths derived from a context, built once per context in the load process (the context arrives as JSON). */
interface Derived {
  /** Each list's pages, flattened. */
  listPages: Map<ListName, string[]>;
  /** Every list page and every single event: the crawler's set. */
  all: string[];
  /** The same paths by popularity, and the Zipf law's cumulative weights over them. */
  ranked: string[];
  cumulative: Float64Array;
}

const derived = new WeakMap<ScenarioContext, Derived>();

/** A small deterministic generator (mulberry32): the visitor's popularity order is the same in every process. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The visitor's popularity order: first pages before later ones (people rarely page far), the
 * lists of each page in a shuffled order, single events shuffled and interleaved with them (one
 * event per list page, then the rest), so that the head holds the default list's first page,
 * some filters' first pages and some events, and the tail everything else.
 */
function popularityOrder(context: ScenarioContext): string[] {
  const random = seededRandom(20_261_126);
  const shuffle = <T>(values: T[]): T[] => {
    for (let index = values.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [values[index], values[other]] = [values[other], values[index]];
    }
    return values;
  };
  const routes = WALKED_LISTS.flatMap((name) => context.lists[name]);
  const byPage: string[] = [listPath({ query: '', firstPage: 1, lastPage: 1 }, 1)];
  for (let page = 1; page <= LIST_PAGES; page += 1) {
    const pages = routes.filter((route) => route.firstPage <= page && page <= route.lastPage).map((route) => listPath(route, page));
    byPage.push(...shuffle(pages.filter((path) => path !== byPage[0])));
  }
  const events = shuffle(context.eventIds.map(eventPath));
  const ordered: string[] = [];
  const longest = Math.max(byPage.length, events.length);
  for (let index = 0; index < longest; index += 1) {
    if (index < byPage.length) ordered.push(byPage[index]);
    if (index < events.length) ordered.push(events[index]);
  }
  return ordered;
}

function derive(context: ScenarioContext): Derived {
  let found = derived.get(context);
  if (!found) {
    const listPages = new Map<ListName, string[]>();
    for (const name of Object.keys(context.lists) as ListName[]) listPages.set(name, routePaths(context.lists[name]));
    const all = [...WALKED_LISTS.flatMap((name) => listPages.get(name) ?? []), ...context.eventIds.map(eventPath)];
    const ranked = popularityOrder(context);
    const cumulative = new Float64Array(ranked.length);
    let sum = 0;
    for (let rank = 0; rank < ranked.length; rank += 1) cumulative[rank] = sum += 1 / Math.pow(rank + 1, ZIPF_EXPONENT);
    found = { listPages, all, ranked, cumulative };
    derived.set(context, found);
  }
  return found;
}

/** A path drawn from the Zipf law over the popularity order (binary search of the cumulative weights). */
function zipfPath(found: Derived): string {
  const target = Math.random() * found.cumulative[found.cumulative.length - 1];
  let low = 0;
  let high = found.cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (found.cumulative[middle] < target) low = middle + 1;
    else high = middle;
  }
  return found.ranked[low];
}

/** Every path of a scenario's working set (the floor keeps what they reach; the tests ask each of them). */
export function scenarioPaths(context: ScenarioContext, name: string): string[] {
  const found = derive(context);
  if (name === 'event-single' || name === 'event-single-conditional') return context.eventIds.map(eventPath);
  if (name === 'crawler' || name === 'visitor-zipf') return found.all;
  return found.listPages.get(name as ListName) ?? [];
}

function listScenario(name: ListName, title: string): Scenario {
  return {
    name,
    title,
    list: name,
    request: (context) => ({ method: 'GET', path: pick(derive(context).listPages.get(name)!) }),
  };
}

function managerScenario(name: string, title: string, path: string, sale: boolean): Scenario {
  return { name, title, sale, request: (context) => ({ method: 'GET', path, headers: { authorization: context.managerAuthorization } }) };
}

export const SCENARIOS: Scenario[] = [
  listScenario('events-list', 'Events list, default window, pages 1–10'),
  listScenario('events-category', 'Events list, every category (parents too), pages 1–10'),
  listScenario('events-tag', 'Events list, every tag, pages 1–10'),
  listScenario('events-venue', 'Events list, every venue, pages 1–10'),
  listScenario('events-organizer', 'Events list, every organizer, pages 1–10'),
  listScenario('events-two-categories', 'Events list, two categories at once (each with the next), pages 1–10'),
  listScenario('events-page-200', 'Events list, default window, page 200'),
  {
    name: 'event-single',
    title: 'Single event by id, uniform over the working set of events',
    request: (context) => ({ method: 'GET', path: eventPath(pick(context.eventIds)) }),
  },
  {
    name: 'event-single-conditional',
    title: 'Single event by id, conditional (If-None-Match of its current ETag: 304), same working set',
    conditional: true,
    request: (context) => ({ method: 'GET', path: eventPath(pick(context.eventIds)) }),
  },
  {
    name: 'crawler',
    title: 'Crawler: every list page above and every single event, uniformly',
    request: (context) => ({ method: 'GET', path: pick(derive(context).all) }),
  },
  {
    name: 'visitor-zipf',
    title: `Visitors: the same pages and events, Zipf-shaped (s = ${ZIPF_EXPONENT})`,
    request: (context) => ({ method: 'GET', path: zipfPath(derive(context)) }),
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
