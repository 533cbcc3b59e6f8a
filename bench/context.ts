import { DateTime } from 'luxon';
import { BENCH_ADMIN_AUTHORIZATION } from './credentials';
import type { BenchDatabase } from './database';
import type { FloorPlan } from './floor/plan';
import {
  DEEP_PAGE,
  LIST_PAGES,
  ListName,
  ListRoute,
  PER_PAGE,
  SINGLE_EVENTS,
  ScenarioContext,
  scenarioPaths,
  SCENARIOS,
} from './scenarios';

/** The months the events list's default window spans (the service's and the floor's). */
const WINDOW_MONTHS = 24;

/** The default window of the events list today, UTC bounds (the site's zone is UTC in the benchmark). */
export function defaultWindow(siteZone = 'UTC'): { start: string; end: string } {
  const now = DateTime.now().setZone(siteZone);
  const utc = (label: string) =>
    DateTime.fromFormat(label, 'yyyy-MM-dd HH:mm:ss', { zone: siteZone }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
  return {
    start: utc(`${now.toFormat('yyyy-MM-dd')} 00:00:00`),
    end: utc(`${now.plus({ months: WINDOW_MONTHS }).toFormat('yyyy-MM-dd')} 23:59:59`),
  };
}

function pages(listed: number, perPage = PER_PAGE): number {
  return Math.ceil(listed / perPage);
}

/** A route over pages 1..min(LIST_PAGES, its pages); a list with nothing listed is asked its (empty) first page. */
function route(query: string, listed: number): ListRoute {
  return { query, firstPage: 1, lastPage: Math.max(1, Math.min(LIST_PAGES, pages(listed))) };
}

/**
 * The scenarios' working set at this size, from the database: every category, tag, venue and
 * organizer that lists an event in today's window, each category with the next one (by id) for two
 * at once, pages 1–LIST_PAGES of each that exist, page DEEP_PAGE of the default window (or its
 * last), and SINGLE_EVENTS published events (all when fewer).
 */
export async function buildScenarioContext(
  database: BenchDatabase,
  options: { singleEvents?: number; managerAuthorization?: string; siteZone?: string } = {},
): Promise<ScenarioContext> {
  const window = defaultWindow(options.siteZone);
  const listed = await database.listedInWindow(window);
  if (listed === 0) throw new Error('The default window lists no event: seed more events');
  const dimension = async (links: string, column: string, parameter: string): Promise<ListRoute[]> =>
    (await database.listedByValue(links, column, window)).map((value) => route(`${parameter}=${value.id}`, value.listed));
  const categories = await database.listedByValue('event_category_links', 'category_id', window);
  const pairs: ListRoute[] = [];
  for (let index = 0; index + 1 < categories.length; index += 1) {
    const ids = [categories[index].id, categories[index + 1].id];
    pairs.push(route(`categories=${ids.join(',')}`, await database.listedInCategories(ids, window)));
  }
  const deepest = Math.min(DEEP_PAGE, pages(listed));
  const lists: Record<ListName, ListRoute[]> = {
    'events-list': [route('', listed)],
    'events-category': categories.map((value) => route(`categories=${value.id}`, value.listed)),
    'events-tag': await dimension('event_tag_links', 'tag_id', 'tags'),
    'events-venue': await dimension('event_venue_links', 'venue_id', 'venue'),
    'events-organizer': await dimension('event_organizer_links', 'organizer_id', 'organizer'),
    'events-two-categories': pairs,
    'events-page-200': [{ query: '', firstPage: deepest, lastPage: deepest }],
  };
  for (const [name, routes] of Object.entries(lists))
    if (routes.length === 0) throw new Error(`The list scenario ${name} has no value with listed events: seed more events`);
  return {
    lists,
    eventIds: await database.singleEventIds(options.singleEvents ?? SINGLE_EVENTS),
    managerAuthorization: options.managerAuthorization ?? BENCH_ADMIN_AUTHORIZATION,
  };
}

/** What the floor keeps: every list page and single event the scenarios reach, the manager's first pages. */
export function floorPlan(context: ScenarioContext): FloorPlan {
  const pagesByQuery = new Map<string, Set<number>>();
  for (const route of Object.values(context.lists).flat()) {
    const pageSet = pagesByQuery.get(route.query) ?? new Set<number>();
    for (let page = route.firstPage; page <= route.lastPage; page += 1) pageSet.add(page);
    pagesByQuery.set(route.query, pageSet);
  }
  return {
    eventLists: [...pagesByQuery].map(([query, pageSet]) => ({ query, pages: [...pageSet].sort((a, b) => a - b) })),
    eventIds: context.eventIds,
    manager: { authorization: context.managerAuthorization, ticketPages: [1], attendeePages: [1] },
  };
}

/** How many distinct paths each scenario walks (for the report). */
export function workingSetSizes(context: ScenarioContext): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const scenario of SCENARIOS) {
    const paths = scenarioPaths(context, scenario.name);
    if (paths.length) sizes[scenario.name] = paths.length;
  }
  return sizes;
}
