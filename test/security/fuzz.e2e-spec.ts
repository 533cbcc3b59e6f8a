import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { Cart, CartItem } from '../../src/cart/cart.entity';
import { OpenApiDocument } from '../../src/namespaces/openapi-document';
import { TEC_ACKNOWLEDGEMENT } from '../../src/tec-v1/experimental-acknowledgement.guard';
import { createTestApp, TestApp } from '../helpers/test-app';
import { changedTables, clearDomainData, snapshot, Snapshot } from './db-snapshot';
import { envelopeProblem } from './envelope';
import {
  applyPlan,
  BodyEncoding,
  bodyEncoding,
  BodyPlan,
  bodyPlan,
  encodeBody,
  hostileSegment,
  hostileString,
  queryString,
} from './fuzz-arbitraries';
import { ROUTE_TABLE, routeKey, RouteSpec } from './route-table';
import { Caller, Principal, uniqueName, World } from './world';

// Holds never lapse during a long run: the sweeper expiring orders would change the database
// between a request and the check that a refused write changed nothing.
process.env.ORDER_HOLD_MINUTES = '100000';
process.env.ORDER_SWEEP_INTERVAL_SECONDS = '86400';

/**
 * Property-based fuzzing of every route of the authorization matrix (so of every registered route):
 * generated bodies, query strings, path segments and headers, sent by callers of every role. Never
 * a 5xx; every 4xx is the error envelope; a refused write leaves the database as it was.
 *
 * FUZZ_RUNS (default 200) sets the runs per route; FUZZ_SEED (default fixed) the base seed, from
 * which each route's seed is derived. A failure prints both and the command that replays it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);

function routeSeed(key: string): number {
  return (BASE_SEED ^ createHash('sha256').update(key).digest().readInt32LE(0)) | 0;
}

/** The fields and query parameters the OpenAPI document gives for one operation. */
interface Documented {
  fields: string[];
  parameters: string[];
}

interface FuzzInput {
  principal: Principal;
  mutate: boolean;
  plan: BodyPlan;
  encoding: BodyEncoding;
  query: string;
  segment: string | null;
  headers: Record<string, string>;
}

/** What one route's runs act on: its path, a valid body for a caller, and how to renew what a success used up. */
interface FuzzState {
  path: string;
  body(caller: Caller): unknown;
  /** Makes fresh objects after a success that consumed or changed them. */
  refresh(): Promise<void>;
  /** Buyer routes: the cart must hold a line before checkout. */
  prepare?(caller: Caller): Promise<void>;
  /** Headers every request of the route carries (tec/v1's acknowledgement). */
  headers?: Record<string, string>;
}

const PRINCIPAL_WEIGHTS: Array<[Principal, number]> = [
  ['administrator', 4],
  ['author', 2],
  ['editor', 1],
  ['contributor', 1],
  ['subscriber', 2],
  ['anonymous', 2],
];

/** Headers of the buyer, payment and auth machinery, with odd values. */
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e ]{0,80}$/),
  fc.constantFrom('', ' ', 'a'.repeat(300), '0'.repeat(64), 'Basic', 'Basic !!!', 'Basic ' + Buffer.from('admin:').toString('base64')),
);
const headersArbitrary = fc
  .record(
    {
      'X-Cart-Token': headerValue,
      'Idempotency-Key': headerValue,
      'X-Signature': headerValue,
      Authorization: headerValue,
      'X-Request-Id': headerValue,
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined)));

