import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { CLOCK } from '../src/common/clock';
import { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { BuyerIdentity, CART_PATH, checkout, fillCart, identify, PURCHASER } from './helpers/buyers';
import { noncesOf, TicketNonces } from './helpers/ticket-fixtures';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, TestClock } from './helpers/ticketing-fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const TICKETS = '/cal/tickets/v1/tickets';
const ATTENDEES = '/cal/tickets/v1/attendees';

const FIELDS = [
  { type: 'text', label: 'Company' },
  { type: 'email', label: 'Work email', slug: 'email', required: true },
  { type: 'select', label: 'T-shirt size', slug: 'size', required: 'yes', options: ['S', 'M', 'L'], description: 'Unisex cut' },
  { type: 'checkbox', label: 'Days', options: ['fri', 'sat'] },
  { type: 'number', label: 'Age' },
  { type: 'birth_date', label: 'Birthday' },
];

jest.setTimeout(300_000);

describe('Attendee questions (e2e)', () => {
  let testApp: TestApp;
  const clock = new TestClock();
  let author: TestUser;
  let otherAuthor: TestUser;
  let editor: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let nonces: TicketNonces;
  let event: Event;
  let asking: Record<string, any>;
  let plain: Ticket;

  const http = () => request(testApp.server);

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    author = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    editor = await createUser(testApp, 'editor');
    buyer = await createUser(testApp, 'subscriber');
    stranger = await createUser(testApp, 'subscriber');
    nonces = await noncesOf(testApp, author);
    event = await insertEvent(testApp.dataSource, { authorId: author.id });
    await testApp.dataSource.getRepository(Event).update({ id: event.id }, { showAttendeeList: true });
    const created = await http()
      .post(TICKETS)
      .set('Authorization', author.authorization)
      .send({
        post_id: event.id,
        provider: 'tc',
        add_ticket_nonce: nonces.add_ticket_nonce,
        name: 'Conference pass',
        price: '0',
        ticket: { mode: 'own', capacity: 50 },
        attendee_information_fields: FIELDS,
      })
      .expect(201);
    asking = created.body as Record<string, any>;
    plain = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 50 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  beforeEach(() => clock.reset());

  describe('questions on tickets', () => {
    it('stores the fields in order and shows them with supports/requires, as the original with Event Tickets Plus', async () => {
      expect(asking.supports_attendee_information).toBe(true);
      expect(asking.requires_attendee_information).toBe(true);
      expect(asking.attendee_information_fields).toEqual([
        { type: 'text', label: 'Company', slug: 'company', required: false, options: [], description: '' },
        { type: 'email', label: 'Work email', slug: 'email', required: true, options: [], description: '' },
        { type: 'select', label: 'T-shirt size', slug: 'size', required: true, options: ['S', 'M', 'L'], description: 'Unisex cut' },
        { type: 'checkbox', label: 'Days', slug: 'days', required: false, options: ['fri', 'sat'], description: '' },
        { type: 'number', label: 'Age', slug: 'age', required: false, options: [], description: '' },
        { type: 'birth_date', label: 'Birthday', slug: 'birthday', required: false, options: [], description: '' },
      ]);
      const publicRead = await http().get(`${TICKETS}/${asking.id}`).expect(200);
      expect(publicRead.body.attendee_information_fields).toEqual(asking.attendee_information_fields);
      const other = await http().get(`${TICKETS}/${plain.id}`).expect(200);
      // A ticket without questions keeps the recorded shape of the original without the add-on.
      expect(other.body.supports_attendee_information).toBe(false);
      expect(other.body).not.toHaveProperty('attendee_information_fields');
    });

    it('changes and clears them through the update route, nonce rules unchanged', async () => {
      const draft = await http()
        .post(TICKETS)
        .set('Authorization', author.authorization)
        .send({
          post_id: event.id,
          provider: 'rsvp',
          add_ticket_nonce: nonces.add_ticket_nonce,
          name: 'Workshop',
          ticket: { mode: 'own', capacity: 5 },
          attendee_information_fields: JSON.stringify([{ type: 'url', label: 'Portfolio' }]),
        })
        .expect(201);
      expect(draft.body).toMatchObject({
        supports_attendee_information: true,
        requires_attendee_information: false,
        attendee_information_fields: [expect.objectContaining({ slug: 'portfolio' })],
      });
      const noNonce = await http()
        .patch(`${TICKETS}/${draft.body.id}`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, attendee_information_fields: [] })
        .expect(400);
      expect(noNonce.body.code).toBe('rest_missing_callback_param');
      const foreign = await http()
        .patch(`${TICKETS}/${draft.body.id}`)
        .set('Authorization', otherAuthor.authorization)
        .send({
          post_id: event.id,
          edit_ticket_nonce: (await noncesOf(testApp, otherAuthor)).edit_ticket_nonce,
          attendee_information_fields: [],
        })
        .expect(403);
      expect(foreign.body.data.status).toBe(403);
      const changed = await http()
        .patch(`${TICKETS}/${draft.body.id}`)
        .set('Authorization', author.authorization)
        .send({
          post_id: event.id,
          edit_ticket_nonce: nonces.edit_ticket_nonce,
          attendee_information_fields: [{ type: 'radio', label: 'Level', options: ['new', 'pro'], required: true }],
        })
        .expect(200);
      expect(changed.body).toMatchObject({
        requires_attendee_information: true,
        attendee_information_fields: [expect.objectContaining({ slug: 'level', type: 'radio' })],
      });
      const kept = await http()
        .patch(`${TICKETS}/${draft.body.id}`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, edit_ticket_nonce: nonces.edit_ticket_nonce, name: 'Workshop B' })
        .expect(200);
      expect(kept.body.attendee_information_fields).toHaveLength(1);
      const cleared = await http()
        .patch(`${TICKETS}/${draft.body.id}`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, edit_ticket_nonce: nonces.edit_ticket_nonce, attendee_information_fields: '' })
        .expect(200);
      expect(cleared.body.supports_attendee_information).toBe(false);
      expect(cleared.body).not.toHaveProperty('attendee_information_fields');
      expect((await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: draft.body.id })).attendeeInformationFields).toBeNull();
      await http()
        .delete(`${TICKETS}/${draft.body.id}`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, remove_ticket_nonce: nonces.remove_ticket_nonce })
        .expect(200);
    });

    it('refuses bad definitions with 400 naming the place, storing nothing', async () => {
      const before = await testApp.dataSource.getRepository(Ticket).count();
      const response = await http()
        .post(TICKETS)
        .set('Authorization', author.authorization)
        .send({
          post_id: event.id,
          provider: 'tc',
          add_ticket_nonce: nonces.add_ticket_nonce,
          name: 'Broken',
          price: '5',
          ticket: { mode: 'own', capacity: 5 },
          attendee_information_fields: [
            { type: 'colour', label: 'Colour' },
            { type: 'select', label: 'Size' },
          ],
        })
        .expect(400);
      expect(response.body).toEqual({
        code: 'rest_invalid_param',
        message: expect.any(String),
        data: {
          status: 400,
          params: {
            'attendee_information_fields[0][type]': expect.stringContaining('type must be one of text, textarea'),
            'attendee_information_fields[1][options]': 'a select field needs options',
          },
        },
      });
      await http()
        .post(TICKETS)
        .set('Authorization', author.authorization)
        .send({
          post_id: event.id,
          provider: 'tc',
          add_ticket_nonce: nonces.add_ticket_nonce,
          name: 'Broken',
          ticket: { mode: 'own', capacity: 5 },
          attendee_information_fields: 7,
        })
        .expect(400);
      expect(await testApp.dataSource.getRepository(Ticket).count()).toBe(before);
    });
  });

  describe('answers in the cart and at checkout', () => {
    const answers = (overrides: Record<string, unknown> = {}) => ({ email: 'ada@example.org', size: 'M', ...overrides });

    it('refuses a cart write with a missing or mistyped answer, naming ticket, attendee and field, and stores nothing', async () => {
      const cart = await fillCart(testApp, {}, 'tc', [{ ticket_id: plain.id, quantity: 1 }]);
      const response = await identify(http().post(CART_PATH), cart)
        .send({
          provider: 'tc',
          tickets: [{ ticket_id: asking.id, quantity: 2 }],
          meta: [{ ticket_id: asking.id, items: [answers(), { size: 'XXL', age: 'old', days: ['sun'] }] }],
        })
        .expect(400);
      expect(response.body).toEqual({
        code: 'rest_invalid_param',
        message: expect.stringContaining(`attendee_information[${asking.id}][1][email]`),
        data: {
          status: 400,
          params: {
            [`attendee_information[${asking.id}][1][email]`]: 'Work email is required',
            [`attendee_information[${asking.id}][1][size]`]: 'T-shirt size must be one of S, M, L',
            [`attendee_information[${asking.id}][1][days]`]: 'Days must be a list of fri, sat',
            [`attendee_information[${asking.id}][1][age]`]: 'Age must be a number',
          },
          attendee_information: [
            { ticket_id: asking.id, attendee: 1, field: 'email', reason: 'Work email is required' },
            { ticket_id: asking.id, attendee: 1, field: 'size', reason: 'T-shirt size must be one of S, M, L' },
            { ticket_id: asking.id, attendee: 1, field: 'days', reason: 'Days must be a list of fri, sat' },
            { ticket_id: asking.id, attendee: 1, field: 'age', reason: 'Age must be a number' },
          ],
        },
      });
      const stored = await identify(http().get(CART_PATH), cart).expect(200);
      expect(stored.body.tickets.map((line: { ticket_id: number }) => line.ticket_id)).toEqual([plain.id]);
      expect(stored.body.meta).toEqual([]);
    });

    it('stores normalised answers of a valid cart write', async () => {
      const response = await http()
        .post(CART_PATH)
        .send({
          provider: 'tc',
          tickets: [{ ticket_id: asking.id, quantity: 1 }],
          meta: [{ ticket_id: asking.id, items: [answers({ age: '41', days: 'sat', unknown: 'dropped', company: '  ACME ' })] }],
        })
        .expect(200);
      expect(response.body.meta).toEqual([
        { ticket_id: asking.id, provider: 'tc', items: [{ company: 'ACME', email: 'ada@example.org', size: 'M', days: ['sat'], age: 41 }] },
      ]);
    });

    it('refuses a checkout where a unit lacks its answers, placing nothing, then takes the answers from the body', async () => {
      let cart: BuyerIdentity = { authorization: buyer.authorization };
      cart = await fillCart(testApp, cart, 'tc', [{ ticket_id: asking.id, quantity: 2 }], [{ ticket_id: asking.id, items: [answers()] }]);
      const orders = await testApp.dataSource.getRepository(Order).count();
      const refused = await checkout(testApp, cart, { provider: 'tc', purchaser: PURCHASER }).expect(400);
      expect(refused.body.data.params).toEqual({
        [`attendee_information[${asking.id}][1][email]`]: 'Work email is required',
        [`attendee_information[${asking.id}][1][size]`]: 'T-shirt size is required',
      });
      const wrong = await checkout(testApp, cart, {
        provider: 'tc',
        purchaser: PURCHASER,
        attendees: [
          { ticket_id: asking.id, name: 'Ada', email: 'ada@example.org' },
          { ticket_id: asking.id, name: 'Grace', email: 'grace@example.org', meta: { email: 'nope', size: 'S' } },
        ],
      }).expect(400);
      expect(wrong.body.data.params).toEqual({ [`attendee_information[${asking.id}][1][email]`]: 'Work email must be an email address' });
      expect(await testApp.dataSource.getRepository(Order).count()).toBe(orders);

      const placed = await checkout(testApp, cart, {
        provider: 'tc',
        purchaser: PURCHASER,
        attendees: [
          { ticket_id: asking.id, name: 'Ada', email: 'ada@example.org' },
          { ticket_id: asking.id, name: 'Grace', email: 'grace@example.org', meta: { email: 'grace@example.org', size: 'S' } },
        ],
      }).expect(201);
      const attendees = placed.body.attendees as Array<Record<string, any>>;
      expect(attendees.map((attendee) => attendee.information)).toEqual([
        { email: 'ada@example.org', size: 'M' },
        { email: 'grace@example.org', size: 'S' },
      ]);
      const stored = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendees[1].id });
      expect(JSON.parse(stored.meta as string)).toEqual({ email: 'grace@example.org', size: 'S' });
    });
  });

  describe('who sees and edits the answers', () => {
    let attendeeId: number;
    let guestAttendeeId: number;
    let guest: BuyerIdentity;

    beforeAll(async () => {
      const cart = await fillCart(
        testApp,
        { authorization: buyer.authorization },
        'tc',
        [{ ticket_id: asking.id, quantity: 1 }],
        [{ ticket_id: asking.id, items: [{ email: 'buyer@example.org', size: 'L' }] }],
      );
      const placed = await checkout(testApp, cart, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      attendeeId = placed.body.attendees[0].id as number;
      guest = await fillCart(
        testApp,
        {},
        'tc',
        [{ ticket_id: asking.id, quantity: 1 }],
        [{ ticket_id: asking.id, items: [{ email: 'guest@example.org', size: 'S' }] }],
      );
      const guestOrder = await checkout(testApp, guest, { provider: 'tc', purchaser: PURCHASER }).expect(201);
      guestAttendeeId = guestOrder.body.attendees[0].id as number;
    });

    it('shows answers to the managers and never to the public', async () => {
      const managed = await http().get(`${ATTENDEES}/${attendeeId}`).set('Authorization', author.authorization).expect(200);
      expect(managed.body.information).toEqual({ email: 'buyer@example.org', size: 'L' });
      const publicRead = await http().get(`${ATTENDEES}/${attendeeId}`).expect(200);
      expect(publicRead.body).not.toHaveProperty('information');
      const publicList = await http().get(`${ATTENDEES}?post_id=${event.id}`).expect(200);
      expect(publicList.body.attendees.length).toBeGreaterThan(0);
      for (const attendee of publicList.body.attendees) expect(attendee).not.toHaveProperty('information');
      const other = await http().get(`${ATTENDEES}/${attendeeId}`).set('Authorization', otherAuthor.authorization).expect(200);
      expect(other.body).not.toHaveProperty('information');
    });

    it('filters tickets and attendees by whether the ticket asks questions', async () => {
      const tickets = await http().get(`${TICKETS}?include_post=${event.id}&attendee_information_available=true`).expect(200);
      expect((tickets.body.tickets as Array<{ id: number }>).map((ticket) => ticket.id)).toEqual([asking.id]);
      const without = await http().get(`${TICKETS}?include_post=${event.id}&attendee_information_available=false`).expect(200);
      expect((without.body.tickets as Array<{ id: number }>).map((ticket) => ticket.id)).toEqual([plain.id]);
      const asked = await http()
        .get(`${ATTENDEES}?attendee_information_available=true&per_page=100`)
        .set('Authorization', editor.authorization)
        .expect(200);
      expect((asked.body.attendees as Array<{ ticket_id: number }>).every((attendee) => attendee.ticket_id === asking.id)).toBe(true);
      expect(asked.body.total).toBeGreaterThanOrEqual(2);
      const notAsked = await http()
        .get(`${ATTENDEES}?attendee_information_available=false&per_page=100`)
        .set('Authorization', editor.authorization)
        .expect(200);
      expect((notAsked.body.attendees as Array<{ ticket_id: number }>).some((attendee) => attendee.ticket_id === asking.id)).toBe(false);
    });

    it('lets the buyer replace the answers before the cutoff, checked as at checkout', async () => {
      const path = `${ATTENDEES}/${attendeeId}/information`;
      const bad = await http()
        .patch(path)
        .set('Authorization', buyer.authorization)
        .send({ information: { email: 'x', size: 'M' } })
        .expect(400);
      expect(bad.body.data.params).toEqual({ [`attendee_information[${asking.id}][0][email]`]: 'Work email must be an email address' });
      const notObject = await http().put(path).set('Authorization', buyer.authorization).send({ information: 'x' }).expect(400);
      expect(notObject.body.data.params).toEqual({ information: 'information must be an object of answers by field slug' });
      const response = await http()
        .put(path)
        .set('Authorization', buyer.authorization)
        .send({ information: { email: 'new@example.org', size: 'S', company: 'Initech' } })
        .expect(200);
      expect(response.body).toMatchObject({ id: attendeeId, information: { email: 'new@example.org', size: 'S', company: 'Initech' } });
      const stored = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendeeId });
      expect(JSON.parse(stored.meta as string)).toEqual({ company: 'Initech', email: 'new@example.org', size: 'S' });

      const guestEdit = await identify(http().patch(`${ATTENDEES}/${guestAttendeeId}/information`), guest)
        .send({ information: { email: 'guest2@example.org', size: 'M' } })
        .expect(200);
      expect(guestEdit.body.information).toEqual({ email: 'guest2@example.org', size: 'M' });
    });

    it('refuses strangers, anonymous callers and unknown attendees', async () => {
      const path = `${ATTENDEES}/${attendeeId}/information`;
      const body = { information: { email: 'evil@example.org', size: 'S' } };
      const strangerResponse = await http().patch(path).set('Authorization', stranger.authorization).send(body).expect(403);
      expect(strangerResponse.body).toMatchObject({ code: 'attendee-edit-forbidden', data: { status: 403 } });
      await http().patch(path).set('Authorization', otherAuthor.authorization).send(body).expect(403);
      const anonymous = await http().patch(path).send(body).expect(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      // Another buyer's cart token is no key to this order.
      await identify(http().patch(`${ATTENDEES}/${attendeeId}/information`), guest)
        .send(body)
        .expect(401);
      const unknown = await http()
        .patch(`${ATTENDEES}/999999/information`)
        .set('Authorization', buyer.authorization)
        .send(body)
        .expect(404);
      expect(unknown.body.code).toBe('attendee-not-found');
      const stored = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendeeId });
      expect(stored.meta).not.toContain('evil');
    });

    it('closes buyer edits ATTENDEE_EDIT_CUTOFF_HOURS (24) before the event; managers may still edit', async () => {
      clock.set(new Date(event.startUtc.getTime() - 23 * 3_600_000));
      const path = `${ATTENDEES}/${attendeeId}/information`;
      const closed = await http()
        .patch(path)
        .set('Authorization', buyer.authorization)
        .send({ information: { email: 'late@example.org', size: 'S' } })
        .expect(409);
      expect(closed.body).toEqual({
        code: 'attendee-edit-closed',
        message: expect.stringContaining('2030-05-31 18:00:00'),
        data: { status: 409, closed_at: '2030-05-31 18:00:00' },
      });
      const managed = await http()
        .patch(path)
        .set('Authorization', author.authorization)
        .send({ information: { email: 'fixed@example.org', size: 'M' } })
        .expect(200);
      expect(managed.body.information).toEqual({ email: 'fixed@example.org', size: 'M' });
      clock.set(new Date(event.startUtc.getTime() - 25 * 3_600_000));
      await http()
        .patch(path)
        .set('Authorization', buyer.authorization)
        .send({ information: { email: 'ontime@example.org', size: 'S' } })
        .expect(200);
    });
  });
});
