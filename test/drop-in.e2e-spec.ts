import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { recordedExchange } from './helpers/recorded';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';
import { addedShownKeys } from '../src/events/event-fields';

// Drop-in mode, set before the app reads its configuration. No PUBLIC_URL: the URLs in responses
// must lead back to the port the test server listens on, as they would for a real client.
process.env.API_ROOT = '/wp-json';
process.env.API_PREFIX = 'tribe';

/**
 * Clients written for the original, talking to the service over real HTTP on a loopback port:
 * the `gatsby-source-tribe-events` npm package (nobody here wrote it), a calendar widget walking
 * `next_rest_url`, and the original's form-encoded ticket create.
 */
// The plugin is plain CommonJS without types; this is the whole of its public surface.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const gatsbyPlugin = require('gatsby-source-tribe-events/gatsby-node.js') as {
  sourceNodes(helpers: GatsbyHelpers, options: { baseUrl: string; maxEvents?: number }): Promise<void>;
};

interface GatsbyNode {
  id: string;
  internal: { type: string; contentDigest: string };
  [field: string]: any;
}

interface GatsbyHelpers {
  actions: { createNode(node: GatsbyNode): void };
  createNodeId(seed: string): string;
  createContentDigest(input: unknown): string;
  reporter: Record<'info' | 'warn' | 'error' | 'panic', (...args: unknown[]) => void>;
}

const EVENTS = 120;
const admin = basicAuth(ADMIN.login, ADMIN.password);

/** Midnight UTC of the day `days` from today: inside the events list's default window. */
function dayAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

interface SeededEvent {
  id: number;
  title: string;
  slug: string;
  start_date: string;
  all_day: boolean;
  featured: boolean;
  venueIndex: number;
  categoryIndex: number;
}

