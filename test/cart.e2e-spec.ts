import { recordedExchange } from './helpers/recorded';
import fc from 'fast-check';
import request from 'supertest';
import { Cart, CartItem } from '../src/cart/cart.entity';
import { CLOCK } from '../src/common/clock';
import { Event } from '../src/events/event.entity';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket, TestClock } from './helpers/ticketing-fixtures';

process.env.MAX_TICKETS_PER_ORDER = '10';

/** A generated value as query text: what String() gives, or JSON for objects String() cannot convert. */
function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value);
  }
}

function recorded(name: string): { status: number; body: unknown } {
  return recordedExchange(name);
}

describe('Cart (e2e)', () => {
  let testApp: TestApp;
  const clock = new TestClock();
  let buyer: TestUser;
  let otherBuyer: TestUser;
  let event: Event;
  let otherEvent: Event;
  let emptyEvent: Event;
  let generalId: number;
  let vipId: number;
  let rsvpId: number;
  let otherEventTicketId: number;

  const http = () => request(testApp.server);
  const cartPath = '/cal/tickets/v1/cart';

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    buyer = await createUser(testApp, 'subscriber');
    otherBuyer = await createUser(testApp, 'subscriber');
    event = await insertEvent(testApp.dataSource);
    otherEvent = await insertEvent(testApp.dataSource);
    emptyEvent = await insertEvent(testApp.dataSource);
    generalId = (await insertTicket(testApp.dataSource, { eventId: event.id, name: 'General', capacity: 8 })).id;
    vipId = (await insertTicket(testApp.dataSource, { eventId: event.id, name: 'VIP', price: '80.00', capacity: 5 })).id;
    rsvpId = (await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', name: 'RSVP', price: '0.00', capacity: 20 }))
      .id;
    otherEventTicketId = (await insertTicket(testApp.dataSource, { eventId: otherEvent.id, name: 'Other', capacity: 5 })).id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  beforeEach(() => clock.reset());

  /** A cart write by a new anonymous buyer; returns the response and the token it was issued. */
  async function newGuestCart(body: Record<string, unknown>) {
    const response = await http().post(cartPath).send(body).expect(200);
    const token = response.headers['x-cart-token'];
    expect(token).toEqual(expect.any(String));
    return { response, token };
  }

  describe('reading', () => {
    it('gives the recorded empty cart to a caller without one', async () => {
      const response = await http().get(cartPath).expect(200);
      expect(response.body).toEqual(recorded('43-cart-get-noargs.json').body);
    });

    it('gives the recorded empty cart for an event with tickets', async () => {
      const response = await http().get(cartPath).query({ post_id: event.id }).expect(200);
      expect(response.body).toEqual(recorded('42-cart-get.json').body);
    });

    it('returns 400 rest_invalid_param for a post_id that is not an event or not a number', async () => {
      const unknown = await http().get(cartPath).query({ post_id: 999_999 }).expect(400);
      expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { post_id: expect.any(String) } } });
      const text = await http().get(cartPath).query({ post_id: 'abc' }).expect(400);
      expect(text.body.data.params).toHaveProperty('post_id');
      const negative = await http().get(cartPath).query({ post_id: -3 }).expect(400);
      expect(negative.body.data.params).toHaveProperty('post_id');
    });

    it('returns 403 post-has-no-tickets for an event without tickets', async () => {
      const response = await http().get(cartPath).query({ post_id: emptyEvent.id }).expect(403);
      expect(response.body).toEqual({ code: 'post-has-no-tickets', message: '', data: { status: 403 } });
    });
  });

  describe('anonymous identity', () => {
    it('issues a token on the first write, as an HttpOnly SameSite=Lax cookie and in X-Cart-Token', async () => {
      const { response, token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 2 }] });
      const cookie = (response.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith('cal_cart='));
      expect(cookie).toBeDefined();
      expect(cookie).toContain(`cal_cart=${encodeURIComponent(token)}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
      expect(response.body).toEqual({
        tickets: [{ ticket_id: generalId, quantity: 2, post_id: event.id, optout: 0, iac: 'none', provider: 'tc' }],
        meta: [],
        cart_url: '',
        checkout_url: '',
      });
      expect(Object.keys(response.body.tickets[0])).toEqual(['ticket_id', 'quantity', 'post_id', 'optout', 'iac', 'provider']);
    });

    it('finds the cart again by the header and by the cookie, and keeps the token on later writes', async () => {
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1 }] });
      const byHeader = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(byHeader.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 1 })]);
      const byCookie = await http().get(cartPath).set('Cookie', `cal_cart=${token}`).expect(200);
      expect(byCookie.body.tickets).toEqual(byHeader.body.tickets);
      const again = await http()
        .post(cartPath)
        .set('Cookie', `cal_cart=${token}`)
        .send({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 1 }] })
        .expect(200);
      expect(again.headers['x-cart-token']).toBe(token);
      expect(again.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([generalId, vipId]);
    });

    it('ignores tokens it did not issue: they read as no cart and a write gets a new token', async () => {
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1 }] });
      // Two characters of the signature changed (never to what they were: a token ending in "xx" stays itself).
      const forged = `${token.slice(0, -2)}${token.endsWith('xx') ? 'yy' : 'xx'}`;
      const read = await http().get(cartPath).set('X-Cart-Token', forged).expect(200);
      expect(read.body.tickets).toEqual([]);
      const write = await http()
        .post(cartPath)
        .set('X-Cart-Token', 'made-up-token')
        .send({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 1 }] })
        .expect(200);
      expect(write.headers['x-cart-token']).not.toBe('made-up-token');
      expect(write.body.tickets).toEqual([expect.objectContaining({ ticket_id: vipId })]);
    });

    it("does not show one buyer another buyer's cart", async () => {
      const first = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 3 }] });
      const second = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 1 }] });
      expect(first.token).not.toBe(second.token);
      const firstCart = await http().get(cartPath).set('X-Cart-Token', first.token).expect(200);
      expect(firstCart.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 3 })]);
      const anonymous = await http().get(cartPath).expect(200);
      expect(anonymous.body.tickets).toEqual([]);
    });
  });

  describe('signed-in buyers', () => {
    it('keeps one cart per user, which other users and anonymous callers cannot see', async () => {
      await http()
        .put(cartPath)
        .set('Authorization', buyer.authorization)
        .send({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 2 }] })
        .expect(200);
      const own = await http().get(cartPath).set('Authorization', buyer.authorization).expect(200);
      expect(own.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 2 })]);
      const other = await http().get(cartPath).set('Authorization', otherBuyer.authorization).expect(200);
      expect(other.body.tickets).toEqual([]);
      expect((await http().get(cartPath).expect(200)).body.tickets).toEqual([]);
    });

    it('issues no cart token to signed-in buyers and ignores the one they send', async () => {
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 4 }] });
      const write = await http()
        .patch(cartPath)
        .set('Authorization', otherBuyer.authorization)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1 }] })
        .expect(200);
      expect(write.headers['x-cart-token']).toBeUndefined();
      expect(write.headers['set-cookie']).toBeUndefined();
      expect(write.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 1 })]);
      const guest = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(guest.body.tickets).toEqual([expect.objectContaining({ ticket_id: vipId, quantity: 4 })]);
    });

    it('answers 401 incorrect_password for wrong credentials', async () => {
      const response = await http()
        .get(cartPath)
        .set('Authorization', `Basic ${Buffer.from('nobody:wrong').toString('base64')}`)
        .expect(401);
      expect(response.body.code).toBe('incorrect_password');
    });
  });

  describe('replace-quantity semantics', () => {
    it('replaces the listed quantities, removes lines set to 0 and leaves unlisted lines alone', async () => {
      const { token } = await newGuestCart({
        provider: 'tc',
        tickets: [
          { ticket_id: generalId, quantity: 2 },
          { ticket_id: vipId, quantity: 1 },
        ],
      });
      const replaced = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 3 }] })
        .expect(200);
      expect(replaced.body.tickets).toEqual([
        expect.objectContaining({ ticket_id: generalId, quantity: 3 }),
        expect.objectContaining({ ticket_id: vipId, quantity: 1 }),
      ]);
      const removed = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 0 }] })
        .expect(200);
      expect(removed.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 3 })]);
      const untouched = await http().post(cartPath).set('X-Cart-Token', token).send({ provider: 'tc' }).expect(200);
      expect(untouched.body.tickets).toEqual(removed.body.tickets);
    });

    it('keeps optout when a line leaves it out and shows it as 0 or 1', async () => {
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1, optout: true }] });
      const kept = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 2 }] })
        .expect(200);
      expect(kept.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 2, optout: 1 })]);
      const cleared = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 2, optout: 'no' }] })
        .expect(200);
      expect(cleared.body.tickets[0].optout).toBe(0);
    });

    it('accepts the same write as a form, with nested fields in brackets', async () => {
      const response = await http()
        .post(cartPath)
        .type('form')
        .send(`provider=tribe-commerce&tickets[0][ticket_id]=${generalId}&tickets[0][quantity]=2&tickets[0][optout]=1`)
        .expect(200);
      expect(response.body.tickets).toEqual([
        { ticket_id: generalId, quantity: 2, post_id: event.id, optout: 1, iac: 'none', provider: 'tc' },
      ]);
    });

    it('stores registration meta per ticket and shows it back; [] clears it', async () => {
      const items = [{ 'field-a': 'one' }, { 'field-a': 'two' }];
      const { token } = await newGuestCart({
        provider: 'tc',
        tickets: [{ ticket_id: generalId, quantity: 2 }],
        meta: [{ ticket_id: generalId, provider: 'tc', items }],
      });
      const read = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(read.body.meta).toEqual([{ ticket_id: generalId, provider: 'tc', items }]);
      const cleared = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', meta: [{ ticket_id: generalId, items: [] }] })
        .expect(200);
      expect(cleared.body.meta).toEqual([]);
      expect(cleared.body.tickets).toHaveLength(1);
    });

    it('refuses meta for a ticket that is not in the cart', async () => {
      const response = await http()
        .post(cartPath)
        .send({ provider: 'tc', meta: [{ ticket_id: vipId, items: [{ a: 1 }] }] })
        .expect(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { 'meta[0][ticket_id]': expect.any(String) } } });
    });

    it('shows only the lines of the write’s provider and post_id, with URLs when post_id is given', async () => {
      const { token } = await newGuestCart({ provider: 'rsvp', tickets: [{ ticket_id: rsvpId, quantity: 1 }] });
      const write = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({
          provider: 'tc',
          post_id: event.id,
          tickets: [
            { ticket_id: generalId, quantity: 1 },
            { ticket_id: otherEventTicketId, quantity: 1 },
          ],
        })
        .expect(200);
      expect(write.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([generalId]);
      expect(write.body.cart_url).toBe(
        `http://127.0.0.1${write.request.url.match(/:\d+/)?.[0] ?? ''}/cal/tickets/v1/cart?post_id=${event.id}`,
      );
      expect(write.body.checkout_url).toMatch(/\/cal\/tickets\/v1\/cart\/checkout$/);

      const all = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(all.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([generalId, rsvpId, otherEventTicketId]);
      expect(all.body.cart_url).toBe('');
      const rsvpOnly = await http().get(cartPath).set('X-Cart-Token', token).query({ provider: 'rsvp' }).expect(200);
      expect(rsvpOnly.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([rsvpId]);
      const aliases = await http().get(cartPath).set('X-Cart-Token', token).query({ provider: 'tribe-commerce,tpp' }).expect(200);
      expect(aliases.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([generalId, otherEventTicketId]);
      const unknown = await http().get(cartPath).set('X-Cart-Token', token).query({ provider: 'woo' }).expect(200);
      expect(unknown.body.tickets).toEqual([]);
      const byEvent = await http().get(cartPath).set('X-Cart-Token', token).query({ post_id: otherEvent.id }).expect(200);
      expect(byEvent.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([otherEventTicketId]);
    });
  });

  describe('validation', () => {
    async function expectRejected(body: unknown, status: number, code: string) {
      const response = await http()
        .post(cartPath)
        .send(body as object)
        .expect(status);
      expect(response.body.code).toBe(code);
      expect(response.body.data.status).toBe(status);
      return response.body as { message: string; data: { params?: unknown } };
    }

    it('requires a provider and refuses unknown ones', async () => {
      expect((await expectRejected({ tickets: [] }, 400, 'rest_missing_callback_param')).data.params).toEqual(['provider']);
      expect((await expectRejected({ provider: 'woo' }, 400, 'rest_invalid_param')).data.params).toHaveProperty('provider');
      expect(
        (
          await expectRejected(
            { provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1, provider: 'edd' }] },
            400,
            'rest_invalid_param',
          )
        ).data.params,
      ).toHaveProperty(['tickets[0][provider]']);
    });

    it("refuses a line whose provider is not the ticket's", async () => {
      const mismatch = await expectRejected({ provider: 'tc', tickets: [{ ticket_id: rsvpId, quantity: 1 }] }, 400, 'rest_invalid_param');
      expect(mismatch.data.params).toEqual({ 'tickets[0][provider]': `ticket ${rsvpId} is sold by rsvp, not tc` });
      const lineProvider = await http()
        .post(cartPath)
        .send({ provider: 'tc', tickets: [{ ticket_id: rsvpId, quantity: 1, provider: 'rsvp' }] })
        .expect(200);
      expect(lineProvider.body.tickets).toEqual([]);
      const stored = await http()
        .get(cartPath)
        .set('X-Cart-Token', lineProvider.headers['x-cart-token'])
        .query({ provider: 'rsvp' })
        .expect(200);
      expect(stored.body.tickets).toEqual([expect.objectContaining({ ticket_id: rsvpId, provider: 'rsvp' })]);
    });

    it('names missing ticket ids and quantities', async () => {
      expect(
        (await expectRejected({ provider: 'tc', tickets: [{ quantity: 1 }] }, 400, 'rest_missing_callback_param')).data.params,
      ).toEqual(['tickets[0][ticket_id]']);
      expect(
        (await expectRejected({ provider: 'tc', tickets: [{ ticket_id: generalId }] }, 400, 'rest_missing_callback_param')).data.params,
      ).toEqual(['tickets[0][quantity]']);
    });

    it('refuses negative, fractional, huge and non-numeric values with 400 naming the field', async () => {
      for (const quantity of [-1, 1.5, '2.5', 'lots', '99999999999999999999', 1e20, [1], { a: 1 }, null]) {
        const response = await http()
          .post(cartPath)
          .send({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity }] });
        expect(response.status).toBe(400);
        expect(['rest_invalid_param', 'rest_missing_callback_param']).toContain(response.body.code);
      }
      for (const ticketId of ['abc', -4, 0, 1.5, 99_999_999_999, '1e3']) {
        const response = await http()
          .post(cartPath)
          .send({ provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] })
          .expect(400);
        expect(response.body.data.params).toHaveProperty(['tickets[0][ticket_id]']);
      }
      expect((await expectRejected({ provider: 'tc', tickets: 'everything' }, 400, 'rest_invalid_param')).data.params).toHaveProperty(
        'tickets',
      );
      expect((await expectRejected({ provider: 'tc', tickets: ['x'] }, 400, 'rest_invalid_param')).data.params).toBeDefined();
      expect((await expectRejected({ provider: 'tc', post_id: 'abc' }, 400, 'rest_invalid_param')).data.params).toHaveProperty('post_id');
      expect(
        (await expectRejected({ provider: 'tc', meta: [{ ticket_id: generalId, items: 'x' }] }, 400, 'rest_invalid_param')).data.params,
      ).toHaveProperty(['meta[0][items]']);
    });

    it('refuses a ticket listed twice and a cart of more than MAX_TICKETS_PER_ORDER units', async () => {
      const twice = await expectRejected(
        {
          provider: 'tc',
          tickets: [
            { ticket_id: generalId, quantity: 1 },
            { ticket_id: generalId, quantity: 2 },
          ],
        },
        400,
        'rest_invalid_param',
      );
      expect(twice.data.params).toHaveProperty(['tickets[1][ticket_id]']);
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 6 }] });
      const total = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 5 }] })
        .expect(400);
      expect(total.body.data.params).toHaveProperty('tickets');
    });

    it("answers a line above MAX_TICKETS_PER_ORDER with 409 ticket-capacity-not-available, as the original, after an unknown ticket's 404", async () => {
      const aboveMax = await expectRejected(
        { provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 11 }] },
        409,
        'ticket-capacity-not-available',
      );
      expect(aboveMax.message).toBe(`Ticket ${generalId} cannot be bought in that quantity: one order holds at most 10 units.`);
      expect(aboveMax.data).toEqual({ status: 409, ticket_id: generalId, reason: 'over-order-limit', max: 10 });
      await expectRejected(
        {
          provider: 'tc',
          tickets: [
            { ticket_id: generalId, quantity: 11 },
            { ticket_id: 999_999, quantity: 1 },
          ],
        },
        404,
        'ticket-does-not-exist',
      );
    });

    it('returns 404 ticket-does-not-exist for an unknown ticket and saves nothing', async () => {
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1 }] });
      const response = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({
          provider: 'tc',
          tickets: [
            { ticket_id: vipId, quantity: 2 },
            { ticket_id: 987_654, quantity: 1 },
          ],
        })
        .expect(404);
      expect(response.body).toMatchObject({ code: 'ticket-does-not-exist', data: { status: 404, ticket_id: 987_654 } });
      const cart = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(cart.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 1 })]);
    });

    it('returns 409 ticket-capacity-not-available for more than is left, and saves nothing', async () => {
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: generalId, quantity: 1 }] });
      const response = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({
          provider: 'tc',
          tickets: [
            { ticket_id: generalId, quantity: 4 },
            { ticket_id: vipId, quantity: 6 },
          ],
        })
        .expect(409);
      expect(response.body).toMatchObject({
        code: 'ticket-capacity-not-available',
        data: { status: 409, ticket_id: vipId, reason: 'not-enough-left' },
      });
      const cart = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(cart.body.tickets).toEqual([expect.objectContaining({ ticket_id: generalId, quantity: 1 })]);
    });

    it('returns 409 ticket-capacity-not-available when lines sharing a pool hold more than it has left, as checkout would, leaving the cart as it was', async () => {
      const pooledEvent = await insertEvent(testApp.dataSource);
      await insertPool(testApp.dataSource, pooledEvent.id, 3);
      const front = await insertTicket(testApp.dataSource, { eventId: pooledEvent.id, capacityMode: 'capped', capacity: 10 });
      const back = await insertTicket(testApp.dataSource, { eventId: pooledEvent.id, capacityMode: 'global', capacity: null });
      const { token } = await newGuestCart({ provider: 'tc', tickets: [{ ticket_id: front.id, quantity: 2 }] });
      // Each line alone fits the pool of 3; with the line already in the cart they do not.
      const added = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: back.id, quantity: 2 }] })
        .expect(409);
      expect(added.body).toMatchObject({
        code: 'ticket-capacity-not-available',
        data: { status: 409, ticket_id: back.id, reason: 'not-enough-left' },
      });
      const together = await http()
        .post(cartPath)
        .send({
          provider: 'tc',
          tickets: [
            { ticket_id: front.id, quantity: 2 },
            { ticket_id: back.id, quantity: 2 },
          ],
        })
        .expect(409);
      expect(together.body.data).toMatchObject({ reason: 'not-enough-left' });
      const cart = await http().get(cartPath).set('X-Cart-Token', token).expect(200);
      expect(cart.body.tickets).toEqual([expect.objectContaining({ ticket_id: front.id, quantity: 2 })]);
      // Moving units between the pool's tickets within what it has left is fine.
      await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({
          provider: 'tc',
          tickets: [
            { ticket_id: front.id, quantity: 1 },
            { ticket_id: back.id, quantity: 2 },
          ],
        })
        .expect(200);
    });

    it('returns 409 for tickets that are not on sale: sale window, unpublished ticket or event, shared pool exhausted', async () => {
      const now = Date.now();
      const ended = await insertTicket(testApp.dataSource, { eventId: event.id, saleEndUtc: new Date(now - 3600_000) });
      const notYet = await insertTicket(testApp.dataSource, { eventId: event.id, saleStartUtc: new Date(now + 3600_000) });
      const draft = await insertTicket(testApp.dataSource, { eventId: event.id, status: 'draft' });
      const draftEvent = await insertEvent(testApp.dataSource, { status: 'draft' });
      const ofDraftEvent = await insertTicket(testApp.dataSource, { eventId: draftEvent.id });
      const pooledEvent = await insertEvent(testApp.dataSource);
      await insertPool(testApp.dataSource, pooledEvent.id, 3);
      const capped = await insertTicket(testApp.dataSource, { eventId: pooledEvent.id, capacityMode: 'capped', capacity: 10 });
      const expectations: Array<[number, string, number]> = [
        [ended.id, 'after-sale', 1],
        [notYet.id, 'before-sale', 1],
        [draft.id, 'ticket-not-published', 1],
        [ofDraftEvent.id, 'event-not-selling', 1],
        [capped.id, 'not-enough-left', 4],
      ];
      for (const [ticketId, reason, quantity] of expectations) {
        const response = await http()
          .post(cartPath)
          .send({ provider: 'tc', tickets: [{ ticket_id: ticketId, quantity }] })
          .expect(409);
        expect(response.body.data).toMatchObject({ ticket_id: ticketId, reason });
      }
      // Removing a line needs no capacity, even when the ticket is no longer on sale.
      await http()
        .post(cartPath)
        .send({ provider: 'tc', tickets: [{ ticket_id: ended.id, quantity: 0 }] })
        .expect(200);
    });

    it('checks post_id on writes: 400 when it is not an event, 403 when it has no tickets', async () => {
      const unknown = await http()
        .post(cartPath)
        .send({ provider: 'tc', post_id: 999_999, tickets: [{ ticket_id: generalId, quantity: 1 }] })
        .expect(400);
      expect(unknown.body.data.params).toHaveProperty('post_id');
      const noTickets = await http()
        .post(cartPath)
        .send({ provider: 'tc', post_id: emptyEvent.id, tickets: [{ ticket_id: generalId, quantity: 1 }] })
        .expect(403);
      expect(noTickets.body.code).toBe('post-has-no-tickets');
    });

    it('answers malformed bodies with 400, never 500', async () => {
      const bodies: unknown[] = [
        [],
        'text',
        42,
        { provider: ['tc'] },
        { provider: 'tc', tickets: { 0: { ticket_id: generalId } } },
        { provider: 'tc', meta: 'x' },
        { provider: 'tc', tickets: [null] },
      ];
      for (const body of bodies) {
        const response = await http().post(cartPath).set('Content-Type', 'application/json').send(JSON.stringify(body));
        expect(response.status).toBe(400);
      }
      const broken = await http().post(cartPath).set('Content-Type', 'application/json').send('{"provider": "tc", ').expect(400);
      expect(broken.body.code).toBe('rest_invalid_json');
    });
  });

  describe('expiry', () => {
    it('reads a cart idle for 24 hours as empty and replaces it on the next write', async () => {
      const { token } = await newGuestCart({
        provider: 'tc',
        tickets: [
          { ticket_id: generalId, quantity: 2 },
          { ticket_id: vipId, quantity: 1 },
        ],
      });
      clock.advanceMinutes(23 * 60);
      expect((await http().get(cartPath).set('X-Cart-Token', token).expect(200)).body.tickets).toHaveLength(2);
      clock.advanceMinutes(61);
      expect((await http().get(cartPath).set('X-Cart-Token', token).expect(200)).body.tickets).toEqual([]);
      const write = await http()
        .post(cartPath)
        .set('X-Cart-Token', token)
        .send({ provider: 'tc', tickets: [{ ticket_id: vipId, quantity: 2 }] })
        .expect(200);
      expect(write.headers['x-cart-token']).toBe(token);
      expect(write.body.tickets).toEqual([expect.objectContaining({ ticket_id: vipId, quantity: 2 })]);
      const cart = await testApp.dataSource.getRepository(Cart).findOneByOrFail({ token });
      expect(await testApp.dataSource.getRepository(CartItem).countBy({ cartId: cart.id })).toBe(1);
    });
  });

  describe('arbitrary input', () => {
    const ids = () =>
      fc.oneof(
        fc.constantFrom(generalId, vipId, rsvpId, otherEventTicketId, 0, -1, 2 ** 31, 1e20, 987_654),
        fc.string(),
        fc.double(),
        fc.jsonValue(),
      );
    const line = () =>
      fc.record(
        {
          ticket_id: ids(),
          quantity: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.string(), fc.double(), fc.jsonValue()),
          optout: fc.jsonValue(),
          provider: fc.jsonValue(),
        },
        { requiredKeys: [] },
      );
    const body = () =>
      fc.record(
        {
          provider: fc.oneof(fc.constantFrom('tc', 'rsvp', 'tpp', 'tribe-commerce', 'woo', ''), fc.jsonValue()),
          tickets: fc.oneof(fc.array(line(), { maxLength: 4 }), fc.jsonValue()),
          meta: fc.oneof(
            fc.array(
              fc.record(
                {
                  ticket_id: ids(),
                  items: fc.oneof(fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 3 }), fc.jsonValue()),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 2 },
            ),
            fc.jsonValue(),
          ),
          post_id: fc.oneof(fc.constantFrom(event.id, emptyEvent.id, 999_999), ids()),
        },
        { requiredKeys: [] },
      );

    it('answers every valid write with the cart a read gives right after it', async () => {
      // The answer is built from the lines as written, not read back: over any sequence of writes
      // (lines added, changed and removed, opt-outs, registration answers set and cleared, with and
      // without post_id) it must be what the database then holds.
      const ticketOf = (id: number) => ({ id, provider: id === rsvpId ? 'rsvp' : 'tc' });
      const write = fc.record(
        {
          ticket: fc.constantFrom(generalId, vipId, rsvpId, otherEventTicketId).map(ticketOf),
          quantity: fc.integer({ min: 0, max: 3 }),
          optout: fc.option(fc.boolean(), { nil: undefined }),
          meta: fc.option(fc.array(fc.dictionary(fc.constantFrom('name', 'shirt'), fc.string({ maxLength: 5 })), { maxLength: 3 }), {
            nil: undefined,
          }),
          byEvent: fc.boolean(),
        },
        { requiredKeys: ['ticket', 'quantity', 'byEvent'] },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
          let token: string | undefined;
          for (const step of writes) {
            const body = {
              provider: step.ticket.provider,
              tickets: [
                { ticket_id: step.ticket.id, quantity: step.quantity, ...(step.optout === undefined ? {} : { optout: step.optout }) },
              ],
              // Registration answers only for a line the write keeps (others are a 400, tested above).
              ...(step.meta !== undefined && step.quantity > 0 ? { meta: [{ ticket_id: step.ticket.id, items: step.meta }] } : {}),
              ...(step.byEvent ? { post_id: step.ticket.id === otherEventTicketId ? otherEvent.id : event.id } : {}),
            };
            const written = await (token ? http().post(cartPath).set('X-Cart-Token', token) : http().post(cartPath)).send(body).expect(200);
            token = token ?? written.headers['x-cart-token'];
            const read = await http()
              .get(cartPath)
              .set('X-Cart-Token', token)
              .query({ provider: body.provider, ...(body.post_id === undefined ? {} : { post_id: body.post_id }) })
              .expect(200);
            // Each supertest request gets a port of its own: compare the URLs without their origin.
            const withoutOrigin = (cart: Record<string, unknown>) => ({
              ...cart,
              cart_url: String(cart.cart_url).replace(/^http:\/\/[^/]+/, ''),
              checkout_url: String(cart.checkout_url).replace(/^http:\/\/[^/]+/, ''),
            });
            expect(withoutOrigin(written.body as Record<string, unknown>)).toEqual(withoutOrigin(read.body as Record<string, unknown>));
          }
        }),
        { numRuns: 25 },
      );
    });

    it('never answers a cart write or read with a 500', async () => {
      await fc.assert(
        fc.asyncProperty(body(), async (payload) => {
          const write = await http().post(cartPath).set('Content-Type', 'application/json').send(JSON.stringify(payload));
          expect(write.status).toBeLessThan(500);
          // Whatever the fuzz generated goes into the query as text, `[object Object]` included.
          const read = await http()
            .get(cartPath)
            .query({ provider: asText(payload.provider), post_id: asText(payload.post_id) });
          expect(read.status).toBeLessThan(500);
        }),
        { numRuns: 150 },
      );
    });
  });
});
