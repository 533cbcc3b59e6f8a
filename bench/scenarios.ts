/**
 * What each benchmark scenario sends. Shared by the runner (names, titles) and the load process
 * (requests), which receives the context as JSON: request builders must be rebuilt there.
 */

/** Ids and words read from the seeded database, so that every request hits real rows. */
export interface ScenarioContext {
  /** A category holding enough upcoming events for 20 pages. */
  categoryId: number;
  /** Words found in upcoming events' titles. */
  searchWords: string[];
  /** Published events (for the single-event route). */
  eventIds: number[];
  /** Tickets on sale with units left, for cart writes: [id, provider]. */
  cartTickets: Array<[number, string]>;
  /** `Basic …` header of an administrator (application password). */
  managerAuthorization: string;
  /** Cart tokens (more than connections), issued by the target itself before the run; token i's cart holds cartTickets[i % length]. */
  cartTokens: string[];
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
  /** The `n`-th request of the run. */
  request(context: ScenarioContext, n: number): BenchRequest;
}

function pick<T>(values: T[]): T {
  return values[Math.floor(Math.random() * values.length)];
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export const SCENARIOS: Scenario[] = [
  {
    name: 'events-list',
    title: 'Events list, default window',
    request: () => ({ method: 'GET', path: '/cal/events/v1/events' }),
  },
  {
    name: 'events-category',
    title: 'Events list, category filter, pages 1–20',
    request: (context) => ({ method: 'GET', path: `/cal/events/v1/events?categories=${context.categoryId}&page=${1 + Math.floor(Math.random() * 20)}` }),
  },
  {
    name: 'events-search',
    title: 'Events list with search',
    request: (context) => ({ method: 'GET', path: `/cal/events/v1/events?search=${encodeURIComponent(pick(context.searchWords))}` }),
  },
  {
    name: 'event-single',
    title: 'Single event by id',
    request: (context) => ({ method: 'GET', path: `/cal/events/v1/events/${pick(context.eventIds)}` }),
  },
  {
    name: 'venues-list',
    title: 'Venues list',
    request: () => ({ method: 'GET', path: '/cal/events/v1/venues' }),
  },
  {
    name: 'tickets-list',
    title: 'Tickets list',
    request: () => ({ method: 'GET', path: '/cal/tickets/v1/tickets' }),
  },
  {
    name: 'attendees-manager',
    title: 'Attendees list as a manager',
    request: (context) => ({ method: 'GET', path: '/cal/tickets/v1/attendees', headers: { authorization: context.managerAuthorization } }),
  },
  {
    name: 'cart-write',
    title: 'Cart write (anonymous buyer with a token)',
    request: (context, n) => {
      // Round robin over more carts than connections: two requests in flight never share a cart.
      const cart = n % context.cartTokens.length;
      const [ticketId, provider] = context.cartTickets[cart % context.cartTickets.length];
      return {
        method: 'POST',
        path: '/cal/tickets/v1/cart',
        headers: { ...JSON_HEADERS, 'x-cart-token': context.cartTokens[cart] },
        // Alternating quantities: every request changes the line.
        body: JSON.stringify({ provider, tickets: [{ ticket_id: ticketId, quantity: 1 + (Math.floor(n / context.cartTokens.length) % 2) }] }),
      };
    },
  },
];

/** Scenarios measured apart from autocannon's steady load. */
export const CHECKOUT_SCENARIO = { name: 'checkout-contention', title: 'Checkout, 200 buyers on capacity 50' };

export const ALL_SCENARIO_NAMES = [...SCENARIOS.map((scenario) => scenario.name), CHECKOUT_SCENARIO.name];