describe('Drop-in mode with real clients of the original (e2e)', () => {
  let testApp: TestApp;
  let base: string;
  const venues: Array<Record<string, any>> = [];
  const organizers: Array<Record<string, any>> = [];
  const categories: Array<Record<string, any>> = [];
  const tags: Array<Record<string, any>> = [];
  const events: SeededEvent[] = [];

  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: any }> {
    const response = await fetch(path.startsWith('http') ? path : `${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
  }

  async function create(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await call('POST', path, body, { Authorization: admin });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Record<string, any>;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;

    // Seeded through the API, the way a site's editors fill it.
    for (const [index, city] of ['Springfield', 'Shelbyville', 'Capital City'].entries()) {
      venues.push(
        await create('/wp-json/tribe/events/v1/venues', {
          venue: `Hall ${index + 1}`,
          address: `${index + 1} Main St`,
          city,
          state: 'IL',
          zip: `6270${index}`,
          country: 'United States',
        }),
      );
    }
    for (const name of ['Loopback Society', 'Port 80 Collective']) {
      organizers.push(
        await create('/wp-json/tribe/events/v1/organizers', { organizer: name, email: `${name.split(' ')[0].toLowerCase()}@example.org` }),
      );
    }
    for (const name of ['Concerts', 'Workshops']) categories.push(await create('/wp-json/tribe/events/v1/categories', { name }));
    for (const name of ['jazz', 'beginner']) tags.push(await create('/wp-json/tribe/events/v1/tags', { name }));
    // A few at a time, like several editors: faster on MariaDB, and the links still land right.
    const numbers = Array.from({ length: EVENTS }, (_, index) => index + 1);
    const created = new Map<number, SeededEvent>();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let n = numbers.shift(); n !== undefined; n = numbers.shift()) {
          const allDay = n % 10 === 0;
          const day = dayAhead(n);
          const body = {
            title: `Gig ${String(n).padStart(3, '0')}`,
            description: `<p>Night number ${n}.</p>`,
            start_date: allDay ? day : `${day} 19:30:00`,
            end_date: allDay ? day : `${day} 22:00:00`,
            all_day: allDay,
            featured: n % 7 === 0,
            venue: venues[n % 3].id,
            organizer: [organizers[n % 2].id],
            categories: [categories[n % 2].id],
            tags: [tags[n % 2].id],
          };
          const event = await create('/wp-json/tribe/events/v1/events', body);
          created.set(n, {
            id: event.id,
            title: body.title,
            slug: event.slug,
            start_date: allDay ? `${day} 00:00:00` : `${day} 19:30:00`,
            all_day: allDay,
            featured: body.featured,
            venueIndex: n % 3,
            categoryIndex: n % 2,
          });
        }
      }),
    );
    for (let n = 1; n <= EVENTS; n += 1) events.push(created.get(n) as SeededEvent);
  }, 120_000);

  afterAll(async () => {
    await testApp.close();
  });

  describe('gatsby-source-tribe-events', () => {
    it('sources events, venues, organizers, categories and tags as Gatsby nodes', async () => {
      const nodes: GatsbyNode[] = [];
      const createNodeId = (seed: string) => createHash('sha256').update(`gatsby-node-id|${seed}`).digest('hex').slice(0, 32);
      const createContentDigest = (input: unknown) => createHash('md5').update(JSON.stringify(input)).digest('hex');
      const reporter = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), panic: jest.fn() };
      // The plugin reports a failed request with console.error and carries on; none may happen.
      const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        await gatsbyPlugin.sourceNodes(
          { actions: { createNode: (node) => nodes.push(node) }, createNodeId, createContentDigest, reporter },
          { baseUrl: base, maxEvents: 50 },
        );
        expect(consoleError).not.toHaveBeenCalled();
      } finally {
        consoleError.mockRestore();
      }
      expect(Object.values(reporter).every((method) => method.mock.calls.length === 0)).toBe(true);

      const byType = (type: string) => nodes.filter((node) => node.internal.type === type);
      expect(nodes.map((node) => node.internal.type).filter((type, index, all) => all.indexOf(type) === index)).toEqual([
        'TribeEvents',
        'TribeVenues',
        'TribeOrganizers',
        'TribeCategories',
        'TribeTags',
      ]);
      expect(new Set(nodes.map((node) => node.id)).size).toBe(nodes.length);
      for (const node of nodes) expect(node.internal.contentDigest).toMatch(/^[0-9a-f]{32}$/);

      // maxEvents=50: the first 50 upcoming events, in start order, with the fields the plugin's
      // README queries (title, slug, all_day, start_date, end_date, featured, venue {...}, description).
      const eventNodes = byType('TribeEvents');
      expect(eventNodes.map((node) => node.title)).toEqual(events.slice(0, 50).map((event) => event.title));
      for (const [index, node] of eventNodes.entries()) {
        const seeded = events[index];
        const venue = venues[seeded.venueIndex];
        expect(node.id).toBe(createNodeId(`TribeEvents-${seeded.id}`));
        expect(node).toMatchObject({
          title: seeded.title,
          slug: seeded.slug,
          all_day: seeded.all_day,
          start_date: seeded.start_date,
          featured: seeded.featured,
          description: `<p>Night number ${index + 1}.</p>`,
          venue: {
            venue: venue.venue,
            url: venue.url,
            slug: venue.slug,
            address: venue.address,
            city: venue.city,
            state: 'IL',
            zip: venue.zip,
          },
          categories: [expect.objectContaining({ name: categories[seeded.categoryIndex].name, taxonomy: 'tribe_events_cat' })],
        });
        expect(node.end_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        expect(node.rest_url).toBe(`${base}/wp-json/tribe/events/v1/events/${seeded.id}`);
      }

      // The lists' own order is the service's business; compare as sets.
      const sorted = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row)).sort();
      expect(sorted(byType('TribeVenues').map((node) => [node.id, node.venue, node.city]))).toEqual(
        sorted(venues.map((venue) => [createNodeId(`TribeVenues-${venue.id}`), venue.venue, venue.city])),
      );
      expect(sorted(byType('TribeOrganizers').map((node) => [node.id, node.organizer, node.email]))).toEqual(
        sorted(organizers.map((organizer) => [createNodeId(`TribeOrganizers-${organizer.id}`), organizer.organizer, organizer.email])),
      );
      expect(sorted(byType('TribeCategories').map((node) => [node.id, node.name, node.taxonomy, node.count]))).toEqual(
        sorted(
          categories.map((category) => [createNodeId(`TribeCategories-${category.id}`), category.name, 'tribe_events_cat', EVENTS / 2]),
        ),
      );
      expect(sorted(byType('TribeTags').map((node) => [node.id, node.name, node.taxonomy, node.count]))).toEqual(
        sorted(tags.map((tag) => [createNodeId(`TribeTags-${tag.id}`), tag.name, 'post_tag', EVENTS / 2])),
      );
    });
  });

  describe('a calendar widget paging with next_rest_url', () => {
    /** Follows `link` from `start` until it is absent; every page is checked on the way. */
    async function walk(
      start: string,
      link: 'next_rest_url' | 'previous_rest_url',
      total: number,
      perPage: number,
    ): Promise<Array<Array<Record<string, any>>>> {
      const pages: Array<Array<Record<string, any>>> = [];
      const numbers: number[] = [];
      let url: string | undefined = start;
      while (url !== undefined) {
        expect(url.startsWith(`${base}/wp-json/tribe/events/v1/events/?`)).toBe(true);
        const response = await call('GET', url);
        expect([url, response.status]).toEqual([url, 200]);
        expect([response.headers.get('x-tec-total'), response.headers.get('x-tec-totalpages')]).toEqual([
          String(total),
          String(Math.ceil(total / perPage)),
        ]);
        expect([response.body.total, response.body.total_pages]).toEqual([total, Math.ceil(total / perPage)]);
        numbers.push(Number(new URL(response.body.rest_url as string).searchParams.get('page')));
        pages.push(response.body.events as Array<Record<string, any>>);
        url = response.body[link] as string | undefined;
        if (pages.length > 20) throw new Error('the links do not end');
      }
      // Each link leads to the neighbouring page; `previous_rest_url` of page 2 drops `page`, as the original's does.
      const step = link === 'next_rest_url' ? 1 : -1;
      expect(numbers).toEqual(numbers.map((_, index) => numbers[0] + index * step));
      return pages;
    }

    it(`reaches the end of a ${EVENTS}-event list, every event once and in order, and walks back with previous_rest_url`, async () => {
      const first = await call('GET', '/wp-json/tribe/events/v1/events');
      const pages = [
        first.body.events as Array<Record<string, any>>,
        ...(await walk(first.body.next_rest_url as string, 'next_rest_url', EVENTS, 25)),
      ];
      expect(pages.map((page) => page.length)).toEqual([25, 25, 25, 25, 20]);
      expect(pages.flat().map((event) => event.id)).toEqual(events.map((event) => event.id));

      const last = await call('GET', '/wp-json/tribe/events/v1/events?page=5');
      expect(last.body.next_rest_url).toBeUndefined();
      expect(last.headers.get('x-tec-totalpages')).toBe('5');
      const backwards = await walk(last.body.rest_url as string, 'previous_rest_url', EVENTS, 25);
      expect(backwards.flat().map((event) => event.id)).toEqual(
        [4, 3, 2, 1, 0].flatMap((page) => events.slice(page * 25, page * 25 + 25)).map((event) => event.id),
      );
    });

    it('keeps per_page and the filters in the links: a category at 50 a page', async () => {
      const slug = categories[0].slug as string;
      const first = await call('GET', `/wp-json/tribe/events/v1/events?per_page=50&categories=${slug}&start_date=${dayAhead(0)}`);
      expect(first.body.rest_url).toContain(`categories=${slug}`);
      const pages = [
        first.body.events as Array<Record<string, any>>,
        ...(await walk(first.body.next_rest_url as string, 'next_rest_url', EVENTS / 2, 50)),
      ];
      expect(pages.map((page) => page.length)).toEqual([50, 10]);
      expect(pages.flat().map((event) => event.id)).toEqual(events.filter((event) => event.categoryIndex === 0).map((event) => event.id));
    });

    it('answers a page past the end like the original: 404 event-archive-page-not-found', async () => {
      const response = await call('GET', '/wp-json/tribe/events/v1/events?page=6');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'event-archive-page-not-found', message: expect.any(String), data: { status: 404 } });
    });
  });

  describe("the original's form-encoded ticket create", () => {
    const rsvp = recordedExchange('29-ticket-create-rsvp.json');

    /** The recorded form, with this run's event and nonce, encoded as a browser or PHP client does. */
    function recordedForm(exchange: ReturnType<typeof recordedExchange>, postId: number, nonce: string): string {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(exchange.request.body ?? {})) {
        form.append(key, key === 'post_id' ? String(postId) : key === 'add_ticket_nonce' ? nonce : String(value));
      }
      return form.toString();
    }

    it('creates the RSVP ticket with a nonce from /wp-json/tribe/tickets/v1/nonces: the recorded shape and URLs under /wp-json', async () => {
      const nonces = await call('GET', '/wp-json/tribe/tickets/v1/nonces', undefined, { Authorization: admin });
      expect(nonces.status).toBe(200);
      const event = events[30];
      const form = recordedForm(rsvp, event.id, nonces.body.add_ticket_nonce as string);
      expect(form).toContain('ticket%5Bcapacity%5D=50&ticket%5Bmode%5D=own');
      expect(form).toContain('provider=Tribe__Tickets__RSVP');

      const response = await call('POST', rsvp.request.path, form, {
        Authorization: admin,
        'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
      });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(Object.keys(rsvp.body));
      const id = response.body.id as number;
      expect(response.headers.get('location')).toBe(`${base}/wp-json/tribe/tickets/v1/tickets/${id}`);
      expect(response.body).toMatchObject({
        rest_url: `${base}/wp-json/tribe/tickets/v1/tickets/${id}`,
        post_id: event.id,
        provider: 'rsvp',
        global_id: `127.0.0.1?type=rsvp&id=${id}`,
        author: expect.stringMatching(/^\d+$/),
      });
      const unchanged = [
        'description',
        'capacity',
        'on_sale',
        'iac',
        'price_suffix',
        'type',
        'status',
        'title',
        'image',
        'available_from',
        'available_from_details',
        'available_until',
        'available_until_details',
        'capacity_details',
        'cost',
        'cost_details',
        'sale_price_data',
        'supports_attendee_information',
        'attendees',
        'rsvp',
        'checkin',
      ];
      for (const key of unchanged) expect([key, response.body[key]]).toEqual([key, rsvp.body[key]]);

      const read = await call('GET', `/wp-json/tribe/tickets/v1/tickets/${id}`);
      expect(Object.keys(read.body)).toEqual(Object.keys(recordedExchange('34-ticket-single-rsvp.json').body));
      const ticketed = await call('GET', `/wp-json/tribe/events/v1/events/${event.id}`);
      expect(ticketed.body.ticketed).toEqual(['rsvp']);
    });

    it('refuses a forged nonce with the recorded 403 body', async () => {
      const forged = recordedExchange('31-ticket-create-bad-nonce.json');
      const response = await call('POST', forged.request.path, recordedForm(forged, events[0].id, 'not-a-nonce'), {
        Authorization: admin,
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      expect([response.status, response.body]).toEqual([forged.status, forged.body]);
    });
  });

  describe('errors and the other addressing forms of the original', () => {
    it.each(['09-event-create-missing-fields.json', '10-event-create-unauth.json', '16-event-404.json', '36-ticket-404.json'])(
      'replays %s: same status and body (a readable message for 36)',
      async (file) => {
        const exchange = recordedExchange(file);
        const authorization: Record<string, string> = file.startsWith('09') ? { Authorization: admin } : {};
        const response = await call(exchange.request.method, exchange.request.path, exchange.request.body ?? undefined, authorization);
        // The original's tickets errors repeat their code as the message; ours say it in words.
        const body = file.startsWith('36') ? { ...exchange.body, message: 'The requested ticket does not exist.' } : exchange.body;
        expect([response.status, response.body]).toEqual([exchange.status, body]);
      },
    );

    it('answers wrong credentials with 401 incorrect_password and unknown routes with 404 rest_no_route', async () => {
      const wrong = await call('GET', '/wp-json/tribe/events/v1/events', undefined, {
        Authorization: basicAuth(ADMIN.login, 'wrong password'),
      });
      expect([wrong.status, wrong.body.code]).toEqual([401, 'incorrect_password']);
      const unknown = await call('GET', '/wp-json/tribe/events/v1/no-such-route');
      expect([unknown.status, unknown.body.code]).toEqual([404, 'rest_no_route']);
    });

    it('serves the ?rest_route= form (recorded 26) like the path form, with URLs in the path form', async () => {
      const event = events[0];
      const viaQuery = await call('GET', `/?rest_route=/tribe/events/v1/events/${event.id}`);
      const viaPath = await call('GET', `/wp-json/tribe/events/v1/events/${event.id}`);
      expect(viaQuery.status).toBe(200);
      // The original's keys in its order, then the series fields this API adds (docs/recurring-events.md)
      // and any declared event field the original does not have (src/events/event-fields.ts).
      expect(Object.keys(viaQuery.body)).toEqual([
        ...Object.keys(recordedExchange('26-rest-route-query-form.json').body),
        'series_id',
        'recurrence',
        ...addedShownKeys(),
      ]);
      expect(viaQuery.body).toEqual(viaPath.body);
      expect(viaQuery.body.rest_url).toBe(`${base}/wp-json/tribe/events/v1/events/${event.id}`);

      const list = await call('GET', '/?rest_route=/tribe/events/v1/events&per_page=10');
      expect(list.body.events).toHaveLength(10);
      expect(list.body.next_rest_url).toMatch(new RegExp(`^${base}/wp-json/tribe/events/v1/events/\\?page=2&per_page=10&`));
    });
  });
});
