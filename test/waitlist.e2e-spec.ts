import request from 'supertest';
import { In, LessThanOrEqual } from 'typeorm';
import { Attendee } from '../src/attendees/attendee.entity';
import { CartItem } from '../src/cart/cart.entity';
import { CLOCK } from '../src/common/clock';
import { Order } from '../src/orders/order.entity';
import { OrderExpiryService } from '../src/orders/order-expiry.service';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { OutboxWorker } from '../src/outbox-worker/outbox-worker.service';
import { availableUnits } from '../src/tickets/capacity';
import { CapacityService } from '../src/tickets/capacity.service';
import { Ticket } from '../src/tickets/ticket.entity';
import { WaitlistEntry } from '../src/waitlist/waitlist-entry.entity';
import { WaitlistExpiryService } from '../src/waitlist/waitlist-expiry.service';
import { WaitlistOffersService } from '../src/waitlist/waitlist-offers.service';
import { BuyerIdentity, CART_PATH, checkout, fillCart, identify, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { MailCatcher } from './helpers/mail-catcher';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { noncesOf } from './helpers/ticket-fixtures';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket, reloadPool, reloadTicket, TestClock } from './helpers/ticketing-fixtures';
import { TransactionHost } from '../src/common/database/transaction-host';

jest.setTimeout(300_000);

const WAITLIST = '/cal/tickets/v1/waitlist';
const TICKETS = '/cal/tickets/v1/tickets';
const ADMIN_AUTH = basicAuth(ADMIN.login, ADMIN.password);
const HOUR = 60;

let counter = 0;
const unique = (name: string) => `${name}${(counter += 1)}-${Date.now()}@example.org`;

