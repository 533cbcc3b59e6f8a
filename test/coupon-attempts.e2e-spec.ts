import request from 'supertest';
import { CouponsRepository } from '../src/coupons/coupons.repository';
import type { Event } from '../src/events/event.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { CART_PATH } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { insertTicket } from './helpers/ticketing-fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const COUPONS = '/cal/tickets/v1/coupons';
const TICKETS = '/cal/tickets/v1/tickets';

/** Sets `variables` for the apps created inside `build`, then puts the environment back. */
async function withEnv<T>(variables: Record<string, string>, build: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await build();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

function expectPaused(response: request.Response): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({
    code: 'too-many-coupon-failures',
    message: 'Too many wrong coupon codes from this address or for this cart; try again later.',
    data: { status: 429, retry_after: expect.any(Number) },
  });
  const retryAfter = response.body.data.retry_after as number;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(30);
  expect(response.headers['retry-after']).toBe(String(retryAfter));
}

/**
 * Failed coupon and access codes are limited per client address and per cart, as failed logins are
 * (docs/security.md): with COUPON_FAILURE_LIMIT=3 the fourth attempt of an address or a cart that
 * failed three times is refused 429 before its code is looked up, and nobody else is held back.
 */
describe('Failed coupon code attempts (e2e)', () => {
  let testApp: TestApp;
  let author: TestUser;
  let buyerUser: TestUser;
  let event: Event;
  let ticket: Ticket;
  let code: string;
  let codeCounter = 0;

  const http = () => request(testApp.server);
  /** An anonymous cart write from `address` (the app trusts X-Forwarded-For from loopback, as behind a local proxy). */
  const cartWrite = (address: string, coupon?: string, token?: string) => {
    const call = http().post(CART_PATH).set('X-Forwarded-For', address);
    if (token) call.set('X-Cart-Token', token);
    return call.send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], ...(coupon === undefined ? {} : { coupon }) });
  };
  const guess = () => `NOPE${(codeCounter += 1)}X`;

  beforeAll(async () => {
    testApp = await withEnv({ COUPON_FAILURE_LIMIT: '3', COUPON_FAILURE_WINDOW_MINUTES: '15' }, () => createTestApp());
    author = await createUser(testApp, 'author');
    buyerUser = await createUser(testApp, 'subscriber');
    event = await insertEvent(testApp.dataSource, { authorId: author.id });
    ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '20.00', capacity: 1000 });
    const created = await http()
      .post(COUPONS)
      .set('Authorization', author.authorization)
      .send({ code: 'BACKSTAGE-PASS', post_id: event.id, discount_type: 'none', reveals_hidden: true })
      .expect(201);
    code = created.body.code as string;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('lets a right code through after a few wrong ones below the limit', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await cartWrite('192.0.2.1', guess()).expect(400);
      expect(refused.body).toMatchObject({ code: 'coupon-not-valid', data: { reason: 'unknown' } });
    }
    const accepted = await cartWrite('192.0.2.1', code.toLowerCase()).expect(200);
    expect(accepted.body.coupon).toMatchObject({ code });
  });

  it('pauses an address after three wrong codes, whatever it sends next, and serves everyone else', async () => {
    const lookups = jest.spyOn(testApp.app.get(CouponsRepository), 'findByCode');
    for (let attempt = 0; attempt < 3; attempt += 1) await cartWrite('192.0.2.10', guess()).expect(400);
    expect(lookups).toHaveBeenCalledTimes(3);
    // The fourth attempt, even the right code, is refused unread: a paused client learns nothing about codes.
    expectPaused(await cartWrite('192.0.2.10', guess()));
    expectPaused(await cartWrite('192.0.2.10', code));
    // Ticket lists and reads with ?coupon= draw on the same address's count.
    expectPaused(await http().get(`${TICKETS}?coupon=${code}`).set('X-Forwarded-For', '192.0.2.10'));
    expectPaused(await http().get(`${TICKETS}/${ticket.id}?coupon=${code}`).set('X-Forwarded-For', '192.0.2.10'));
    expect(lookups).toHaveBeenCalledTimes(3);
    lookups.mockRestore();
    // The same address may still fill a cart without a code, and remove one.
    const plain = await cartWrite('192.0.2.10').expect(200);
    await cartWrite('192.0.2.10', '', plain.headers['x-cart-token']).expect(200);
    // Another address is not held back, with the same code.
    await cartWrite('192.0.2.11', code).expect(200);
    await http().get(`${TICKETS}?coupon=${code}`).set('X-Forwarded-For', '192.0.2.11').expect(200);
  });

  it('counts wrong codes of ticket lists against the address too', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await http().get(`${TICKETS}?coupon=${guess()}`).set('X-Forwarded-For', '192.0.2.20').expect(400);
      expect(refused.body.code).toBe('coupon-not-valid');
    }
    expectPaused(await cartWrite('192.0.2.20', code));
  });

  it('pauses a cart whose wrong codes come from many addresses; the same client elsewhere with a new cart is served', async () => {
    const first = await cartWrite('198.51.100.1').expect(200);
    const token = first.headers['x-cart-token'];
    for (let attempt = 0; attempt < 3; attempt += 1) await cartWrite(`198.51.100.${10 + attempt}`, guess(), token).expect(400);
    // A fresh address with the same cart: the cart is paused.
    expectPaused(await cartWrite('198.51.100.20', code, token));
    // The cart itself still takes writes without a code; a new cart from a fresh address takes the code.
    await cartWrite('198.51.100.20', undefined, token).expect(200);
    await cartWrite('198.51.100.21', code).expect(200);
  });

  it("keys a signed-in buyer's failures to the user's cart, wherever they come from", async () => {
    const asUser = (address: string, coupon: string) =>
      http()
        .post(CART_PATH)
        .set('X-Forwarded-For', address)
        .set('Authorization', buyerUser.authorization)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], coupon });
    for (let attempt = 0; attempt < 3; attempt += 1) await asUser(`203.0.113.${attempt + 1}`, guess()).expect(400);
    expectPaused(await asUser('203.0.113.50', code));
    // An anonymous buyer at that last address is not held back by the user's count.
    await cartWrite('203.0.113.50', code).expect(200);
  });

  it('cannot be used to lock another buyer out: not their address, not their cart, not the code', async () => {
    const victim = await cartWrite('203.0.113.100').expect(200);
    const victimToken = victim.headers['x-cart-token'];
    // An attacker fails over and over from many addresses, on their own carts and with made-up tokens (ignored:
    // a cart is named only by a token this service issued), and with guesses near the victim's code.
    const madeUp = `${'A'.repeat(24)}.${'B'.repeat(24)}`;
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await cartWrite(`203.0.113.${150 + (attempt % 4)}`, `${code}${attempt}`, attempt % 2 === 0 ? madeUp : undefined);
      expect([400, 429]).toContain(response.status);
    }
    // The victim, from their own address with their own cart, enters the code at once.
    const entered = await cartWrite('203.0.113.100', code, victimToken).expect(200);
    expect(entered.body.coupon).toMatchObject({ code });
  });

  it('lets a paused address try again once the pause is over', async () => {
    const now = jest.spyOn(Date, 'now');
    let clock = Date.now();
    now.mockImplementation(() => clock);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) await cartWrite('192.0.2.30', guess()).expect(400);
      const refused = await cartWrite('192.0.2.30', code);
      expectPaused(refused);
      clock += (refused.body.data.retry_after as number) * 1000;
      await cartWrite('192.0.2.30', code).expect(200);
      // A wrong code past the limit pauses it again, for longer.
      await cartWrite('192.0.2.30', guess()).expect(400);
      const longer = await cartWrite('192.0.2.30', code).expect(429);
      expect(longer.body.data.retry_after).toBe(60);
    } finally {
      now.mockRestore();
    }
  });
});
