import { randomBytes } from 'node:crypto';
import { Attendee } from '../../src/attendees/attendee.entity';
import { Order } from '../../src/orders/order.entity';
import type { Event } from '../../src/events/event.entity';
import type { Ticket } from '../../src/tickets/ticket.entity';
import { createTestApp, TestApp } from '../helpers/test-app';
import { Caller, EVENTS_NS, Principal, TICKETS_NS, World } from './world';

/**
 * Excessive exposure: what each caller gets back about attendees, tickets and orders. Attendee
 * email, order, payment, security code and check-in, and the ticket fields for those who run the
 * event, reach only the event's managers (its author, editors, administrators) and the attendee's
 * buyer — in every response that embeds them, lists included — and no filter answers questions
 * about them for anyone else.
 */

/** The attendee object as anyone may see it. */
const PUBLIC_ATTENDEE_KEYS = [
  'id',
  'post_id',
  'ticket_id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'rest_url',
  'ticket',
  'title',
  'optout',
];
/** What the event's managers and the buyer see besides. */
const PRIVATE_ATTENDEE_KEYS = [
  'provider',
  'order',
  'sku',
  'email',
  'checked_in',
  'checkin_details',
  'is_subscribed',
  'is_purchaser',
  'security_code',
  'rsvp_going',
  'payment',
];

const PUBLIC_TICKET_KEYS = [
  'description',
  'capacity',
  'on_sale',
  'iac',
  'price_suffix',
  'post_id',
  'provider',
  'id',
  'type',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'title',
  'image',
  'available_from',
  'available_from_details',
  'available_until',
  'available_until_details',
  'capacity_details',
  'is_available',
  'cost',
  'cost_details',
  'sale_price_data',
  'supports_attendee_information',
  'attendees',
  'rest_url',
];
/** Ticket fields for the event's managers only: sales counts, check-in report, editing fields. */
const MANAGER_TICKET_KEYS = [
  'rsvp',
  'checkin',
  'fees',
  'capacity_type',
  'sku',
  'available_from_start_time',
  'available_from_end_time',
  'totals',
];
const PUBLIC_CAPACITY_KEYS = ['available_percentage', 'available'];

/** A value only some callers may read: an attendee's email or security code, a hidden name, a purchaser's email. */
interface Secret {
  value: string;
  what: string;
  /** Events whose managers may read it. */
  eventIds: number[];
  /** The order whose buyer may read it. */
  orderId: number;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every object in a JSON document, depth first. */
function objectsIn(value: unknown, found: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(value)) value.forEach((item) => objectsIn(item, found));
  else if (isObject(value)) {
    found.push(value);
    Object.values(value).forEach((item) => objectsIn(item, found));
  }
  return found;
}