describe('Waitlist (e2e)', () => {
  const smtp = new MailCatcher();
  const clock = new TestClock();
  let testApp: TestApp;
  let authorA: TestUser;
  let authorB: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    await smtp.start();
    const saved = process.env.SMTP_URL;
    process.env.SMTP_URL = smtp.url;
    try {
      testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    } finally {
      if (saved === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = saved;
    }
    authorA = await createUser(testApp, 'author');
    authorB = await createUser(testApp, 'author');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp?.close();
    await smtp.stop();
  });

  afterEach(() => clock.reset());

  const http = () => request(testApp.server);
  const entries = () => testApp.dataSource.getRepository(WaitlistEntry);
  const sweeper = () => testApp.app.get(WaitlistExpiryService);

  interface TicketSetup {
    capacity?: number;
    price?: string;
    autoOffer?: boolean;
    authorId?: number | null;
    waitlist?: boolean;
  }

  /** A ticket of an event (by author A unless told), its waitlist switched on. */
  async function waitlistTicket(setup: TicketSetup = {}): Promise<Ticket> {
    const event = await insertEvent(testApp.dataSource, { authorId: setup.authorId === undefined ? authorA.id : setup.authorId });
    const ticket = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      price: setup.price ?? '20.00',
      capacityMode: 'own',
      capacity: setup.capacity ?? 2,
    });
    await testApp.dataSource
      .getRepository(Ticket)
      .update(ticket.id, { waitlist: setup.waitlist ?? true, waitlistAutoOffer: setup.autoOffer ?? true });
    return reloadTicket(testApp.dataSource, ticket.id);
  }

  /** An order of `quantity` units placed by a fresh anonymous buyer; pending for a paid ticket. */
  async function buy(ticket: Ticket, quantity: number, email = unique('buyer')) {
    const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity }]);
    const response = await checkout(testApp, buyer, { provider: 'tc', purchaser: { name: 'Buyer', email } }).expect(201);
    return { buyer, order: response.body as { id: number; status: string } };
  }

  function join(ticketId: number, email: string, quantity = 1, name = 'Waiting Person'): request.Test {
    return http().post(WAITLIST).send({ ticket_id: ticketId, name, email, quantity });
  }

  async function counts(ticketId: number) {
    const ticket = await reloadTicket(testApp.dataSource, ticketId);
    return { sold: ticket.sold, pending: ticket.pending, available: availableUnits(CapacityService.stateOf(ticket, undefined)) };
  }

  async function entry(id: number): Promise<WaitlistEntry> {
    return entries().findOneByOrFail({ id });
  }

  async function offerEmails(ticketId: number): Promise<OutboxMessage[]> {
    const rows = await testApp.dataSource
      .getRepository(OutboxMessage)
      .find({ where: { channel: 'email', type: 'waitlist-offer' }, order: { id: 'ASC' } });
    return rows.filter((row) => (JSON.parse(row.payload) as { ticket_id: number }).ticket_id === ticketId);
  }

  /**
   * The oversell invariants with offers: the counter's counts equal a recount of the rows (sold:
   * units of completed orders; pending: units of pending orders plus units held by live offers),
   * and sold + pending never exceeds the capacity.
   */
  async function expectCountsMatchRows(ticketId: number): Promise<{ sold: number; pending: number; offered: number }> {
    const ticket = await reloadTicket(testApp.dataSource, ticketId);
    const attendees = await testApp.dataSource.getRepository(Attendee).find({ where: { ticketId } });
    const orderIds = [...new Set(attendees.map((attendee) => attendee.orderId))];
    const orders = orderIds.length ? await testApp.dataSource.getRepository(Order).find({ where: { id: In(orderIds) } }) : [];
    const status = new Map(orders.map((order) => [order.id, order.status]));
    const sold = attendees.filter((attendee) => status.get(attendee.orderId) === 'completed').length;
    const pendingOrders = attendees.filter((attendee) => status.get(attendee.orderId) === 'pending').length;
    const offers = await entries().find({ where: { ticketId, status: 'offered' } });
    const offered = offers.reduce((sum, offer) => sum + (offer.offerQuantity ?? 0), 0);
    expect({ sold: ticket.sold, pending: ticket.pending }).toEqual({ sold, pending: pendingOrders + offered });
    expect(ticket.sold + ticket.pending).toBeLessThanOrEqual(ticket.capacity ?? 0);
    return { sold, pending: pendingOrders, offered };
  }

  // ---------------------------------------------------------------- ticket switches

  describe('ticket switches', () => {
    it('sets waitlist and waitlist_auto_offer through the ticket write routes; managers see them on a single read, others do not', async () => {
      const ticket = await waitlistTicket({ waitlist: false });
      const nonces = await noncesOf(testApp, authorA);
      await http()
        .patch(`${TICKETS}/${ticket.id}`)
        .set('Authorization', authorA.authorization)
        .send({ post_id: ticket.eventId, edit_ticket_nonce: nonces.edit_ticket_nonce, waitlist: 'yes', waitlist_auto_offer: false })
        .expect(200);
      const managed = await http().get(`${TICKETS}/${ticket.id}`).set('Authorization', authorA.authorization).expect(200);
      expect(managed.body.waitlist).toEqual({ enabled: true, auto_offer: false });
      const anonymous = await http().get(`${TICKETS}/${ticket.id}`).expect(200);
      expect(anonymous.body).not.toHaveProperty('waitlist');

      const bad = await http()
        .patch(`${TICKETS}/${ticket.id}`)
        .set('Authorization', authorA.authorization)
        .send({ post_id: ticket.eventId, edit_ticket_nonce: nonces.edit_ticket_nonce, waitlist: 'maybe' })
        .expect(400);
      expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { waitlist: expect.any(String) } } });
    });
  });

  // ---------------------------------------------------------------- joining and leaving

  describe('joining and leaving', () => {
    it('refuses bad input with 400 naming the field', async () => {
      const ticket = await waitlistTicket();
      for (const [body, field] of [
        [{ ticket_id: ticket.id, name: 'A', email: unique('a'), quantity: 0 }, 'quantity'],
        [{ ticket_id: ticket.id, name: 'A', email: unique('a'), quantity: 11 }, 'quantity'],
        [{ ticket_id: ticket.id, name: 'A', email: 'not-an-address', quantity: 1 }, 'email'],
        [{ ticket_id: ticket.id, name: '', email: unique('a'), quantity: 1 }, 'name'],
        [{ ticket_id: 'x', name: 'A', email: unique('a'), quantity: 1 }, 'ticket_id'],
      ] as const) {
        const response = await http().post(WAITLIST).send(body).expect(400);
        expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
        expect(Object.keys(response.body.data.params)).toContain(field);
      }
      const missing = await http().post(WAITLIST).send({ ticket_id: ticket.id }).expect(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
    });

    it('refuses unknown tickets (404), tickets without a waitlist and tickets not sold out (409)', async () => {
      const missing = await join(2_000_000_000, unique('a')).expect(404);
      expect(missing.body).toMatchObject({ code: 'ticket-does-not-exist', data: { status: 404 } });

      const off = await waitlistTicket({ waitlist: false, price: '0.00', capacity: 1 });
      await buy(off, 1);
      expect((await join(off.id, unique('a')).expect(409)).body).toMatchObject({
        code: 'waitlist-disabled',
        data: { status: 409, ticket_id: off.id },
      });

      const open = await waitlistTicket({ capacity: 3 });
      await buy(open, 2);
      expect((await join(open.id, unique('a')).expect(409)).body).toMatchObject({
        code: 'waitlist-ticket-available',
        data: { status: 409, ticket_id: open.id, available: 1 },
      });
    });

    it('joins a sold-out ticket in line order, an address once per ticket (409), leaves by the cancel token and may join again', async () => {
      const ticket = await waitlistTicket({ capacity: 1 });
      await buy(ticket, 1);
      const ada = unique('ada');
      const first = await join(ticket.id, ada, 2).expect(201);
      expect(first.body).toEqual({
        id: expect.any(Number),
        position: 1,
        status: 'waiting',
        cancel_token: expect.stringMatching(/^[0-9a-f]{48}$/),
        ticket_id: ticket.id,
        quantity: 2,
      });
      const second = await join(ticket.id, unique('bob')).expect(201);
      expect(second.body.position).toBe(2);

      const again = await join(ticket.id, ada.toUpperCase()).expect(409);
      expect(again.body).toMatchObject({ code: 'waitlist-already-joined', data: { status: 409, params: { email: expect.any(String) } } });

      // Attackers: a made-up token, a malformed one.
      expect(
        (
          await http()
            .delete(`${WAITLIST}/${'0'.repeat(48)}`)
            .expect(404)
        ).body,
      ).toMatchObject({
        code: 'waitlist-entry-not-found',
        data: { status: 404 },
      });
      expect((await http().delete(`${WAITLIST}/not-a-token`).expect(404)).body.code).toBe('waitlist-entry-not-found');

      const left = await http().delete(`${WAITLIST}/${first.body.cancel_token}`).expect(200);
      expect(left.body).toEqual({ id: first.body.id, status: 'cancelled', released_units: 0 });
      expect((await http().delete(`${WAITLIST}/${first.body.cancel_token}`).expect(409)).body).toMatchObject({
        code: 'waitlist-entry-not-cancellable',
        data: { status: 409 },
      });
      const rejoined = await join(ticket.id, ada).expect(201);
      expect(rejoined.body.position).toBe(2);
    });

    it('keeps concurrent joins of one address to one entry', async () => {
      const ticket = await waitlistTicket({ capacity: 1 });
      await buy(ticket, 1);
      const email = unique('twin');
      const responses = await Promise.all(Array.from({ length: 8 }, () => join(ticket.id, email)));
      expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
      for (const response of responses.filter((candidate) => candidate.status !== 201)) {
        expect(response.status).toBe(409);
        expect(response.body.code).toBe('waitlist-already-joined');
      }
      expect(await entries().countBy({ ticketId: ticket.id })).toBe(1);
    });
  });

  // ---------------------------------------------------------------- offers

  describe('offers', () => {
    it('holds released units for the next in line, emails the offer, and the offer token buys them', async () => {
      const ticket = await waitlistTicket({ capacity: 2 });
      const held = await buy(ticket, 2);
      const ada = unique('ada');
      const bob = unique('bob');
      const carol = unique('carol');
      const adaEntry = (await join(ticket.id, ada, 1, 'Ada').expect(201)).body as { id: number };
      const bobEntry = (await join(ticket.id, bob, 2, 'Bob').expect(201)).body as { id: number };
      await join(ticket.id, carol, 1, 'Carol').expect(201);

      // The buyer cancels their pending order: its 2 units go to Ada (1) and Bob (1 of his 2), not to the public.
      await identify(http().post(`${ORDERS_PATH}/${held.order.id}/cancel`), held.buyer).expect(200);
      const adaOffer = await entry(adaEntry.id);
      const bobOffer = await entry(bobEntry.id);
      expect(adaOffer).toMatchObject({ status: 'offered', offerQuantity: 1 });
      expect(bobOffer).toMatchObject({ status: 'offered', offerQuantity: 1 });
      expect(adaOffer.offerExpiresAt!.getTime() - clock.now().getTime()).toBe(12 * 3_600_000);
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 2, available: 0 });
      await expectCountsMatchRows(ticket.id);

      // An ordinary buyer cannot take them.
      const outsider = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }] })
        .expect(409);
      expect(outsider.body.code).toBe('ticket-capacity-not-available');

      // The offer email went out through the outbox, in the offer's transaction.
      const emails = await offerEmails(ticket.id);
      expect(emails.map((row) => row.recipient)).toEqual([ada, bob]);
      await testApp.app.get(OutboxWorker).drain();
      const [mail] = smtp.to(ada);
      expect(mail.subject).toBe(`Your waitlist offer: 1 × ${ticket.name}`);
      expect(mail.text).toContain(adaOffer.offerToken!);
      expect(mail.text).toContain('Hello Ada,');

      // Managers see the offer's token and deadline while it is offered.
      const listed = await http().get(WAITLIST).query({ ticket_id: ticket.id }).set('Authorization', authorA.authorization).expect(200);
      expect(listed.headers['x-et-total']).toBe('3');
      expect(listed.body.entries.map((row: { status: string; position: number | null }) => [row.status, row.position])).toEqual([
        ['offered', null],
        ['offered', null],
        ['waiting', 1],
      ]);
      expect(listed.body.entries[0]).toMatchObject({
        id: adaEntry.id,
        email: ada,
        offer_token: adaOffer.offerToken,
        offer_quantity: 1,
        offer_expires_at: adaOffer.offerExpiresAt!.toISOString(),
      });

      // Ada checks out with her offer: its held unit becomes her order's, nothing is taken twice.
      const wrongTicket = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [], waitlist_offer: adaOffer.offerToken })
        .expect(400);
      expect(wrongTicket.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { waitlist_offer: expect.any(String) } } });
      const cart = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], waitlist_offer: adaOffer.offerToken })
        .expect(200);
      const adaBuyer: BuyerIdentity = { token: cart.headers['x-cart-token'] };
      const order = await checkout(testApp, adaBuyer, { provider: 'tc', purchaser: { name: 'Ada', email: ada } }).expect(201);
      expect(order.body.status).toBe('pending');
      expect(await entry(adaEntry.id)).toMatchObject({ status: 'purchased', orderId: order.body.id });
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 2, available: 0 });
      await expectCountsMatchRows(ticket.id);

      // Paid: the order's units move to sold, Bob's offer still holds his.
      await http().post(`${ORDERS_PATH}/${order.body.id}/complete`).set('Authorization', ADMIN_AUTH).expect(200);
      expect(await counts(ticket.id)).toEqual({ sold: 1, pending: 1, available: 0 });
      await expectCountsMatchRows(ticket.id);

      // The used offer cannot be used again.
      const reuse = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], waitlist_offer: adaOffer.offerToken })
        .expect(409);
      expect(reuse.body).toMatchObject({
        code: 'waitlist-offer-invalid',
        data: { status: 409, params: { waitlist_offer: expect.any(String) } },
      });

      const stats = await http().get(`${WAITLIST}/stats`).query({ ticket_id: ticket.id }).set('Authorization', authorA.authorization);
      expect(stats.status).toBe(200);
      expect(stats.body).toEqual({
        ticket_id: ticket.id,
        waiting: 1,
        offered: 1,
        purchased: 1,
        expired: 0,
        cancelled: 0,
        waiting_units: 1,
        offered_units: 1,
      });
    });

    it('passes an expired offer on to the next in line, once, on any instance; a declined offer too', async () => {
      const ticket = await waitlistTicket({ capacity: 1, price: '0.00' });
      const sold = await buy(ticket, 1);
      const ada = (await join(ticket.id, unique('ada')).expect(201)).body as { id: number };
      const bob = (await join(ticket.id, unique('bob')).expect(201)).body as { id: number; cancel_token: string };

      // A manager cancels the completed order: the unit is offered to Ada.
      await http().post(`${ORDERS_PATH}/${sold.order.id}/cancel`).set('Authorization', ADMIN_AUTH).expect(200);
      expect(await entry(ada.id)).toMatchObject({ status: 'offered', offerQuantity: 1 });

      // Not yet due: nothing happens.
      clock.advanceMinutes(11 * HOUR);
      expect(await sweeper().sweepExpiredOffers()).toBe(0);

      // Due: two sweeps at once (two instances) expire it once, and Bob gets the unit.
      clock.advanceMinutes(HOUR + 1);
      const due = await entries().countBy({ status: 'offered', offerExpiresAt: LessThanOrEqual(clock.now()) });
      const [first, second] = await Promise.all([sweeper().sweepExpiredOffers(), sweeper().sweepExpiredOffers()]);
      expect(first + second).toBe(due);
      expect(await entry(ada.id)).toMatchObject({ status: 'expired' });
      expect(await entry(bob.id)).toMatchObject({ status: 'offered', offerQuantity: 1 });
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 1, available: 0 });
      expect((await offerEmails(ticket.id)).length).toBe(2);
      await expectCountsMatchRows(ticket.id);

      // An expired offer cannot be redeemed.
      const adaToken = (await entry(ada.id)).offerToken;
      const late = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], waitlist_offer: adaToken })
        .expect(409);
      expect(late.body.code).toBe('waitlist-offer-invalid');

      // Bob declines: nobody else waits, so the unit is for sale again.
      const declined = await http().delete(`${WAITLIST}/${bob.cancel_token}`).expect(200);
      expect(declined.body).toEqual({ id: bob.id, status: 'cancelled', released_units: 1 });
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 0, available: 1 });
      await buy(ticket, 1);
    });

    it('turns a free order of an offer into sold units, gives back what the cart does not use', async () => {
      const ticket = await waitlistTicket({ capacity: 3, price: '0.00' });
      const sold = await buy(ticket, 3);
      const ada = (await join(ticket.id, unique('ada'), 3).expect(201)).body as { id: number };
      const bob = (await join(ticket.id, unique('bob'), 1).expect(201)).body as { id: number };
      await http().post(`${ORDERS_PATH}/${sold.order.id}/cancel`).set('Authorization', ADMIN_AUTH).expect(200);
      const offer = await entry(ada.id);
      expect(offer).toMatchObject({ status: 'offered', offerQuantity: 3 });

      // Ada buys 2 of her 3: 2 sold, the third goes to Bob in the same transaction.
      const cart = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 2 }], waitlist_offer: offer.offerToken })
        .expect(200);
      const identity = { token: cart.headers['x-cart-token'] };
      expect((await testApp.dataSource.getRepository(CartItem).findOneByOrFail({ ticketId: ticket.id })).waitlistOffer).toBe(
        offer.offerToken,
      );
      const order = await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      expect(order.body.status).toBe('completed');
      expect(await counts(ticket.id)).toEqual({ sold: 2, pending: 1, available: 0 });
      expect(await entry(bob.id)).toMatchObject({ status: 'offered', offerQuantity: 1 });
      await expectCountsMatchRows(ticket.id);
    });

    it('offers units of a lapsed order hold, and of a raised cap, to the waitlist', async () => {
      const ticket = await waitlistTicket({ capacity: 1 });
      await buy(ticket, 1);
      const ada = (await join(ticket.id, unique('ada')).expect(201)).body as { id: number };
      const bob = (await join(ticket.id, unique('bob'), 2).expect(201)).body as { id: number };

      clock.advanceMinutes(16);
      expect(await testApp.app.get(OrderExpiryService).sweepExpiredOrders()).toBeGreaterThanOrEqual(1);
      expect(await entry(ada.id)).toMatchObject({ status: 'offered', offerQuantity: 1 });

      const nonces = await noncesOf(testApp, authorA);
      await http()
        .patch(`${TICKETS}/${ticket.id}`)
        .set('Authorization', authorA.authorization)
        .send({ post_id: ticket.eventId, edit_ticket_nonce: nonces.edit_ticket_nonce, ticket: { mode: 'own', capacity: 3 } })
        .expect(200);
      expect(await entry(bob.id)).toMatchObject({ status: 'offered', offerQuantity: 2 });
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 3, available: 0 });
      await expectCountsMatchRows(ticket.id);
    });

    it('offers units of a shared pool to a capped ticket’s waitlist', async () => {
      const event = await insertEvent(testApp.dataSource, { authorId: authorA.id });
      await insertPool(testApp.dataSource, event.id, 2);
      const created = await insertTicket(testApp.dataSource, { eventId: event.id, price: '20.00', capacityMode: 'capped', capacity: null });
      await testApp.dataSource.getRepository(Ticket).update(created.id, { waitlist: true });
      const ticket = await reloadTicket(testApp.dataSource, created.id);
      const held = await buy(ticket, 2);
      const ada = (await join(ticket.id, unique('ada'), 2).expect(201)).body as { id: number };
      await identify(http().post(`${ORDERS_PATH}/${held.order.id}/cancel`), held.buyer).expect(200);
      expect(await entry(ada.id)).toMatchObject({ status: 'offered', offerQuantity: 2 });
      expect(await reloadPool(testApp.dataSource, event.id)).toMatchObject({ sold: 0, pending: 2 });
    });

    it('leaves released units for sale when automatic offers are off, until a manager offers them', async () => {
      const ticket = await waitlistTicket({ capacity: 2, autoOffer: false });
      const held = await buy(ticket, 2);
      const ada = (await join(ticket.id, unique('ada'), 1).expect(201)).body as { id: number };
      const bob = (await join(ticket.id, unique('bob'), 1).expect(201)).body as { id: number };
      await identify(http().post(`${ORDERS_PATH}/${held.order.id}/cancel`), held.buyer).expect(200);
      expect(await entry(ada.id)).toMatchObject({ status: 'waiting' });
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 0, available: 2 });
      expect(await sweeper().topUp()).toBe(0);

      // Bob first: a manager moves him up, then offers one unit.
      const moved = await http()
        .patch(`${WAITLIST}/${bob.id}`)
        .set('Authorization', authorA.authorization)
        .send({ priority: 5 })
        .expect(200);
      expect(moved.body).toMatchObject({ id: bob.id, priority: 5, position: 1, status: 'waiting' });
      const offered = await http()
        .post(`${WAITLIST}/offer-next`)
        .set('Authorization', authorA.authorization)
        .send({ ticket_id: ticket.id, quantity: 1 })
        .expect(200);
      expect(offered.body.offers).toHaveLength(1);
      expect(offered.body.offers[0]).toMatchObject({ id: bob.id, status: 'offered', offer_quantity: 1, offer_token: expect.any(String) });
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 1, available: 1 });
      expect(await entry(ada.id)).toMatchObject({ status: 'waiting' });
      await expectCountsMatchRows(ticket.id);

      const bad = await http()
        .post(`${WAITLIST}/offer-next`)
        .set('Authorization', authorA.authorization)
        .send({ ticket_id: ticket.id, quantity: 0 })
        .expect(400);
      expect(Object.keys(bad.body.data.params)).toContain('quantity');
    });
  });

  // ---------------------------------------------------------------- managers and attackers

  describe('managers and attackers', () => {
    let ticket: Ticket;
    let entryId: number;

    beforeAll(async () => {
      ticket = await waitlistTicket({ capacity: 1, price: '0.00' });
      await buy(ticket, 1);
      entryId = ((await join(ticket.id, unique('ada'), 1).expect(201)).body as { id: number }).id;
      await join(ticket.id, unique('bob'), 2).expect(201);
    });

    it('filters the list by ticket and status, pages it, and counts in the headers', async () => {
      const waiting = await http()
        .get(WAITLIST)
        .query({ ticket_id: ticket.id, status: 'waiting', per_page: 1 })
        .set('Authorization', authorA.authorization)
        .expect(200);
      expect(waiting.headers['x-et-total']).toBe('2');
      expect(waiting.headers['x-et-total-pages']).toBe('2');
      expect(waiting.body.entries).toEqual([
        expect.objectContaining({
          id: entryId,
          ticket_id: ticket.id,
          post_id: ticket.eventId,
          status: 'waiting',
          position: 1,
          offer_token: null,
        }),
      ]);
      const none = await http()
        .get(WAITLIST)
        .query({ ticket_id: ticket.id, status: 'purchased' })
        .set('Authorization', ADMIN_AUTH)
        .expect(200);
      expect(none.body).toEqual({ total: 0, total_pages: 0, entries: [] });
      const bad = await http().get(WAITLIST).query({ status: 'lost' }).set('Authorization', ADMIN_AUTH).expect(400);
      expect(Object.keys(bad.body.data.params)).toContain('status');
    });

    it('answers anonymous callers 401, buyers 403, another author 403 on their tickets and nothing of theirs in lists', async () => {
      const anonymous = await http().get(WAITLIST).query({ ticket_id: ticket.id }).expect(401);
      expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
      expect((await http().get(`${WAITLIST}/stats`).query({ ticket_id: ticket.id }).expect(401)).body.code).toBe('rest_forbidden');
      await http().post(`${WAITLIST}/offer-next`).send({ ticket_id: ticket.id, quantity: 1 }).expect(401);
      await http().patch(`${WAITLIST}/${entryId}`).send({ priority: 9 }).expect(401);

      await http().get(WAITLIST).set('Authorization', subscriber.authorization).expect(403);

      const other = await http().get(WAITLIST).query({ ticket_id: ticket.id }).set('Authorization', authorB.authorization).expect(403);
      expect(other.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
      await http().get(`${WAITLIST}/stats`).query({ ticket_id: ticket.id }).set('Authorization', authorB.authorization).expect(403);
      await http()
        .post(`${WAITLIST}/offer-next`)
        .set('Authorization', authorB.authorization)
        .send({ ticket_id: ticket.id, quantity: 1 })
        .expect(403);
      const reorder = await http()
        .patch(`${WAITLIST}/${entryId}`)
        .set('Authorization', authorB.authorization)
        .send({ priority: 9 })
        .expect(404);
      expect(reorder.body.code).toBe('waitlist-entry-not-found');
      expect((await entry(entryId)).priority).toBe(0);

      const all = await http().get(WAITLIST).set('Authorization', authorB.authorization).expect(200);
      expect(all.body.entries.filter((row: { ticket_id: number }) => row.ticket_id === ticket.id)).toEqual([]);
      const mine = await http().get(WAITLIST).set('Authorization', authorA.authorization).expect(200);
      expect(mine.body.entries.filter((row: { ticket_id: number }) => row.ticket_id === ticket.id)).toHaveLength(2);
    });

    it('answers 404 for unknown tickets and entries, 400 for a bad priority', async () => {
      expect(
        (await http().get(`${WAITLIST}/stats`).query({ ticket_id: 2_000_000_000 }).set('Authorization', ADMIN_AUTH).expect(404)).body.code,
      ).toBe('ticket-does-not-exist');
      await http().get(`${WAITLIST}/stats`).set('Authorization', ADMIN_AUTH).expect(400);
      await http().patch(`${WAITLIST}/999999999`).set('Authorization', ADMIN_AUTH).send({ priority: 1 }).expect(404);
      const bad = await http().patch(`${WAITLIST}/${entryId}`).set('Authorization', ADMIN_AUTH).send({ priority: 'high' }).expect(400);
      expect(Object.keys(bad.body.data.params)).toContain('priority');
    });
  });

  // ---------------------------------------------------------------- races

  describe('races (meant for MariaDB; one round on SQLite)', () => {
    const ROUNDS = process.env.TEST_DATABASE_URL ? 3 : 1;

    it('never oversells and never loses a unit while releases race offers, expiries, declines and ordinary buyers', async () => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        clock.reset();
        const CAPACITY = 12;
        const ticket = await waitlistTicket({ capacity: CAPACITY, price: '20.00' });
        // Ordinary buyers fill their carts while units are left; they check out during the race.
        const buyers = await Promise.all(
          Array.from({ length: 12 }, () => fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }])),
        );
        // Sold out by 6 pending orders of 2.
        const holders = [];
        for (let index = 0; index < 6; index += 1) holders.push(await buy(ticket, 2));
        const joined = [];
        for (let index = 0; index < 10; index += 1) {
          joined.push(
            (await join(ticket.id, unique(`r${round}w${index}`), 1 + (index % 3)).expect(201)).body as { id: number; cancel_token: string },
          );
        }

        // Race 1: every hold released at once (cancels), ordinary checkouts, manual offers and sweeps.
        const [cancels, checkouts, manual] = await Promise.all([
          Promise.all(
            holders.map(({ buyer, order }) => identify(http().post(`${ORDERS_PATH}/${order.id}/cancel`), buyer).then((r) => r.status)),
          ),
          Promise.all(buyers.map((buyer) => checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }).then((r) => r.status))),
          Promise.all(
            Array.from({ length: 3 }, () =>
              http()
                .post(`${WAITLIST}/offer-next`)
                .set('Authorization', ADMIN_AUTH)
                .send({ ticket_id: ticket.id, quantity: 2 })
                .then((r) => r.status),
            ),
          ),
          sweeper().topUp(),
        ]);
        expect(cancels.every((status) => status === 200)).toBe(true);
        expect(manual.every((status) => status === 200)).toBe(true);
        // Every released unit went straight to the waitlist (19 units wanted): none was ever free to an ordinary buyer.
        expect(checkouts.filter((status) => status === 409)).toHaveLength(checkouts.length);
        expect((await expectCountsMatchRows(ticket.id)).offered).toBe(CAPACITY);
        await expectCountsMatchRows(ticket.id);

        // Race 2: offered entries redeem, decline (some both at once) while a sweep runs.
        const offered = await entries().find({ where: { ticketId: ticket.id, status: 'offered' } });
        const joinedById = new Map(joined.map((row) => [row.id, row]));
        const race2: Array<Promise<number>> = [];
        offered.forEach((offer, index) => {
          const decline = () =>
            http()
              .delete(`${WAITLIST}/${joinedById.get(offer.id)!.cancel_token}`)
              .then((r) => r.status);
          const redeem = async () => {
            const cart = await http()
              .post(CART_PATH)
              .send({
                provider: 'tc',
                tickets: [{ ticket_id: ticket.id, quantity: offer.offerQuantity }],
                waitlist_offer: offer.offerToken,
              });
            if (cart.status !== 200) return cart.status;
            const identity = { token: cart.headers['x-cart-token'] };
            return (await checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER })).status;
          };
          if (index % 3 === 0) race2.push(decline());
          else if (index % 3 === 1) race2.push(redeem());
          else race2.push(decline(), redeem());
        });
        race2.push(
          sweeper()
            .topUp()
            .then(() => 200),
        );
        for (const status of await Promise.all(race2)) expect([200, 201, 409]).toContain(status);
        await expectCountsMatchRows(ticket.id);

        // Race 3: every offer and hold lapses; sweeps on "several instances" at once pass units on until quiet.
        for (let pass = 0; pass < 12; pass += 1) {
          clock.advanceMinutes(13 * HOUR);
          await Promise.all([
            sweeper().sweepExpiredOffers(),
            sweeper().sweepExpiredOffers(),
            testApp.app.get(OrderExpiryService).sweepExpiredOrders(),
            testApp.app.get(OrderExpiryService).sweepExpiredOrders(),
          ]);
          await expectCountsMatchRows(ticket.id);
          if ((await entries().countBy({ ticketId: ticket.id, status: In(['waiting', 'offered']) })) === 0) break;
        }
        // Nothing lost: with nobody left waiting and no hold left, every unit is sold or for sale.
        const after = await expectCountsMatchRows(ticket.id);
        expect(after.offered + after.pending).toBe(0);
        expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 0, available: CAPACITY });
        const statuses = (await entries().find({ where: { ticketId: ticket.id } })).map((row) => row.status);
        expect(statuses.every((status) => ['purchased', 'expired', 'cancelled'].includes(status))).toBe(true);
      }
    });

    it('shares released units between ordinary buyers and manual offers without losing or doubling one (automatic offers off)', async () => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const CAPACITY = 10;
        const ticket = await waitlistTicket({ capacity: CAPACITY, price: '0.00', autoOffer: false });
        const buyers = await Promise.all(
          Array.from({ length: 10 }, () => fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 1 }])),
        );
        const orders = [];
        for (let index = 0; index < 5; index += 1) orders.push((await buy(ticket, 2)).order);
        for (let index = 0; index < 6; index += 1) await join(ticket.id, unique(`m${round}w${index}`), 2).expect(201);

        const [cancels, checkouts, manual] = await Promise.all([
          Promise.all(
            orders.map((order) =>
              http()
                .post(`${ORDERS_PATH}/${order.id}/cancel`)
                .set('Authorization', ADMIN_AUTH)
                .then((r) => r.status),
            ),
          ),
          Promise.all(buyers.map((buyer) => checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }).then((r) => r.status))),
          Promise.all(
            Array.from({ length: 4 }, () =>
              http()
                .post(`${WAITLIST}/offer-next`)
                .set('Authorization', ADMIN_AUTH)
                .send({ ticket_id: ticket.id, quantity: 3 })
                .then((r) => (r.status === 200 ? (r.body as { offers: Array<{ offer_quantity: number }> }).offers : [])),
            ),
          ),
        ]);
        expect(cancels.every((status) => status === 200)).toBe(true);
        for (const status of checkouts) expect([201, 409]).toContain(status);
        const bought = checkouts.filter((status) => status === 201).length;
        const offeredByManagers = manual.flat().reduce((sum, offer) => sum + offer.offer_quantity, 0);
        const after = await expectCountsMatchRows(ticket.id);
        // Every released unit is sold, offered or for sale; none twice.
        expect(after.sold).toBe(bought);
        expect(after.offered).toBe(offeredByManagers);
        expect(after.sold + after.offered + (await counts(ticket.id)).available).toBe(CAPACITY);
      }
    });

    it('expires an offer and redeems it at most once when a checkout and two sweeps meet', async () => {
      const ticket = await waitlistTicket({ capacity: 1, price: '0.00' });
      const sold = await buy(ticket, 1);
      const ada = (await join(ticket.id, unique('ada')).expect(201)).body as { id: number };
      await http().post(`${ORDERS_PATH}/${sold.order.id}/cancel`).set('Authorization', ADMIN_AUTH).expect(200);
      const offer = await entry(ada.id);
      const cart = await http()
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }], waitlist_offer: offer.offerToken })
        .expect(200);
      const identity = { token: cart.headers['x-cart-token'] };
      // The offer lapses right as Ada checks out.
      clock.set(offer.offerExpiresAt!);
      const offers = testApp.app.get(WaitlistOffersService);
      const [checkedOut, expiredA, expiredB] = await Promise.all([
        checkout(testApp, identity, { provider: 'tc', purchaser: PURCHASER }).then((r) => r.status),
        testApp.app.get(TransactionHost).run(() => offers.expireOffer(ada.id, clock.now())),
        testApp.app.get(TransactionHost).run(() => offers.expireOffer(ada.id, clock.now())),
      ]);
      expect(checkedOut).toBe(409);
      expect([expiredA, expiredB].filter(Boolean)).toHaveLength(1);
      expect(await counts(ticket.id)).toEqual({ sold: 0, pending: 0, available: 1 });
      await expectCountsMatchRows(ticket.id);
    });
  });
});