describe('Fuzzing every route (e2e)', () => {
  let testApp: TestApp;
  let world: World;
  let guest: Caller;

  /** An anonymous buyer with a line in their cart, whom anonymous runs stand for. */
  async function newGuest(): Promise<Caller> {
    const ticket = await world.ticket(await world.event('author'));
    return world.fillCart({ principal: 'anonymous' }, ticket);
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    world = await World.create(testApp);
  });

  // Each route starts from the users alone, not from what the routes before it created.
  beforeEach(async () => {
    await clearDomainData(testApp.dataSource);
    guest = await newGuest();
  });

  afterAll(async () => {
    await testApp.close();
  });

  function documented(route: RouteSpec): Documented {
    const openApi = testApp.app.get(OpenApiDocument).get();
    const item = openApi.paths[route.path.replace(/:([A-Za-z_]+)/g, '{$1}')];
    const operation = item?.[route.method.toLowerCase() as 'get'];
    if (!operation) return { fields: [], parameters: [] };
    const parameters = (operation.parameters ?? []).flatMap((parameter) =>
      'name' in parameter && parameter.in === 'query' ? [parameter.name] : [],
    );
    const content =
      operation.requestBody && 'content' in operation.requestBody ? Object.values(operation.requestBody.content)[0] : undefined;
    let schema = content?.schema as { $ref?: string; properties?: Record<string, unknown> } | undefined;
    if (schema?.$ref) schema = openApi.components?.schemas?.[schema.$ref.split('/').pop()!];
    return { fields: Object.keys(schema?.properties ?? {}), parameters };
  }

  function callerFor(principal: Principal): Caller {
    if (principal === 'anonymous') return guest;
    return world.caller(principal);
  }

  // ---------------------------------------------------------------- per-route state

  /** tec/v1's routes: the same objects, TEC's field names, its acknowledgement header. */
  async function tecStateFor(route: RouteSpec, resource: string): Promise<FuzzState> {
    const objects: Record<string, { id: number }> = {};
    const make = async () => {
      if (resource === 'tickets') {
        objects.event = await world.event('author');
        objects.post = await world.ticket(objects.event as never);
      } else if (resource === 'events' || resource === 'venues' || resource === 'organizers') {
        objects.post =
          resource === 'events'
            ? await world.event('author')
            : resource === 'venues'
              ? await world.venue('author')
              : await world.organizer('author');
      }
    };
    const body = (): unknown => {
      const title = uniqueName(`Fuzz ${resource}`);
      if (resource === 'events')
        return {
          title,
          content: '<p>About</p>',
          start_date: '2027-05-01 10:00:00',
          end_date: '2027-05-01 12:00:00',
          timezone: 'Europe/Paris',
          cost: '$10',
          venues: [],
          organizers: [],
          tribe_events_cat: [],
          tags: [],
        };
      if (resource === 'venues') return { title, address: '1 Road', city: 'Springfield', country: 'US', website: 'https://example.org/' };
      if (resource === 'organizers') return { title, email: 'org@example.org', phone: '+1 555 0100' };
      if (resource === 'tickets')
        return {
          title,
          event: objects.event?.id,
          price: 12.5,
          capacity: 5,
          stock_mode: 'own',
          start_date: '2026-01-01 00:00:00',
          end_date: '2027-01-01',
        };
      return undefined;
    };
    await make();
    return {
      get path() {
        return route.path.replace(':id', String(objects.post?.id));
      },
      body,
      refresh: make,
      headers: { 'X-TEC-EEA': TEC_ACKNOWLEDGEMENT },
    };
  }

  async function stateFor(route: RouteSpec): Promise<FuzzState> {
    const tec = /^\/tec\/v1\/([^/]+)/.exec(route.path);
    if (tec) return tecStateFor(route, tec[1]);
    const [, namespace, resource] = /^\/cal\/(events|tickets)\/v1\/([^/]+)/.exec(route.path) ?? [];
    const objects: Record<string, { id: number; slug?: string }> = {};
    let body: (caller: Caller) => unknown = () => undefined;
    let make: () => Promise<void> = () => Promise.resolve();
    let prepare: FuzzState['prepare'];
    const isCollection = !route.path.includes(':');

    if (namespace === 'events' && (resource === 'events' || resource === 'venues' || resource === 'organizers')) {
      make = async () => {
        objects.post =
          resource === 'events'
            ? await world.event('author')
            : resource === 'venues'
              ? await world.venue('author')
              : await world.organizer('author');
      };
      if (resource === 'events') {
        body = () => ({
          title: uniqueName('Fuzzed event'),
          start_date: '2027-05-01 10:00:00',
          end_date: '2027-05-01 12:00:00',
          timezone: 'Europe/Paris',
          cost: '10 - 20',
          venue: { venue: 'Fuzz hall', city: 'Springfield' },
          organizer: [{ organizer: 'Fuzz crew', email: 'crew@example.org' }],
          categories: ['Fuzz'],
          tags: ['fuzz'],
          description: '<p>About</p>',
          website: 'https://example.org/',
        });
      } else if (resource === 'venues') {
        body = () => ({
          venue: uniqueName('Fuzz venue'),
          city: 'Springfield',
          country: 'US',
          geo_lat: 39.78,
          geo_lng: -89.65,
          website: 'https://example.org/',
        });
      } else {
        body = () => ({
          organizer: uniqueName('Fuzz organizer'),
          email: 'org@example.org',
          phone: '+1 555 0100',
          website: 'https://example.org/',
        });
      }
    } else if (namespace === 'events' && (resource === 'categories' || resource === 'tags')) {
      make = async () => {
        objects.post = resource === 'categories' ? await world.category() : await world.tag();
      };
      body = () => ({ name: uniqueName('Fuzz term'), description: 'Described', ...(resource === 'categories' ? { parent: 0 } : {}) });
    } else if (resource === 'tickets') {
      make = async () => {
        objects.event = await world.event('author');
        objects.post = await world.ticket(objects.event as never);
      };
      body = (caller) => {
        if (route.method === 'DELETE')
          return { post_id: objects.event.id, remove_ticket_nonce: world.nonce('remove_ticket_nonce', caller) };
        const common = {
          post_id: objects.event.id,
          name: uniqueName('Fuzz ticket'),
          price: '12.50',
          start_date: '2026-01-01',
          end_date: '2027-01-01',
          ticket: { mode: 'own', capacity: 5 },
        };
        return isCollection
          ? { ...common, provider: 'tc', add_ticket_nonce: world.nonce('add_ticket_nonce', caller) }
          : { ...common, edit_ticket_nonce: world.nonce('edit_ticket_nonce', caller) };
      };
    } else if (resource === 'attendees' || resource === 'qr') {
      make = async () => {
        objects.post = await world.attendee(await world.ticket(await world.event('author')));
      };
      body = () =>
        resource === 'qr' ? { security_code: (objects.post as unknown as { securityCode: string }).securityCode } : { check_in: true };
    } else if (resource === 'cart') {
      make = async () => {
        objects.ticket = await world.ticket(await world.event('author'));
      };
      const checkout = route.path.endsWith('/checkout');
      body = () =>
        checkout
          ? {
              provider: 'tc',
              purchaser: { name: 'Fuzz Buyer', email: 'fuzz@example.org' },
              attendees: [{ ticket_id: objects.ticket.id, name: 'Fuzz Holder', email: 'holder@example.org', meta: { size: 'M' } }],
            }
          : {
              provider: 'tc',
              tickets: [{ ticket_id: objects.ticket.id, quantity: 1, optout: false }],
              meta: [{ ticket_id: objects.ticket.id, items: [{ size: 'M' }] }],
            };
      if (checkout) {
        // Checkout reaches its deeper checks only with something in the cart.
        prepare = async (caller) => {
          const where = caller.user ? { userId: caller.user.id } : { token: caller.cartToken! };
          const cart = await world.dataSource.getRepository(Cart).findOneBy(where);
          if (!cart || !(await world.dataSource.getRepository(CartItem).existsBy({ cartId: cart.id })))
            await world.fillCart(caller, objects.ticket as never);
        };
      }
    } else if (resource === 'orders') {
      make = async () => {
        const ticket = await world.ticket(await world.event('author'));
        objects.post = { id: (await world.order(world.caller('subscriber'), ticket)).id };
      };
      body = () => (route.path.endsWith('/complete') ? { order_id: objects.post.id } : {});
    }

    await make();
    const path = () => route.path.replace(':id', String(objects.post?.id)).replace(':slug', String(objects.post?.slug));
    return {
      get path() {
        return path();
      },
      body,
      refresh: make,
      prepare,
    };
  }

  // ---------------------------------------------------------------- one run

  async function send(route: RouteSpec, state: FuzzState, input: FuzzInput, caller: Caller): Promise<Response> {
    let path = state.path;
    if (input.segment !== null && /:(id|slug)/.test(route.path))
      path = path.replace(/\/[^/]+(\/(ics|complete|cancel|refund))?$/, `/${input.segment}$1`);
    if (input.query) path += `?${input.query}`;
    const base = state.body(caller);
    const body = route.method === 'GET' && !input.mutate ? undefined : input.mutate ? applyPlan(base ?? {}, input.plan) : base;
    const encoded = body === undefined && input.encoding.kind !== 'text' ? undefined : encodeBody(body, input.encoding);

    let test = world.send(route.method, { path, headers: { ...state.headers, ...input.headers } }, caller);
    if (encoded && 'multipart' in encoded) {
      for (const [name, value] of encoded.multipart) test = test.field(name, value);
    } else if (encoded) {
      test = test.set('Content-Type', encoded.contentType).send(encoded.payload);
    }
    return await test;
  }

  /** What is wrong with a response, if anything. */
  function problemsOf(response: Response, route: RouteSpec): string[] {
    if (response.status >= 500) return [`answered ${response.status}: ${response.text.slice(0, 300)}`];
    // tec/v1 answers a missing or trashed entity with TEC's own body (docs/tec-v1.md).
    const tecEntityError =
      route.path.startsWith('/tec/v1/') && (response.status === 404 || response.status === 410) && typeof response.body?.error === 'string';
    // /mcp answers what the MCP transport refuses (Accept, Content-Type, JSON-RPC, Origin) with a JSON-RPC error (src/mcp).
    const mcpError = route.path === '/mcp' && response.body?.jsonrpc === '2.0' && typeof response.body?.error?.message === 'string';
    if (response.status >= 400 && !tecEntityError && !mcpError) {
      const problem = envelopeProblem(response.status, response.body);
      if (problem) return [`a ${response.status} without the error envelope: ${problem}`];
    }
    return [];
  }

  const routes = ROUTE_TABLE.map((route) => [routeKey(route), route] as const);

  it.each(routes)(
    `%s: ${RUNS} generated requests never get a 5xx, get the error envelope on 4xx, and refused writes change nothing`,
    async (key, route) => {
      const state = await stateFor(route);
      const { fields, parameters } = documented(route);
      const template = state.body(world.caller('administrator'));
      const isWrite = route.method !== 'GET';
      const input: fc.Arbitrary<FuzzInput> = fc.record({
        principal: fc.oneof(...PRINCIPAL_WEIGHTS.map(([principal, weight]) => ({ weight, arbitrary: fc.constant(principal) }))),
        mutate: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        plan: bodyPlan(template ?? {}, fields),
        encoding: bodyEncoding(fields.length ? fields : ['value']),
        query: fc.oneof(
          { weight: 1, arbitrary: fc.constant('') },
          { weight: 3, arbitrary: queryString(parameters.length ? parameters : ['page']) },
        ),
        segment: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: hostileSegment }),
        headers: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: headersArbitrary }),
      });

      let current: Snapshot | undefined = isWrite ? await snapshot(testApp.dataSource) : undefined;
      const seed = routeSeed(key);
      const property = fc.asyncProperty(input, async (generated) => {
        const caller = callerFor(generated.principal);
        if (state.prepare) {
          await state.prepare(caller);
          if (isWrite) current = await snapshot(testApp.dataSource);
        }
        const response = await send(route, state, generated, caller);
        const problems = problemsOf(response, route);
        if (isWrite && response.status >= 400) {
          const after = await snapshot(testApp.dataSource);
          const changed = changedTables(current!, after);
          if (changed.length)
            problems.push(`the refused write (${response.status} ${String(response.body?.code)}) changed ${changed.join(', ')}`);
          current = after;
        } else if (isWrite) {
          // A write that went through may have used up its object (deleted, checked in, paid).
          await state.refresh();
          current = await snapshot(testApp.dataSource);
        }
        if (problems.length)
          throw new Error(
            `${route.method} ${(response as unknown as { req: { path: string } }).req.path} as ${generated.principal}: ${problems.join('; ')}`,
          );
      });
      try {
        await fc.assert(property, { seed, numRuns: RUNS });
      } catch (error) {
        const cause = (error as Error & { cause?: unknown }).cause;
        throw new Error(
          `${cause instanceof Error ? cause.message : ''}\n\n${(error as Error).message}\n\nRoute seed ${seed} (FUZZ_SEED=${BASE_SEED}). Replay: FUZZ_SEED=${BASE_SEED} FUZZ_RUNS=${RUNS} npm run test:fuzz -- -t '${key}:'`,
          { cause: error },
        );
      }
    },
    Math.max(60_000, RUNS * 200),
  );

  describe('regressions the fuzzing found', () => {
    const admin = () => world.caller('administrator');

    it('answers a form body nested deeper than the parser allows with 400 rest_bad_request', async () => {
      const response = await world
        .send('POST', { path: '/cal/events/v1/venues', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }, admin())
        .send('venue[a][b][c][d][e][f]=deep');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'rest_bad_request', data: { status: 400 } });
    });

    it('reads a multipart list index in the billions as the urlencoded parser does, at once (multer walked two billion slots)', async () => {
      const tag = await world.tag();
      const response = await world
        .send('PUT', { path: `/cal/events/v1/tags/by-slug/${tag.slug}` }, admin())
        .field('slug[2147483648]', '24:00:00')
        .field('slug[-0]', 'x');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { slug: expect.any(String) } } });
    });

    it('answers a multipart body nested deeper than the parser allows with 400 rest_bad_request, and still reads sane ones', async () => {
      const deep = await world
        .send('POST', { path: '/cal/tickets/v1/cart' }, admin())
        .field('provider', 'tc')
        .field('venue[a][b][c][d][e][f]', '1');
      expect(deep.status).toBe(400);
      expect(deep.body).toMatchObject({ code: 'rest_bad_request', data: { status: 400 } });
      const fine = await world
        .send('POST', { path: '/cal/events/v1/venues' }, admin())
        .field('venue', uniqueName('Multipart hall'))
        .field('geo_lat', '1.5');
      expect(fine.status).toBe(201);
    });

    it.each([
      ['an organizer email', '/cal/events/v1/organizers', '{"organizer":"Surrogate crew","email":"\\udfff"}'],
      ['a purchaser email', '/cal/tickets/v1/cart/checkout', '{"provider":"tc","purchaser":{"name":"A","email":"a\\ud800@example.org"}}'],
      ['a key', '/cal/events/v1/venues', '{"venue":"Surrogate hall","\\ud800":1}'],
    ])('refuses a JSON string with an unpaired surrogate in %s as 400 rest_invalid_json', async (_what, path, payload) => {
      const response = await world.send('POST', { path, headers: { 'Content-Type': 'application/json' } }, admin()).send(payload);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_json', data: { status: 400 } });
    });

    it('takes JSON null for an event title, time zone or flag as not sent', async () => {
      const event = await world.event('author');
      const nulls = {
        title: null,
        timezone: null,
        all_day: null,
        show_map: null,
        show_map_link: null,
        hide_from_listings: null,
        sticky: null,
        featured: null,
        show_attendee_list: null,
      };
      const updated = await world.send('PATCH', { path: `/cal/events/v1/events/${event.id}`, body: nulls }, admin());
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ title: event.title, timezone: 'UTC', all_day: false, show_map: true, featured: false });
      const created = await world.send(
        'POST',
        {
          path: '/cal/events/v1/events',
          body: { ...nulls, title: 'Null flags', start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00' },
        },
        admin(),
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ all_day: false, show_map: true, sticky: false });
    });
    it('takes JSON null for a ticket’s order, flags, texts and sale dates without a server error (the long run found 500s)', async () => {
      const event = await world.event('author');
      const ticket = await world.ticket(event);
      const signed = () => ({ post_id: event.id, edit_ticket_nonce: world.nonce('edit_ticket_nonce', admin()) });
      for (const field of [
        'menu_order',
        'show_description',
        'iac',
        'sku',
        'description',
        'start_date',
        'start_time',
        'end_date',
        'end_time',
      ]) {
        const updated = await world.send(
          'PATCH',
          { path: `/cal/tickets/v1/tickets/${ticket.id}`, body: { ...signed(), [field]: null } },
          admin(),
        );
        expect({ field, status: updated.status, body: updated.status === 200 ? null : updated.body }).toEqual({
          field,
          status: 200,
          body: null,
        });
      }

      const duplicated = await world
        .send('PUT', { path: `/cal/tickets/v1/tickets/${ticket.id}`, headers: { 'Content-Type': 'application/json' } }, admin())
        .send(`{"post_id":${event.id},"edit_ticket_nonce":"${signed().edit_ticket_nonce}","sku":"A-1","' OR '1'='1":0,"sku":null}`);
      expect(duplicated.status).toBeLessThan(500);
    });

    it.each([
      ['post_id null', { provider: 'tc', post_id: null }],
      ['a meta entry that is a list', { provider: 'tc', meta: [[]], id: {} }],
      ['a tickets entry that is a list', { provider: 'tc', tickets: [[]] }],
    ])('answers a cart write with %s with a 4xx or 200, never a 500 (the long run found it)', async (_what, body) => {
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        const response = await world.send(method, { path: '/cal/tickets/v1/cart', body }, admin());
        expect({ method, status: response.status < 500 }).toEqual({ method, status: true });
      }
    });

    it('refuses checkout attendees that are lists with 400', async () => {
      const response = await world.send(
        'POST',
        {
          path: '/cal/tickets/v1/cart/checkout',
          body: { provider: 'tc', purchaser: { name: 'A', email: 'a@example.org' }, attendees: [[]] },
        },
        admin(),
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { attendees: expect.any(String) } } });
    });
  });

  it('holds hostile strings that reach every corner (sanity of the generators)', () => {
    const samples = fc.sample(hostileString, { seed: BASE_SEED, numRuns: 500 });
    expect(samples.some((text) => text.length > 30_000)).toBe(true);
    expect(samples.some((text) => text.includes('<script>'))).toBe(true);
    expect(samples.some((text) => /DROP TABLE/.test(text))).toBe(true);
  });
});
