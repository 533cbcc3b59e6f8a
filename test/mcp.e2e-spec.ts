import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { Event } from '../src/events/event.entity';
import { checkout, fillCart, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
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

      const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '10.00', capacity: 5 });
      const filled = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
      const order = (await checkout(testApp, filled, { provider: 'tc', purchaser: PURCHASER }).expect(201)).body as { id: number };
      await http().post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', admin.authorization).expect(200);

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
});
