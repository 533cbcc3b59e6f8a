import type { AddressInfo } from 'node:net';
import type { Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { ApiToken } from '../src/auth/api-token.entity';
import { Scope, SCOPES } from '../src/auth/scopes';
import { generateTokenSecret } from '../src/auth/token-secrets';
import { Event } from '../src/events/event.entity';
import { McpAudit } from '../src/mcp/mcp-audit';
import { checkout, fillCart, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { insertEvent, linkOrganizer, linkVenue } from './helpers/fixtures';
import { insertTicket } from './helpers/ticketing-fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

process.env.SITE_TIMEZONE = 'UTC';

interface ToolResult {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
}

const PUBLIC_TOOLS = [
  'tec-calendar-read-entities',
  'search_events',
  'get_event',
  'search_venues',
  'get_venue',
  'search_organizers',
  'get_organizer',
  'search_tickets',
  'get_ticket',
  'ticket_availability',
];

describe('MCP endpoint /mcp (e2e)', () => {
  let testApp: TestApp;
  let baseUrl: string;
  let admin: TestUser;
  let author: TestUser;
  let event: Event;
  let draft: Event;
  const clients: Client[] = [];

  const http = () => request(testApp.server);

  async function connect(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'cal-mcp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await client.callTool({ name, arguments: args })) as ToolResult;
  }

  const json = (result: ToolResult, part = 0): any => JSON.parse(result.content[part].text);

  /** A Bearer API token of `owner`, written as the tokens routes write one. */
  async function bearer(owner: TestUser, scopes: readonly Scope[], pii: 'full' | 'redacted' = 'full', app = testApp): Promise<string> {
    const { secret, prefix, hash } = generateTokenSecret();
    await app.dataSource.getRepository(ApiToken).save({
      userId: owner.id,
      name: `mcp test ${prefix}`,
      prefix,
      secretHash: hash,
      scopes: scopes.join(','),
      preset: null,
      limitEvents: null,
      pii,
      expiresAt: null,
      allowedIps: null,
    });
    return `Bearer ${secret}`;
  }

  /** A completed order of one unit of a new ticket of `eventId`, bought by PURCHASER. */
  async function completedOrder(eventId: number): Promise<{ id: number }> {
    const ticket = await insertTicket(testApp.dataSource, { eventId, price: '10.00', capacity: 5 });
    const filled = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
    const order = (await checkout(testApp, filled, { provider: 'tc', purchaser: PURCHASER }).expect(201)).body as { id: number };
    await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', admin.authorization).expect(200);
    return order;
  }

  const mcpCall = (authorization: string | undefined, name: string, args: Record<string, unknown>) => {
    const test = http().post('/mcp').set('Accept', 'application/json, text/event-stream');
    return (authorization ? test.set('Authorization', authorization) : test).send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    });
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    await new Promise<void>((resolve) => testApp.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(testApp.server.address() as AddressInfo).port}`;
    admin = await createUser(testApp, 'administrator');
    author = await createUser(testApp, 'author');
    event = await insertEvent(testApp.dataSource, { title: 'Jazz night', authorId: author.id });
    draft = await insertEvent(testApp.dataSource, { title: 'Secret draft', status: 'draft', authorId: author.id });
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await testApp?.close();
  });

  describe('anonymously', () => {
    it('initializes, lists only the public reads, and reads a published event', async () => {
      const client = await connect();
      expect(client.getServerVersion()).toMatchObject({ name: 'cal' });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(PUBLIC_TOOLS);
      const result = await call(client, 'get_event', { id: event.id });
      expect(result.isError).toBeFalsy();
      expect(json(result)).toMatchObject({ id: event.id, title: 'Jazz night' });
      const search = json(await call(client, 'search_events', { start_date: '2030-01-01', end_date: '2030-12-31' }));
      const rest = await http().get('/cal/events/v1/events').query({ start_date: '2030-01-01', end_date: '2030-12-31' }).expect(200);
      expect(search.events.map((found: { id: number }) => found.id)).toEqual(rest.body.events.map((found: { id: number }) => found.id));
      expect(search).toMatchObject({ total: rest.body.total, events: [{ id: event.id }] });
    });

    it("answers TEC's read tool in TEC's shape: a sentence, then tec/v1's JSON", async () => {
      const client = await connect();
      const result = await call(client, 'tec-calendar-read-entities', { postType: 'event', id: event.id });
      expect(result.content[0].text).toBe(`Retrieved event with ID ${event.id}`);
      expect(json(result, 1)).toMatchObject({ id: event.id, title: { rendered: 'Jazz night' }, type: 'tribe_events' });
      const list = await call(client, 'tec-calendar-read-entities', { postType: 'event', query: 'Jazz' });
      expect(list.content[0].text).toBe('Found 1 event matching "Jazz"');
    });

    it('hides drafts as GET /events/{id} does: the tool answers its error envelope as an error result', async () => {
      const client = await connect();
      const result = await call(client, 'get_event', { id: draft.id });
      expect(result.isError).toBe(true);
      const rest = await http().get(`/cal/events/v1/events/${draft.id}`);
      expect(rest.status).toBeGreaterThanOrEqual(400);
      expect(json(result)).toEqual(rest.body);
    });

    it('answers a bad argument with the 400 of the REST route', async () => {
      const client = await connect();
      const result = await call(client, 'get_event', { id: 'x' });
      expect(result.isError).toBe(true);
      expect(json(result)).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    });

    it('challenges a call of a tool that needs a token: 401 with WWW-Authenticate naming the metadata and the scope', async () => {
      const response = await http()
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'sales_summary', arguments: { event_id: event.id } } })
        .expect(401);
      const metadata = `http://127.0.0.1:${(testApp.server.address() as AddressInfo).port}/.well-known/oauth-protected-resource/mcp`;
      expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadata}", scope="reports:read"`);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { data: { code: 'rest_forbidden', data: { status: 401 } } } });
    });
  });

  describe('the HTTP rules of the transport', () => {
    it('answers GET and DELETE with 405 and Allow: POST', async () => {
      for (const method of ['get', 'delete'] as const) {
        const response = await http()[method]('/mcp').set('Accept', 'text/event-stream').expect(405);
        expect(response.headers.allow).toBe('POST');
      }
    });

    it('refuses a foreign Origin and a foreign Host with 403', async () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const accept = 'application/json, text/event-stream';
      await http().post('/mcp').set('Accept', accept).set('Origin', 'https://evil.example').send(initialize).expect(403);
      await http().post('/mcp').set('Accept', accept).set('Host', 'evil.example').send(initialize).expect(403);
      const ok = await http()
        .post('/mcp')
        .set('Accept', accept)
        .set('Host', 'localhost:3000')
        .set('Origin', 'http://localhost:3000')
        .send(initialize);
      expect(ok.status).toBe(200);
      expect(ok.body.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'cal' } });
    });

    it('publishes the protected resource metadata (RFC 9728) at the root and under /mcp', async () => {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const response = await http().get(path).expect(200);
        expect(response.body).toMatchObject({ resource: expect.stringMatching(/\/mcp$/), bearer_methods_supported: ['header'] });
        expect(response.body.scopes_supported).toContain('orders:refund');
      }
    });
  });

  describe('signed in (application password)', () => {
    it('lists the box office for an administrator and refunds only with the confirmation handle', async () => {
      const client = await connect({ Authorization: admin.authorization });
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['sales_summary', 'refund_order', 'cancel_order', 'delete_event', 'revoke_device']));

      const order = await completedOrder(event.id);

      const preview = await call(client, 'refund_order', { order_id: order.id });
      expect(preview.isError).toBeFalsy();
      const { confirmation, preview: shown } = json(preview);
      expect(shown).toMatchObject({ action: 'refund', order: { id: order.id, status: 'completed', total: '10.00' } });
      expect((await http().get(`${ORDERS_PATH}/${order.id}`).set('Authorization', admin.authorization).expect(200)).body.status).toBe(
        'completed',
      );

      const otherArgs = await call(client, 'refund_order', { order_id: order.id, amount: '1.00', confirmation });
      expect(json(otherArgs)).toMatchObject({ code: 'mcp-confirmation-invalid' });

      const done = await call(client, 'refund_order', { order_id: order.id, confirmation });
      expect(done.isError).toBeFalsy();
      expect(json(done)).toMatchObject({ id: order.id, status: 'refunded' });

      const again = await call(client, 'refund_order', { order_id: order.id, confirmation });
      expect(json(again)).toMatchObject({ code: 'mcp-confirmation-invalid', data: { status: 409 } });
    });
  });
  describe('with API tokens', () => {
    it('lists only the tools of the scopes, reads an event, and refuses a write tool with the step-up challenge', async () => {
      const reader = await bearer(admin, ['events:read', 'tickets:read', 'reports:read']);
      const client = await connect({ Authorization: reader });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...PUBLIC_TOOLS, 'sales_summary', 'sales_by_day']);
      // The owner may read drafts: so may the token with events:read.
      expect(json(await call(client, 'get_event', { id: draft.id }))).toMatchObject({ id: draft.id, title: 'Secret draft' });
      expect(json(await call(client, 'sales_summary', { event_id: event.id }))).toMatchObject({ post_id: event.id });

      const refused = await mcpCall(reader, 'tec-calendar-create-update-entities', {
        postType: 'event',
        data: { title: 'Nope', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' },
      }).expect(403);
      const metadata = `${baseUrl}/.well-known/oauth-protected-resource/mcp`;
      expect(refused.headers['www-authenticate']).toBe(
        `Bearer error="insufficient_scope", resource_metadata="${metadata}", scope="events:write"`,
      );
      expect(refused.body.error.data).toMatchObject({ code: 'insufficient_scope', data: { status: 403, scope: 'events:write' } });
      await expect(client.callTool({ name: 'refund_order', arguments: { order_id: 1 } })).rejects.toMatchObject({ code: 403 });
      expect(await testApp.dataSource.getRepository(Event).countBy({ title: 'Nope' })).toBe(0);
    });

    it('reads the event resource, and challenges the sales summary resource without reports:read', async () => {
      const eventsOnly = await bearer(admin, ['events:read']);
      const client = await connect({ Authorization: eventsOnly });
      expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
        'cal://events/{id}',
      ]);
      const read = await client.readResource({ uri: `cal://events/${event.id}` });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: event.id, title: 'Jazz night' });
      const refused = await http()
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Authorization', eventsOnly)
        .send({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: `cal://events/${event.id}/sales-summary` } })
        .expect(403);
      expect(refused.headers['www-authenticate']).toContain('scope="reports:read"');
      const full = await connect({ Authorization: await bearer(admin, ['events:read', 'reports:read']) });
      const summary = await full.readResource({ uri: `cal://events/${event.id}/sales-summary` });
      expect(JSON.parse((summary.contents[0] as { text: string }).text)).toMatchObject({ post_id: event.id });
    });

    it('a token of a role without the box office lists no box office tool, whatever its scopes', async () => {
      const subscriber = await createUser(testApp, 'subscriber');
      const client = await connect({ Authorization: await bearer(subscriber, SCOPES) });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(PUBLIC_TOOLS);
    });

    it('refunds with the token only through a handle issued to that token', async () => {
      const refunder = await bearer(admin, ['orders:read', 'orders:refund']);
      const client = await connect({ Authorization: refunder });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'search_orders',
        'get_order',
        'refund_order',
        'cancel_order',
      ]);
      const order = await completedOrder(event.id);
      const audit = jest.spyOn(testApp.app.get<McpAudit, { logger: Logger }>(McpAudit).logger, 'log');
      const basic = await connect({ Authorization: admin.authorization });
      const othersHandle = json(await call(basic, 'refund_order', { order_id: order.id })).confirmation as string;
      expect(json(await call(client, 'refund_order', { order_id: order.id, confirmation: othersHandle }))).toMatchObject({
        code: 'mcp-confirmation-invalid',
      });
      const { confirmation } = json(await call(client, 'refund_order', { order_id: order.id }));
      expect(json(await call(client, 'get_order', { order_id: order.id }))).toMatchObject({ status: 'completed' });
      expect(json(await call(client, 'refund_order', { order_id: order.id, confirmation }))).toMatchObject({ status: 'refunded' });
      // Every call in the audit log, with the token's name; never the arguments.
      const lines = audit.mock.calls.map(([line]) => line as Record<string, unknown>);
      audit.mockRestore();
      expect(lines.map((line) => [line.tool, line.outcome, line.token_name === null ? 'password' : 'token'])).toEqual([
        ['refund_order', 'preview', 'password'],
        ['refund_order', 'error', 'token'],
        ['refund_order', 'preview', 'token'],
        ['get_order', 'done', 'token'],
        ['refund_order', 'done', 'token'],
      ]);
      expect(lines[4]).toMatchObject({ user_id: admin.id, token_name: expect.stringMatching(/^mcp test /) });
      expect(JSON.stringify(lines)).not.toContain(confirmation);
    });

    it('a redacted token never sees an email, in the answer of every tool it may use and of the resources', async () => {
      const organizer = (
        await http()
          .post('/cal/events/v1/organizers')
          .set('Authorization', admin.authorization)
          .send({ organizer: 'Box office people', email: 'organizer.contact@example.org', status: 'publish' })
          .expect(201)
      ).body as { id: number };
      const venue = (
        await http()
          .post('/cal/events/v1/venues')
          .set('Authorization', admin.authorization)
          .send({ venue: 'The hall', status: 'publish' })
          .expect(201)
      ).body as { id: number };
      const show = await insertEvent(testApp.dataSource, { title: 'Redaction show', authorId: admin.id });
      await linkVenue(testApp.dataSource, show.id, venue.id);
      await linkOrganizer(testApp.dataSource, show.id, organizer.id);
      const [refunded, cancelled, resent] = [await completedOrder(show.id), await completedOrder(show.id), await completedOrder(show.id)];
      const ticket = await insertTicket(testApp.dataSource, { eventId: show.id, price: '5.00', capacity: 3 });
      const spare = await insertTicket(testApp.dataSource, { eventId: show.id, price: '5.00', capacity: 3 });
      const list = (
        await http()
          .post('/cal/tickets/v1/checkin-lists')
          .set('Authorization', admin.authorization)
          .send({ post_id: show.id, name: 'Door' })
          .expect(201)
      ).body as { id: number };
      const device = (
        await http()
          .post('/cal/tickets/v1/devices')
          .set('Authorization', admin.authorization)
          .send({ name: 'Scanner', list_ids: [list.id] })
          .expect(201)
      ).body as { id: number };
      const doomed = await insertEvent(testApp.dataSource, { title: 'Doomed', authorId: admin.id });

      const ARGS: Record<string, Record<string, unknown>> = {
        'tec-calendar-read-entities': { postType: 'organizer', id: organizer.id },
        'tec-calendar-create-update-entities': { postType: 'organizer', id: organizer.id, data: { phone: '555-0100' } },
        'tec-calendar-delete-entities': { postType: 'ticket', id: spare.id },
        search_events: { start_date: '2030-01-01', end_date: '2030-12-31' },
        get_event: { id: show.id },
        search_venues: {},
        get_venue: { id: venue.id },
        search_organizers: {},
        get_organizer: { id: organizer.id },
        search_tickets: { event_id: show.id },
        get_ticket: { id: ticket.id },
        ticket_availability: { id: ticket.id },
        sales_summary: { event_id: show.id },
        sales_by_day: { event_id: show.id, from: '2026-01-01', to: '2026-12-31' },
        search_orders: {},
        get_order: { order_id: resent.id },
        search_attendees: { event_id: show.id },
        checkin_list_status: { list_id: list.id },
        resend_order_tickets: { order_id: resent.id },
        create_coupon: { code: 'REDACTED10', post_id: show.id, discount_type: 'percent', amount: '10' },
        waitlist_offer_next: { ticket_id: ticket.id, quantity: 1 },
        refund_order: { order_id: refunded.id },
        cancel_order: { order_id: cancelled.id },
        delete_event: { id: doomed.id },
        revoke_device: { device_id: device.id },
      };
      const client = await connect({ Authorization: await bearer(admin, SCOPES, 'redacted') });
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect([...listed].sort()).toEqual(Object.keys(ARGS).sort());

      const answers: string[] = [];
      const failures: string[] = [];
      for (const name of listed) {
        const first = await call(client, name, ARGS[name]);
        answers.push(...first.content.map((part) => part.text));
        let result = first;
        const handle = /"confirmation": "([^"]+)"/.exec(first.content[0].text)?.[1];
        if (handle) {
          result = await call(client, name, { ...ARGS[name], confirmation: handle });
          answers.push(...result.content.map((part) => part.text));
        }
        if (result.isError && name !== 'waitlist_offer_next') failures.push(`${name}: ${result.content[0].text}`);
      }
      for (const uri of [`cal://events/${show.id}`, `cal://events/${show.id}/sales-summary`]) {
        answers.push(...(await client.readResource({ uri })).contents.map((content) => ('text' in content ? content.text : '')));
      }
      expect(failures).toEqual([]);
      const text = answers.join('\n');
      // Masked emails keep a first letter and the top-level domain: `g***@e***.org`.
      expect(text).toContain('***@');
      expect(text.match(/[A-Za-z0-9._%+-]{2,}@[A-Za-z0-9-]{2,}/g)).toBeNull();
      expect(text).not.toContain(PURCHASER.email);
      expect(text).not.toContain('organizer.contact@example.org');
    });
  });
  describe('the tool calls limit (MCP_TOOL_CALLS_PER_MINUTE)', () => {
    let limited: TestApp;

    beforeAll(async () => {
      process.env.MCP_TOOL_CALLS_PER_MINUTE = '2';
      try {
        limited = await createTestApp();
      } finally {
        process.env.MCP_TOOL_CALLS_PER_MINUTE = '1000000';
      }
    });

    afterAll(async () => {
      await limited?.close();
    });

    it('counts tool calls per token and answers 429 with Retry-After past the limit; other tokens keep theirs', async () => {
      const send = (authorization: string) =>
        request(limited.server)
          .post('/mcp')
          .set('Accept', 'application/json, text/event-stream')
          .set('Authorization', authorization)
          .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_event', arguments: { id: shown.id } } });
      const owner = await createUser(limited, 'editor');
      const shown = await insertEvent(limited.dataSource, { title: 'Limited' });
      const first = await bearer(owner, ['events:read'], 'full', limited);
      const second = await bearer(owner, ['events:read'], 'full', limited);
      await send(first).expect(200);
      await send(first).expect(200);
      const refused = await send(first).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.error.data).toMatchObject({ code: 'rest_too_many_requests', data: { status: 429 } });
      await send(second).expect(200);
      // tools/list is not a tool call.
      await request(limited.server)
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Authorization', first)
        .send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
        .expect(200);
    });
  });
});
