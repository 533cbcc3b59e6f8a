import { join } from 'node:path';
import request from 'supertest';
import { runCli } from '../src/cli';
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES } from '../src/namespaces/openapi-examples';
import { Attendee } from '../src/attendees/attendee.entity';
import { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { TicketCapacityCounter } from '../src/tickets/ticket-capacity-counter.entity';
import { Venue } from '../src/venues/venue.entity';
import { basicAuth, createTestApp, TestApp } from './helpers/test-app';

// The CLI opens its own connection, so on SQLite both must share a file rather than memory.
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'cli-demo.sqlite')}`;
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    return { code: await runCli(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('Command line tool: seed:demo (e2e)', () => {
  let testApp: TestApp;
  let summary: Record<string, any>;
  let demo: string;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);
  const count = (entity: Parameters<TestApp['dataSource']['getRepository']>[0]) => testApp.dataSource.getRepository(entity).count();

  it('lists every command in --help, seed:demo included', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const command of ['user:create', 'user:list', 'app-password:create', 'app-password:revoke', 'seed:demo'])
      expect(help.stdout).toContain(command);
  });

  it('loads the demo calendar into an empty database and prints one JSON line with the counts and a working login', async () => {
    const result = await cli('seed:demo');
    expect([result.code, result.stderr]).toEqual([0, '']);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    summary = JSON.parse(lines[0]);
    expect(summary).toEqual({
      login: 'demo',
      application_password: expect.stringMatching(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/),
      venues: 10,
      organizers: 4,
      categories: 6,
      tags: 6,
      events: 50,
      series: 1,
      series_events: 8,
      tickets: 12,
      orders: 5,
      attendees: 9,
      checked_in: 1,
      events_url: 'http://localhost:3000/cal/events/v1/events',
    });
    demo = basicAuth('demo', summary.application_password as string);
    await http().get('/cal/tickets/v1/nonces').set('Authorization', demo).expect(200);
  });

  it('shows 50 published upcoming events over the coming months, with venues, organizers and terms, to anyone', async () => {
    const list = await http().get('/cal/events/v1/events').query({ per_page: 50 }).expect(200);
    // The one-off programme first, then the weekly series' eight dates.
    expect(list.body.total).toBe(58);
    const events = list.body.events as Array<Record<string, any>>;
    const starts = events.map((event) => Date.parse(`${(event.utc_start_date as string).replace(' ', 'T')}Z`));
    expect(starts[0]).toBeGreaterThan(Date.now());
    expect(starts[49] - starts[0]).toBeGreaterThan(150 * 86_400_000);
    expect(new Set(events.map((event) => event.venue.id)).size).toBe(10);
    expect(new Set(events.map((event) => event.timezone)).size).toBe(10);
    expect(events.some((event) => event.all_day)).toBe(true);
    expect(events.every((event) => event.organizer.length === 1 && event.categories.length === 1 && event.tags.length >= 1)).toBe(true);
    const venues = await http().get('/cal/events/v1/venues').expect(200);
    expect(venues.body.total).toBe(10);
    const categories = await http().get('/cal/events/v1/categories').expect(200);
    expect(categories.body.categories.find((category: Record<string, any>) => category.name === 'Jazz').parent).toBeGreaterThan(0);
    const series = (await http().get('/cal/events/v1/events').query({ page: 2, per_page: 50 }).expect(200)).body.events as Array<
      Record<string, any>
    >;
    expect(series).toHaveLength(8);
    expect(new Set(series.map((event) => event.series_id)).size).toBe(1);
    expect(
      series.every(
        (event) =>
          event.start_date.endsWith('18:30:00') &&
          event.timezone === 'Europe/Berlin' &&
          event.recurrence.rrule === 'FREQ=WEEKLY;BYDAY=TU;COUNT=8',
      ),
    ).toBe(true);
  });

  it('has tickets of each provider and capacity mode, and attendees from completed checkouts, one checked in', async () => {
    const tickets = await http().get('/cal/tickets/v1/tickets').query({ per_page: 50 }).set('Authorization', demo).expect(200);
    const kinds = new Set(
      (tickets.body.tickets as Array<Record<string, any>>).map(
        (ticket) => `${ticket.provider as string}:${ticket.capacity_details.global_stock_mode as string}`,
      ),
    );
    expect([...kinds].sort()).toEqual(['rsvp:', 'rsvp:capped', 'rsvp:own', 'tc:', 'tc:capped', 'tc:global', 'tc:own']);

    const attendees = await http().get('/cal/tickets/v1/attendees').query({ per_page: 50 }).set('Authorization', demo).expect(200);
    expect(attendees.body.total).toBe(9);
    expect((attendees.body.attendees as Array<Record<string, any>>).filter((attendee) => attendee.checked_in)).toHaveLength(1);
    expect(await testApp.dataSource.getRepository(Order).countBy({ status: 'completed' })).toBe(5);
    const sold = await testApp.dataSource.getRepository(TicketCapacityCounter).sum('sold');
    expect(sold).toBe(9);
  });

  describe('the examples of the API documentation, checked against the demo calendar', () => {
    /** The structure of a JSON value: keys in order, with the type of each leaf; lists by their first item. */
    function shape(value: unknown): unknown {
      if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
      if (value !== null && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]));
      return value === null ? 'null' : typeof value;
    }

    it('puts request and response examples on their schemas, on the docs page and in both namespace documents', async () => {
      const page = await http().get('/docs').expect(200);
      expect(page.text).toContain('swagger-ui');
      const combined = (await http().get('/docs-json').expect(200)).body as Record<string, any>;
      const tags = new Set(
        Object.values(combined.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) =>
          Object.values(item).flatMap((operation) => operation.tags ?? []),
        ),
      );
      expect([...tags]).toEqual(expect.arrayContaining(['events', 'tickets']));
      for (const [name, example] of Object.entries({ ...REQUEST_EXAMPLES, ...RESPONSE_EXAMPLES })) {
        expect([name, combined.components.schemas[name]?.example]).toEqual([name, example]);
      }
      const events = (await http().get('/cal/events/v1/doc').expect(200)).body as Record<string, any>;
      const tickets = (await http().get('/cal/tickets/v1/doc').expect(200)).body as Record<string, any>;
      expect(events.components.schemas.EventCreate.example).toEqual(REQUEST_EXAMPLES.EventCreate);
      expect(tickets.components.schemas.Ticket.example).toEqual(RESPONSE_EXAMPLES.Ticket);
    });

    it('has response examples shaped exactly like real responses (keys, order, types)', async () => {
      const get = async (path: string) => (await http().get(path).set('Authorization', demo).expect(200)).body as Record<string, any>;
      const real: Record<string, unknown> = {
        Event: await get('/cal/events/v1/events/3'),
        Venue: await get('/cal/events/v1/venues/2'),
        Organizer: await get('/cal/events/v1/organizers/2'),
        Category: await get('/cal/events/v1/categories/6'),
        Term: await get('/cal/events/v1/tags/1'),
        Ticket: await get('/cal/tickets/v1/tickets/4'),
        Attendee: (await get('/cal/tickets/v1/attendees?post_id=3&per_page=1')).attendees[0],
        Order: await get('/cal/tickets/v1/orders/3'),
        Cart: (await http().post('/cal/tickets/v1/cart').send(REQUEST_EXAMPLES.CartUpdate).expect(200)).body,
        Nonces: await get('/cal/tickets/v1/nonces'),
      };
      expect(Object.keys(real).sort()).toEqual(Object.keys(RESPONSE_EXAMPLES).sort());
      for (const [name, response] of Object.entries(real)) expect([name, shape(RESPONSE_EXAMPLES[name])]).toEqual([name, shape(response)]);
    });

    it('has request examples the API accepts as they are, with only ids and nonces of this database put in', async () => {
      const nonces = (await http().get('/cal/tickets/v1/nonces').set('Authorization', demo).expect(200)).body as Record<string, string>;
      const send = (method: 'post' | 'patch' | 'delete', path: string, body: Record<string, unknown>, status: number) =>
        http()
          [method](path)
          .set('Authorization', demo)
          .send(body)
          .then((response) => {
            expect([method, path, response.status, response.status === status ? 'ok' : response.body]).toEqual([
              method,
              path,
              status,
              'ok',
            ]);
            return response.body as Record<string, any>;
          });
      const example = (name: string) => REQUEST_EXAMPLES[name];

      const venue = await send('post', '/cal/events/v1/venues', example('VenueCreate'), 201);
      await send('patch', `/cal/events/v1/venues/${venue.id as number}`, example('VenueUpdate'), 200);
      const organizer = await send('post', '/cal/events/v1/organizers', example('OrganizerCreate'), 201);
      await send('patch', `/cal/events/v1/organizers/${organizer.id as number}`, example('OrganizerUpdate'), 200);
      const category = await send('post', '/cal/events/v1/categories', example('CategoryCreate'), 201);
      await send('patch', `/cal/events/v1/categories/${category.id as number}`, example('CategoryUpdate'), 200);
      const tag = await send('post', '/cal/events/v1/tags', example('TagCreate'), 201);
      await send('patch', `/cal/events/v1/tags/${tag.id as number}`, example('TagUpdate'), 200);
      const event = await send('post', '/cal/events/v1/events', { ...example('EventCreate'), organizer: [organizer.id] }, 201);
      expect(event).toMatchObject({ title: 'Jazz night', venue: { venue: 'Le Caveau' }, featured: true });
      await send('patch', `/cal/events/v1/events/${event.id as number}`, example('EventUpdate'), 200);

      const ticket = await send(
        'post',
        '/cal/tickets/v1/tickets',
        { ...example('TicketCreate'), post_id: event.id, add_ticket_nonce: nonces.add_ticket_nonce },
        201,
      );
      await send(
        'patch',
        `/cal/tickets/v1/tickets/${ticket.id as number}`,
        { ...example('TicketUpdate'), post_id: event.id, edit_ticket_nonce: nonces.edit_ticket_nonce },
        200,
      );
      const line = (example('CartUpdate').tickets as Array<Record<string, unknown>>)[0];
      await send(
        'post',
        '/cal/tickets/v1/cart',
        { ...example('CartUpdate'), post_id: event.id, tickets: [{ ...line, ticket_id: ticket.id }] },
        200,
      );
      const checkout = example('Checkout');
      const order = await send(
        'post',
        '/cal/tickets/v1/cart/checkout',
        {
          ...checkout,
          attendees: (checkout.attendees as Array<Record<string, unknown>>).map((attendee) => ({ ...attendee, ticket_id: ticket.id })),
        },
        201,
      );
      expect(order.attendees.map((attendee: { title: string }) => attendee.title)).toEqual(['Ada Lovelace', 'Charles Babbage']);
      await send('post', `/cal/tickets/v1/orders/${order.id as number}/complete`, {}, 200);
      await send('patch', `/cal/tickets/v1/attendees/${order.attendees[0].id as number}`, example('AttendeeCheckIn'), 200);
      await send('post', '/cal/tickets/v1/qr', { ...example('QrCheckIn'), security_code: order.attendees[1].security_code }, 200);

      const spare = await send(
        'post',
        '/cal/tickets/v1/tickets',
        { ...example('TicketCreate'), post_id: event.id, add_ticket_nonce: nonces.add_ticket_nonce },
        201,
      );
      await send(
        'delete',
        `/cal/tickets/v1/tickets/${spare.id as number}`,
        { ...example('TicketDelete'), post_id: event.id, remove_ticket_nonce: nonces.remove_ticket_nonce },
        200,
      );
    });
  });

  it('refuses a second run on a calendar that holds data, says why, and changes nothing', async () => {
    const before = await Promise.all([count(Event), count(Venue), count(Ticket), count(Attendee)]);
    const again = await cli('seed:demo');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      /^error: the database already holds 5\d events, 1\d venues, [45] organizers, 1\d tickets; seed:demo only fills an empty calendar \(use a new DATABASE_URL or DATA_DIR\)\n$/,
    );
    expect(await Promise.all([count(Event), count(Venue), count(Ticket), count(Attendee)])).toEqual(before);
  });
});
