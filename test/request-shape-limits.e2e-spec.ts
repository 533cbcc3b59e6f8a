import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Cart, CartItem } from '../src/cart/cart.entity';
import { MAX_JSON_DEPTH } from '../src/common/http/body-parsers';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket } from './helpers/ticketing-fixtures';

const CART = '/cal/tickets/v1/cart';

/** `{"x": [[[ … ]]]}` nested `levels` deep in all (the outer object counts as one). */
function nested(levels: number, base: Record<string, unknown> = {}): string {
  const inner = '['.repeat(levels - 1) + ']'.repeat(levels - 1);
  return JSON.stringify({ ...base, x: '@' }).replace('"@"', inner);
}

describe('Request shape limits (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let ticketId: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    const event = await insertEvent(testApp.dataSource);
    ticketId = (await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 100 })).id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);

  describe('JSON nesting', () => {
    const routes: Array<{ method: 'post' | 'patch'; path: string; signedIn: boolean }> = [
      { method: 'post', path: CART, signedIn: false },
      { method: 'patch', path: '/cal/tickets/v1/attendees/1', signedIn: true },
      { method: 'post', path: '/cal/events/v1/tags', signedIn: true },
      { method: 'post', path: '/cal/events/v1/events', signedIn: true },
    ];

    it.each(routes)(
      'refuses a body nested 1 500 levels with 400 rest_invalid_json on $method $path',
      async ({ method, path, signedIn }) => {
        const test = http()[method](path).set('Content-Type', 'application/json');
        if (signedIn) test.set('Authorization', editor.authorization);
        const response = await test.send(nested(1500, { provider: 'tc', tickets: [] }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          code: 'rest_invalid_json',
          message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`),
          data: { status: 400 },
        });
      },
    );

    it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}; brackets inside strings do not count`, async () => {
      const send = (body: string) => http().post(CART).set('Content-Type', 'application/json').send(body);
      expect((await send(nested(MAX_JSON_DEPTH, { provider: 'tc', tickets: [] }))).status).toBe(200);
      expect((await send(nested(MAX_JSON_DEPTH + 1, { provider: 'tc', tickets: [] }))).status).toBe(400);
      const brackets = JSON.stringify({ provider: 'tc', tickets: [], note: '[[[[{{{{"\\'.repeat(100) });
      expect((await send(brackets)).status).toBe(200);
    });
  });

  describe('query strings', () => {
    it('refuses 1 001 parameters with 400 and takes 1 000', async () => {
      const query = (count: number) => Array.from({ length: count }, (_, index) => `p${index}=1`).join('&');
      expect((await http().get(`/cal/events/v1/events?${query(1000)}`)).status).toBe(200);
      const refused = await http().get(`/cal/events/v1/events?${query(1001)}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'rest_bad_request', data: { status: 400 } });
    });

    it('refuses more than 5 levels of brackets with 400 naming the parameter, and takes 5', async () => {
      expect((await http().get('/cal/events/v1/events?a[b][c][d][e][f]=1')).status).toBe(200);
      const refused = await http().get('/cal/events/v1/events?deep[1][2][3][4][5][6][7][8]=1');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { deep: expect.any(String) } } });
      const encoded = await http().get('/cal/events/v1/events?deep%5B1%5D%5B2%5D%5B3%5D%5B4%5D%5B5%5D%5B6%5D=1');
      expect(encoded.status).toBe(400);
    });
  });

  describe('first cart writes of one buyer at once', () => {
    it('answers 12 parallel POST /cart of a signed-in user without a cart with 200, leaving one cart', async () => {
      const buyer = await createUser(testApp, 'subscriber');
      await testApp.app.listen(0, '127.0.0.1');
      const { port } = testApp.server.address() as AddressInfo;
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          fetch(`http://127.0.0.1:${port}${CART}`, {
            method: 'POST',
            headers: { Authorization: buyer.authorization, 'Content-Type': 'application/json' },
            body: JSON.stringify({ provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 + (index % 3) }] }),
          }),
        ),
      );
      const statuses = await Promise.all(responses.map(async (response) => ({ status: response.status, body: await response.text() })));
      expect(statuses.filter((outcome) => outcome.status !== 200)).toEqual([]);
      const carts = await testApp.dataSource.getRepository(Cart).find({ where: { userId: buyer.id } });
      expect(carts).toHaveLength(1);
      const lines = await testApp.dataSource.getRepository(CartItem).find({ where: { cartId: carts[0].id } });
      expect(lines).toEqual([expect.objectContaining({ ticketId, quantity: expect.any(Number) })]);
    });
  });
});