describe('Excessive exposure (e2e)', () => {
  let testApp: TestApp;
  let world: World;
  let eventA: Event;
  let eventB: Event;
  let ticketA: Ticket;
  let rsvpA: Ticket;
  let ticketB: Ticket;
  let attendees: Attendee[];
  /** Buyer A's order spanning author A's and author B's events; and an anonymous buyer's. */
  let sharedOrder: Order;
  let guestOrder: Order;
  let guest: Caller;
  const secrets: Secret[] = [];

  const canary = (label: string) => `canary-${label}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    testApp = await createTestApp();
    world = await World.create(testApp);
    eventA = await world.event('author', { showAttendeeList: true });
    eventB = await world.event('authorB', { showAttendeeList: true });
    ticketA = await world.ticket(eventA);
    rsvpA = await world.ticket(eventA, { provider: 'rsvp' });
    ticketB = await world.ticket(eventB);

    const rows: Attendee[] = [
      await world.attendee(ticketA, { email: `${canary('public')}@example.org` }),
      await world.attendee(ticketA, { email: `${canary('checked-in')}@example.org`, checkedIn: true }),
      await world.attendee(ticketA, { email: `${canary('optout')}@example.org`, optout: true, name: canary('optout-name') }),
      await world.attendee(ticketA, { email: `${canary('pending')}@example.org`, orderStatus: 'pending', name: canary('pending-name') }),
      await world.attendee(rsvpA, { email: `${canary('rsvp')}@example.org` }),
      await world.attendee(ticketB, { email: `${canary('event-b')}@example.org` }),
    ];

    // One order for tickets of both events, and an anonymous buyer's order, through the real checkout.
    const buyer = world.caller('subscriber');
    const cart = await world.send(
      'POST',
      {
        path: `${TICKETS_NS}/cart`,
        body: {
          provider: 'tc',
          tickets: [
            { ticket_id: ticketA.id, quantity: 1 },
            { ticket_id: ticketB.id, quantity: 1 },
          ],
        },
      },
      buyer,
    );
    expect(cart.status).toBe(200);
    const checkout = await world.send(
      'POST',
      {
        path: `${TICKETS_NS}/cart/checkout`,
        body: {
          provider: 'tc',
          purchaser: { name: 'Shared Buyer', email: `${canary('purchaser')}@example.org` },
          attendees: [
            { ticket_id: ticketA.id, name: 'Holder on A', email: `${canary('order-a')}@example.org` },
            { ticket_id: ticketB.id, name: 'Holder on B', email: `${canary('order-b')}@example.org` },
          ],
        },
      },
      buyer,
    );
    expect(checkout.status).toBe(201);
    const completed = await world.send(
      'POST',
      { path: `${TICKETS_NS}/orders/${checkout.body.id}/complete` },
      world.caller('administrator'),
    );
    expect(completed.status).toBe(200);
    guest = await world.fillCart({ principal: 'anonymous' }, ticketA);
    const guestCheckout = await world.send(
      'POST',
      {
        path: `${TICKETS_NS}/cart/checkout`,
        body: { provider: 'tc', purchaser: { name: 'Guest Buyer', email: `${canary('guest')}@example.org` } },
      },
      guest,
    );
    expect(guestCheckout.status).toBe(201);

    const orders = world.dataSource.getRepository(Order);
    sharedOrder = await orders.findOneByOrFail({ id: checkout.body.id as number });
    guestOrder = await orders.findOneByOrFail({ id: guestCheckout.body.id as number });
    attendees = [
      ...rows,
      ...(await world.dataSource.getRepository(Attendee).findBy({ orderId: sharedOrder.id })),
      ...(await world.dataSource.getRepository(Attendee).findBy({ orderId: guestOrder.id })),
    ];
    for (const attendee of attendees) {
      const owner = { eventIds: [attendee.eventId], orderId: attendee.orderId };
      secrets.push({ value: attendee.holderEmail, what: `email of attendee ${attendee.id}`, ...owner });
      secrets.push({ value: attendee.securityCode, what: `security code of attendee ${attendee.id}`, ...owner });
      if (attendee.optout || attendee.orderStatus === 'pending')
        secrets.push({ value: attendee.holderName, what: `name of hidden attendee ${attendee.id}`, ...owner });
    }
    for (const order of [sharedOrder, guestOrder]) {
      const eventIds = [...new Set(attendees.filter((attendee) => attendee.orderId === order.id).map((attendee) => attendee.eventId))];
      secrets.push({ value: order.purchaserEmail, what: `purchaser email of order ${order.id}`, eventIds, orderId: order.id });
    }
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Who may read what: managers of the event (its author, editors, administrators) and the buyer. */
  function managesEvent(principal: Principal, eventId: number): boolean {
    if (principal === 'administrator' || principal === 'editor') return true;
    if (principal === 'author') return eventId === eventA.id;
    if (principal === 'other') return eventId === eventB.id;
    return false;
  }

  function isBuyer(principal: Principal, orderId: number): boolean {
    return (principal === 'subscriber' && orderId === sharedOrder.id) || (principal === 'anonymous' && orderId === guestOrder.id);
  }

  function mayRead(principal: Principal, secret: Secret): boolean {
    return isBuyer(principal, secret.orderId) || secret.eventIds.some((eventId) => managesEvent(principal, eventId));
  }

  /** The caller of a principal: "other" is author B (who runs event B); anonymous carries the guest's cart token. */
  function callerOf(principal: Principal): Caller {
    if (principal === 'other') return { principal, user: world.users.authorB };
    if (principal === 'anonymous') return guest;
    return world.caller(principal);
  }

  /** Everything wrong with what `principal` got: secrets it may not read, and fields beyond its view. */
  function exposures(principal: Principal, body: unknown, text: string): string[] {
    const problems: string[] = [];
    for (const secret of secrets) {
      if (!mayRead(principal, secret) && text.includes(secret.value)) problems.push(`${secret.what} reached ${principal}`);
    }
    for (const object of objectsIn(body)) {
      const url = typeof object.rest_url === 'string' ? object.rest_url : '';
      if (url.includes('/attendees/') && 'ticket_id' in object) {
        const attendee = attendees.find((row) => row.id === object.id);
        const entitled = attendee !== undefined && (managesEvent(principal, attendee.eventId) || isBuyer(principal, attendee.orderId));
        const extra = Object.keys(object).filter((key) => !PUBLIC_ATTENDEE_KEYS.includes(key));
        if (!entitled && extra.length) problems.push(`attendee ${String(object.id)} showed ${extra.join(', ')} to ${principal}`);
      }
      if (url.includes('/tickets/') && 'capacity_details' in object) {
        if (managesEvent(principal, object.post_id as number)) continue;
        const extra = Object.keys(object).filter((key) => !PUBLIC_TICKET_KEYS.includes(key));
        if (extra.length) problems.push(`ticket ${String(object.id)} showed ${extra.join(', ')} to ${principal}`);
        const capacity = Object.keys(object.capacity_details as JsonObject).filter((key) => !PUBLIC_CAPACITY_KEYS.includes(key));
        if (capacity.length) problems.push(`ticket ${String(object.id)} showed capacity_details.${capacity.join(', ')} to ${principal}`);
      }
    }
    return problems;
  }

  /** Every read that embeds attendees or tickets. */
  function reads(): string[] {
    const everyAttendee = attendees.map((attendee) => `${TICKETS_NS}/attendees/${attendee.id}`);
    return [
      `${TICKETS_NS}/attendees?per_page=100&post_status=any&order_status=any`,
      ...everyAttendee,
      `${TICKETS_NS}/tickets?per_page=100&post_status=any&status=any`,
      ...[ticketA, rsvpA, ticketB].map((ticket) => `${TICKETS_NS}/tickets/${ticket.id}`),
      `${TICKETS_NS}/orders?per_page=100`,
      `${TICKETS_NS}/orders/${sharedOrder.id}`,
      `${TICKETS_NS}/orders/${guestOrder.id}`,
      `${TICKETS_NS}/cart`,
      `${EVENTS_NS}/events/${eventA.id}`,
      `${EVENTS_NS}/events?per_page=100`,
    ];
  }

  const OUTSIDERS: Principal[] = ['anonymous', 'contributor', 'subscriber', 'other'];
  const INSIDERS: Principal[] = ['administrator', 'editor', 'author'];

  it.each([...OUTSIDERS, ...INSIDERS])(
    'shows %s only what it may see, in every response that embeds attendees or tickets',
    async (principal) => {
      const problems: string[] = [];
      for (const path of reads()) {
        const response = await world.send('GET', { path }, callerOf(principal));
        expect(response.status).toBeLessThan(500);
        problems.push(...exposures(principal, response.body, response.text).map((problem) => `${path}: ${problem}`));
      }
      expect(problems).toEqual([]);
    },
  );

  it("gives the event's managers and the buyer the private fields (the checks above are not vacuous)", async () => {
    const [publicAttendee] = attendees;
    for (const principal of INSIDERS) {
      const single = await world.send('GET', { path: `${TICKETS_NS}/attendees/${publicAttendee.id}` }, callerOf(principal));
      expect(Object.keys(single.body)).toEqual(expect.arrayContaining(PRIVATE_ATTENDEE_KEYS.filter((key) => key !== 'rsvp_going')));
      expect(single.body.email).toBe(publicAttendee.holderEmail);
      const ticket = await world.send('GET', { path: `${TICKETS_NS}/tickets/${ticketA.id}` }, callerOf(principal));
      expect(Object.keys(ticket.body)).toEqual(expect.arrayContaining(MANAGER_TICKET_KEYS.filter((key) => key !== 'rsvp')));
    }
    const own = await world.send('GET', { path: `${TICKETS_NS}/orders/${sharedOrder.id}` }, callerOf('subscriber'));
    expect((own.body.attendees as JsonObject[]).map((attendee) => attendee.security_code)).toEqual(
      expect.arrayContaining(attendees.filter((attendee) => attendee.orderId === sharedOrder.id).map((attendee) => attendee.securityCode)),
    );
    const anonymousView = await world.send('GET', { path: `${TICKETS_NS}/attendees/${publicAttendee.id}` }, { principal: 'anonymous' });
    expect(Object.keys(anonymousView.body).sort()).toEqual([...PUBLIC_ATTENDEE_KEYS].sort());
  });

  describe('filters on private attendee data answer nothing for those who may not see it', () => {
    const list = (principal: Principal, query: string) =>
      world.send('GET', { path: `${TICKETS_NS}/attendees?per_page=100&${query}` }, callerOf(principal));
    const listedIds = (body: { attendees: Array<{ id: number }> }) => body.attendees.map((attendee) => attendee.id).sort((a, b) => a - b);
    const ofEventA = () => `include_post=${eventA.id}`;

    it.each(OUTSIDERS.filter((principal) => principal !== 'other'))(
      'checkedin: %s cannot tell who has been checked in',
      async (principal) => {
        const checkedIn = await list(principal, `${ofEventA()}&checkedin=true`);
        const notCheckedIn = await list(principal, `${ofEventA()}&checkedin=false`);
        expect(listedIds(checkedIn.body)).toEqual(listedIds(notCheckedIn.body));
      },
    );

    it.each(OUTSIDERS.filter((principal) => principal !== 'other'))(
      'price_min and price_max: %s cannot tell what was paid',
      async (principal) => {
        const dear = await list(principal, `${ofEventA()}&price_min=20`);
        const cheap = await list(principal, `${ofEventA()}&price_max=20`);
        expect(listedIds(dear.body)).toEqual(listedIds(cheap.body));
      },
    );

    it.each(OUTSIDERS.filter((principal) => principal !== 'other'))(
      'search: %s cannot find attendees by email or security code',
      async (principal) => {
        for (const attendee of attendees.filter((row) => row.eventId === eventA.id)) {
          for (const value of [attendee.holderEmail, attendee.securityCode]) {
            if (isBuyer(principal, attendee.orderId)) continue;
            const found = await list(principal, `search=${encodeURIComponent(value)}`);
            expect(listedIds(found.body)).toEqual([]);
          }
        }
      },
    );

    it('still filters for the managers of the event', async () => {
      const checkedIn = await list('author', `${ofEventA()}&checkedin=true`);
      expect(checkedIn.body.attendees.map((attendee: { email: string }) => attendee.email)).toEqual([attendees[1].holderEmail]);
    });
  });
});
