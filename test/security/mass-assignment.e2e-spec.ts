import { ApiToken } from '../../src/auth/api-token.entity';
import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { Attendee } from '../../src/attendees/attendee.entity';
import { CheckinList } from '../../src/checkin/checkin-list.entity';
import { Checkin } from '../../src/checkin/checkin.entity';
import { Device } from '../../src/checkin/device.entity';
import { DevicesService } from '../../src/checkin/devices.service';
import { Cart, CartItem } from '../../src/cart/cart.entity';
import { Category } from '../../src/categories/category.entity';
import { Coupon } from '../../src/coupons/coupon.entity';
import { appConfig, type AppConfig } from '../../src/config/app.config';
import { Event } from '../../src/events/event.entity';
import { ExportJob } from '../../src/exports/export-job.entity';
import { Order } from '../../src/orders/order.entity';
import { OutboxMessage } from '../../src/outbox/outbox-message.entity';
import { Queue, QueueAdmission, QueueEntry } from '../../src/queues/queue.entity';
import { Organizer } from '../../src/organizers/organizer.entity';
import { Tag } from '../../src/tags/tag.entity';
import { Ticket } from '../../src/tickets/ticket.entity';
import { Venue } from '../../src/venues/venue.entity';
import { WaitlistEntry } from '../../src/waitlist/waitlist-entry.entity';
import { WebhookEndpoint } from '../../src/webhooks/webhook-endpoint.entity';
import { WebhookSecretBox } from '../../src/webhooks/webhook-secret-box';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { TEC_ACKNOWLEDGEMENT } from '../../src/tec-v1/experimental-acknowledgement.guard';
import { createTestApp, TestApp } from '../helpers/test-app';
import { setTicketCounts } from '../helpers/ticketing-fixtures';
import { changedTables, snapshot } from './db-snapshot';
import { ROUTE_TABLE, routeKey } from './route-table';
import { Caller, EVENTS_NS, Method, RequestSpec, TICKETS_NS, uniqueName, UserKey, World } from './world';

/**
 * Mass assignment: every write route is sent read-only, computed and privileged fields next to a
 * valid body, and the database must show that they changed nothing they should not — no other
 * table, no other row, no privileged column. Each test names the route it covers; the last test
 * checks that every write route of the authorization matrix has one.
 */

const FOREIGN_ID = 987_654;

/** Fields no client may set on any route: identity, roles, bookkeeping and computed output fields. */
function privilegedFields(world: World): Record<string, unknown> {
  return {
    id: FOREIGN_ID,
    ID: FOREIGN_ID,
    role: 'administrator',
    roles: ['administrator'],
    capabilities: { manage_users: true },
    user_id: world.userId('administrator'),
    global_id: 'attacker.example.org?id=1',
    global_id_lineage: ['attacker'],
    rest_url: 'http://attacker.example.org/',
    url: 'http://attacker.example.org/',
    modified: '1999-01-01 00:00:00',
    modified_utc: '1999-01-01 00:00:00',
    created_at: '1999-01-01 00:00:00',
    updated_at: '1999-01-01 00:00:00',
  };
}

const COVERED = new Set<string>();
function covers(method: Method, path: string): string {
  COVERED.add(`${method} ${path}`);
  return `${method} ${path}`;
}

describe('Mass assignment (e2e)', () => {
  let testApp: TestApp;
  let world: World;

  beforeAll(async () => {
    testApp = await createTestApp();
    world = await World.create(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  /**
   * Sends a write and checks that it changed no table but `mayChange` (the users table never:
   * `role` and friends must not stick anywhere).
   */
  async function write(method: Method, spec: RequestSpec, caller: Caller, mayChange: string[]): Promise<Response> {
    const before = await snapshot(testApp.dataSource);
    const response = await world.send(method, spec, caller);
    const changed = changedTables(before, await snapshot(testApp.dataSource));
    expect({ status: response.status, unexpected: changed.filter((table) => !mayChange.includes(table)) }).toEqual({
      status: response.status,
      unexpected: [],
    });
    return response;
  }

  const as = (key: UserKey): Caller => ({ principal: 'administrator', user: world.users[key] });

  const eventRow = (id: number) => testApp.dataSource.getRepository(Event).findOneByOrFail({ id });

  /** A ticket write moves its event's document version (the cached document shows the tickets), and nothing else of it. */
  async function expectOnlyDocumentVersionMoved(before: Event): Promise<void> {
    const { documentVersion, ...after } = await eventRow(before.id);
    const { documentVersion: versionBefore, ...rest } = before;
    expect(after).toEqual(rest);
    expect(documentVersion).toBeGreaterThan(versionBefore);
  }

  // ---------------------------------------------------------------- events, venues, organizers

  type PostKind = 'events' | 'venues' | 'organizers';
  const ENTITY = { events: Event, venues: Venue, organizers: Organizer } as const;
  const NAME_FIELD = { events: 'title', venues: 'venue', organizers: 'organizer' } as const;
  /** A kind's table and what its writes keep with it (the events list's read model and its day counters). */
  const WRITTEN = { events: ['events', 'event_listings', 'event_listing_days'], venues: ['venues'], organizers: ['organizers'] } as const;

  function makePost(kind: PostKind, owner: UserKey, status: 'publish' | 'draft') {
    if (kind === 'events') return world.event(owner, { status });
    return kind === 'venues' ? world.venue(owner, status) : world.organizer(owner, status);
  }

  const reload = (kind: PostKind, id: number) =>
    testApp.dataSource.getRepository<Event | Venue | Organizer>(ENTITY[kind]).findOneByOrFail({ id });
  const exists = (kind: PostKind, id: number) => testApp.dataSource.getRepository<Event | Venue | Organizer>(ENTITY[kind]).existsBy({ id });

  /** Computed fields of the post responses (dates in UTC, details, links, JSON-LD). */
  const computedPostFields = {
    utc_start_date: '1999-01-01 00:00:00',
    utc_end_date: '1999-01-01 01:00:00',
    start_date_details: { year: '1999' },
    utc_start_date_details: { year: '1999' },
    timezone_abbr: 'XXX',
    cost_details: { values: ['0'] },
    json_ld: { '@type': 'Hack' },
    ticketed: ['tc'],
    count: 500,
  };

  function createBody(kind: PostKind): Record<string, unknown> {
    const name = uniqueName(`Assigned ${kind}`);
    if (kind === 'events') return { title: name, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' };
    return { [NAME_FIELD[kind]]: name };
  }

  describe.each(['events', 'venues', 'organizers'] as const)('%s', (kind) => {
    const base = `${EVENTS_NS}/${kind}`;

    it(covers('POST', base) + ': a contributor cannot set id, author, publish status or computed fields', async () => {
      const refused = await write(
        'POST',
        { path: base, body: { ...createBody(kind), author: world.userId('administrator') } },
        as('contributor'),
        [],
      );
      expect(refused.status).toBe(403);
      if (kind === 'events') {
        // Venues and organizers created inline follow the same rule.
        for (const field of ['venue', 'organizer']) {
          const inline = await write(
            'POST',
            {
              path: base,
              body: { ...createBody(kind), [field]: { [field]: uniqueName('Inline'), author: world.userId('administrator') } },
            },
            as('contributor'),
            [],
          );
          expect(inline.status).toBe(403);
        }
      }

      const body = { ...createBody(kind), ...privilegedFields(world), ...computedPostFields, status: 'publish' };
      const response = await write('POST', { path: base, body }, as('contributor'), [...WRITTEN[kind]]);
      expect(response.status).toBe(201);
      const saved = await reload(kind, response.body.id as number);
      expect(saved.id).not.toBe(FOREIGN_ID);
      expect(await exists(kind, FOREIGN_ID)).toBe(false);
      expect(saved.authorId).toBe(world.userId('contributor'));
      expect(saved.status).toBe('pending');
      expect(saved.updatedAt.getUTCFullYear()).toBeGreaterThan(2000);
      if (kind === 'events') {
        const event = saved as Event;
        expect(event.startUtc.toISOString()).toBe('2027-03-01T10:00:00.000Z');
        expect(event.cost).toBeNull();
        expect(response.body.utc_start_date).toBe('2027-03-01 10:00:00');
      }
    });

    it.each([false, true])(
      `${covers('POST', `${base}/:id`)}, ${covers('PUT', `${base}/:id`)}, ${covers('PATCH', `${base}/:id`)} and by slug (%s): read-only fields change nothing`,
      async (bySlug) => {
        if (bySlug) ['POST', 'PUT', 'PATCH'].forEach((method) => covers(method as Method, `${base}/by-slug/:slug`));
        for (const method of ['POST', 'PUT', 'PATCH'] as const) {
          const draft = await makePost(kind, 'contributor', 'draft');
          const path = `${base}/${bySlug ? `by-slug/${draft.slug}` : draft.id}`;
          const newName = uniqueName('Renamed');

          const refused = await write(
            method,
            { path, body: { [NAME_FIELD[kind]]: newName, author: world.userId('author') } },
            as('contributor'),
            [],
          );
          expect(refused.status).toBe(403);

          const body = { [NAME_FIELD[kind]]: newName, ...privilegedFields(world), ...computedPostFields, status: 'publish' };
          const response = await write(method, { path, body }, as('contributor'), [...WRITTEN[kind]]);
          expect(response.status).toBe(200);
          const saved = await reload(kind, draft.id);
          expect(saved).toMatchObject({ id: draft.id, title: newName, authorId: world.userId('contributor'), status: 'pending' });
          expect(await exists(kind, FOREIGN_ID)).toBe(false);
          if (kind === 'events') expect((saved as Event).startUtc.getTime()).toBe((draft as Event).startUtc.getTime());

          // An author may not hand their published post to someone else either.
          const published = await makePost(kind, 'author', 'publish');
          const handOver = await write(
            method,
            { path: `${base}/${bySlug ? `by-slug/${published.slug}` : published.id}`, body: { author: world.userId('authorB') } },
            as('author'),
            [],
          );
          expect(handOver.status).toBe(403);
          expect((await reload(kind, published.id)).authorId).toBe(world.userId('author'));
        }
      },
    );

    it.each([false, true])(
      `${covers('DELETE', `${base}/:id`)} and ${covers('DELETE', `${base}/by-slug/:slug`)} (by slug: %s): force and status in the body change nothing`,
      async (bySlug) => {
        const post = await makePost(kind, 'author', 'publish');
        const path = `${base}/${bySlug ? `by-slug/${post.slug}` : post.id}`;
        const response = await write(
          'DELETE',
          { path, body: { force: true, status: 'publish', ...privilegedFields(world) } },
          as('editor'),
          [...WRITTEN[kind], 'outbox_messages'],
        );
        expect(response.status).toBe(200);
        expect((await reload(kind, post.id)).status).toBe('trash');
      },
    );
  });

  // ---------------------------------------------------------------- categories, tags

  describe.each(['categories', 'tags'] as const)('%s', (kind) => {
    const base = `${EVENTS_NS}/${kind}`;
    const entity = kind === 'categories' ? Category : Tag;
    // A category's row and its place in the hierarchy's closure (kept by triggers).
    const tables = kind === 'categories' ? ['event_categories', 'event_category_ancestors'] : ['event_tags'];
    const makeTerm = () => (kind === 'categories' ? world.category() : world.tag());
    const computedTermFields = {
      count: 500,
      taxonomy: 'post_tag',
      link: 'http://attacker.example.org/',
      term_taxonomy_id: FOREIGN_ID,
      term_group: 3,
    };

    it(covers('POST', base) + ': id, count and taxonomy are not assignable', async () => {
      const response = await write(
        'POST',
        { path: base, body: { name: uniqueName('Assigned term'), ...privilegedFields(world), ...computedTermFields } },
        as('editor'),
        tables,
      );
      expect(response.status).toBe(201);
      expect(response.body.id).not.toBe(FOREIGN_ID);
      expect(response.body.count).toBe(0);
      expect(await testApp.dataSource.getRepository<Category | Tag>(entity).existsBy({ id: FOREIGN_ID })).toBe(false);
    });

    it.each([false, true])(
      `${covers('POST', `${base}/:id`)}, ${covers('PUT', `${base}/:id`)}, ${covers('PATCH', `${base}/:id`)} and by slug (%s): id and count stay`,
      async (bySlug) => {
        if (bySlug) ['POST', 'PUT', 'PATCH'].forEach((method) => covers(method as Method, `${base}/by-slug/:slug`));
        for (const method of ['POST', 'PUT', 'PATCH'] as const) {
          const term = await makeTerm();
          const description = uniqueName('Described');
          const path = `${base}/${bySlug ? `by-slug/${term.slug}` : term.id}`;
          const response = await write(
            method,
            { path, body: { description, ...privilegedFields(world), ...computedTermFields } },
            as('editor'),
            tables,
          );
          expect(response.status).toBe(200);
          expect(response.body).toMatchObject({ id: term.id, count: 0 });
          expect(await testApp.dataSource.getRepository<Category | Tag>(entity).findOneByOrFail({ id: term.id })).toMatchObject({
            description,
            name: term.name,
          });
        }
      },
    );

    it.each([false, true])(
      `${covers('DELETE', `${base}/:id`)} and ${covers('DELETE', `${base}/by-slug/:slug`)} (by slug: %s): an id in the body deletes nothing else`,
      async (bySlug) => {
        const [term, bystander] = [await makeTerm(), await makeTerm()];
        const path = `${base}/${bySlug ? `by-slug/${term.slug}` : term.id}`;
        const response = await write(
          'DELETE',
          { path, query: { force: true }, body: { id: bystander.id, slug: bystander.slug } },
          as('editor'),
          tables,
        );
        expect(response.status).toBe(200);
        expect(await testApp.dataSource.getRepository<Category | Tag>(entity).existsBy({ id: bystander.id })).toBe(true);
        expect(await testApp.dataSource.getRepository<Category | Tag>(entity).existsBy({ id: term.id })).toBe(false);
      },
    );
  });

  // ---------------------------------------------------------------- tickets

  /** Output fields of the ticket object, which a write must not take as input. */
  const computedTicketFields = {
    sold: 50,
    pending: 7,
    capacity_details: { max: 1, available: 1, sold: 50, pending: 7 },
    totals: { stock: 1, sold: 50, pending: 7 },
    checkin: { checked_in: 9 },
    rsvp: { rsvp_going: 9 },
    capacity_type: 'unlimited',
    capacity: 3,
    is_available: false,
    on_sale: true,
    cost: '$0.00',
    attendees: [{ title: 'Injected', email: 'injected@example.org', security_code: 'injected', checked_in: true }],
    author: 1,
    status: 'draft',
  };

  it(covers('POST', `${TICKETS_NS}/tickets`) + ': counts, attendees, author and status are not assignable', async () => {
    const event = await world.event('author');
    const author = as('author');
    const body = {
      post_id: event.id,
      provider: 'tc',
      name: uniqueName('Assigned ticket'),
      price: '12',
      ticket: { mode: 'own', capacity: 10 },
      add_ticket_nonce: world.nonce('add_ticket_nonce', author),
      ...privilegedFields(world),
      ...computedTicketFields,
    };
    const eventBefore = await eventRow(event.id);
    const response = await write('POST', { path: `${TICKETS_NS}/tickets`, body }, author, [
      'tickets',
      'ticket_capacity_counters',
      'events',
    ]);
    expect(response.status).toBe(201);
    await expectOnlyDocumentVersionMoved(eventBefore);
    const saved = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: response.body.id as number });
    expect(saved).toMatchObject({
      eventId: event.id,
      authorId: world.userId('author'),
      status: 'publish',
      sold: 0,
      pending: 0,
      capacityMode: 'own',
      capacity: 10,
      priceMinor: 1200,
    });
    expect(saved.id).not.toBe(FOREIGN_ID);
    expect(await testApp.dataSource.getRepository(Attendee).countBy({ ticketId: saved.id })).toBe(0);
  });

  it(`${covers('POST', `${TICKETS_NS}/tickets/:id`)}, ${covers('PUT', `${TICKETS_NS}/tickets/:id`)} and ${covers('PATCH', `${TICKETS_NS}/tickets/:id`)}: provider, event, counts and author stay`, async () => {
    const author = as('author');
    const otherEvent = await world.event('author');
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const event = await world.event('author');
      const ticket = await world.ticket(event, { capacity: 40 });
      await setTicketCounts(testApp.dataSource, ticket.id, { sold: 4, pending: 2 });
      const path = `${TICKETS_NS}/tickets/${ticket.id}`;
      const nonce = world.nonce('edit_ticket_nonce', author);

      const moved = await write(method, { path, body: { post_id: otherEvent.id, edit_ticket_nonce: nonce, name: 'Moved' } }, author, []);
      expect(moved.status).toBe(400);

      const name = uniqueName('Renamed ticket');
      const body = {
        post_id: event.id,
        edit_ticket_nonce: nonce,
        name,
        provider: 'rsvp',
        ...privilegedFields(world),
        ...computedTicketFields,
      };
      const response = await write(method, { path, body }, author, ['tickets', 'ticket_capacity_counters']);
      expect(response.status).toBe(200);
      const saved = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticket.id });
      expect(saved).toMatchObject({
        name,
        provider: 'tc',
        eventId: event.id,
        authorId: world.userId('author'),
        status: 'publish',
        sold: 4,
        pending: 2,
        capacityMode: 'own',
        capacity: 40,
      });
      expect(await testApp.dataSource.getRepository(Ticket).existsBy({ id: FOREIGN_ID })).toBe(false);
    }
  });

  it(covers('DELETE', `${TICKETS_NS}/tickets/:id`) + ': an id in the body deletes nothing else', async () => {
    const author = as('author');
    const event = await world.event('author');
    const [ticket, bystander] = [await world.ticket(event), await world.ticket(event)];
    const eventBefore = await eventRow(event.id);
    const response = await write(
      'DELETE',
      {
        path: `${TICKETS_NS}/tickets/${ticket.id}`,
        body: {
          post_id: event.id,
          remove_ticket_nonce: world.nonce('remove_ticket_nonce', author),
          id: bystander.id,
          ticket_id: bystander.id,
        },
      },
      author,
      ['tickets', 'ticket_capacity_counters', 'events'],
    );
    expect(response.status).toBe(200);
    await expectOnlyDocumentVersionMoved(eventBefore);
    expect(await testApp.dataSource.getRepository(Ticket).existsBy({ id: bystander.id })).toBe(true);
  });

  // ---------------------------------------------------------------- check-in

  /** Every attendee field a check-in body might try to set besides `check_in`. */
  function attendeeFields(world: World, other: Attendee): Record<string, unknown> {
    return {
      email: 'rewritten@example.org',
      holder_email: 'rewritten@example.org',
      title: 'Rewritten',
      holder_name: 'Rewritten',
      security_code: other.securityCode,
      order: other.orderId,
      order_id: other.orderId,
      order_status: 'refunded',
      ticket_id: other.ticketId,
      post_id: other.eventId,
      optout: true,
      status: 'trash',
      provider: 'rsvp',
      rsvp_going: false,
      payment: { price: '0' },
      checked_in: false,
      checkin_details: { date: '1999-01-01 00:00:00', source: 'app', author: String(world.userId('authorB')) },
      ...privilegedFields(world),
    };
  }

  /** The columns a check-in may change. */
  const CHECK_IN_COLUMNS = ['checkedIn', 'checkedInAt', 'checkinSource', 'checkinUserId', 'updatedAt'];

  function unchangedBesidesCheckIn(before: Attendee, after: Attendee): void {
    const strip = (attendee: Attendee) => Object.fromEntries(Object.entries(attendee).filter(([key]) => !CHECK_IN_COLUMNS.includes(key)));
    expect(strip(after)).toEqual(strip(before));
  }

  it(`${covers('POST', `${TICKETS_NS}/attendees/:id`)}, ${covers('PUT', `${TICKETS_NS}/attendees/:id`)} and ${covers('PATCH', `${TICKETS_NS}/attendees/:id`)}: only the check-in changes, made by the caller`, async () => {
    const { ticket, bystander } = await checkInFixtures();
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const attendee = await world.attendee(ticket);
      const response = await write(
        method,
        { path: `${TICKETS_NS}/attendees/${attendee.id}`, body: { check_in: true, ...attendeeFields(world, bystander) } },
        as('author'),
        // The check-in is recorded on the event's default check-in list too (src/checkin/).
        ['attendees', 'outbox_messages', 'sales_ledger', 'checkin_lists', 'checkin_positions', 'checkins'],
      );
      expect(response.status).toBe(200);
      const saved = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id });
      expect(saved).toMatchObject({ checkedIn: true, checkinSource: 'site', checkinUserId: world.userId('author') });
      expect(saved.checkedInAt!.getUTCFullYear()).toBeGreaterThan(2000);
      unchangedBesidesCheckIn(attendee, saved);
      expect(await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: bystander.id })).toEqual(bystander);
    }
  });

  it(covers('POST', `${TICKETS_NS}/qr`) + ': the security code only finds the attendee; the rest of the body changes nothing', async () => {
    const { ticket, bystander } = await checkInFixtures();
    const attendee = await world.attendee(ticket);
    const response = await write(
      'POST',
      { path: `${TICKETS_NS}/qr`, body: { ...attendeeFields(world, bystander), security_code: attendee.securityCode, id: bystander.id } },
      as('author'),
      ['attendees', 'outbox_messages', 'sales_ledger', 'checkin_lists', 'checkin_positions', 'checkins'],
    );
    expect(response.status).toBe(200);
    const saved = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id });
    expect(saved).toMatchObject({ checkedIn: true, checkinSource: 'app', checkinUserId: world.userId('author') });
    unchangedBesidesCheckIn(attendee, saved);
    expect(await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: bystander.id })).toEqual(bystander);
  });

  async function checkInFixtures(): Promise<{ ticket: Ticket; bystander: Attendee }> {
    const ticket = await world.ticket(await world.event('author'));
    // Another author's attendee, whose ids the bodies name.
    const bystander = await world.attendee(await world.ticket(await world.event('authorB')));
    return { ticket, bystander };
  }

  // ---------------------------------------------------------------- cart, checkout, orders

  it(`${covers('POST', `${TICKETS_NS}/cart`)}, ${covers('PUT', `${TICKETS_NS}/cart`)} and ${covers('PATCH', `${TICKETS_NS}/cart`)}: writes reach the caller's own cart only and take no capacity`, async () => {
    const ticket = await world.ticket(await world.event('author'));
    const buyer = as('subscriber');
    const otherBuyer = as('subscriberB');
    await world.fillCart(otherBuyer, ticket, 5);
    const otherCart = await testApp.dataSource.getRepository(Cart).findOneByOrFail({ userId: world.userId('subscriberB') });
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const body = {
        provider: 'tc',
        tickets: [{ ticket_id: ticket.id, quantity: 2, price: '0.01', sold: 0, unit_price: '0.01', cart_id: otherCart.id }],
        cart_id: otherCart.id,
        token: otherCart.token,
        user_id: world.userId('subscriberB'),
        ...privilegedFields(world),
        id: otherCart.id,
      };
      const response = await write(method, { path: `${TICKETS_NS}/cart`, body }, buyer, ['carts', 'cart_items']);
      expect(response.status).toBe(200);
      expect(await testApp.dataSource.getRepository(CartItem).findOneByOrFail({ cartId: otherCart.id, ticketId: ticket.id })).toMatchObject(
        { quantity: 5 },
      );
      const ownCart = await testApp.dataSource.getRepository(Cart).findOneByOrFail({ userId: world.userId('subscriber') });
      expect(await testApp.dataSource.getRepository(CartItem).findOneByOrFail({ cartId: ownCart.id, ticketId: ticket.id })).toMatchObject({
        quantity: 2,
      });
      expect(await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticket.id })).toMatchObject({
        sold: 0,
        pending: 0,
        priceMinor: 2500,
      });
    }
  });

  it(
    covers('POST', `${TICKETS_NS}/cart/checkout`) + ': status, total, currency, buyer and attendee check-in or codes are not assignable',
    async () => {
      const ticket = await world.ticket(await world.event('author'), { price: '30.00' });
      // Only this line in the cart: the cart tests above left theirs.
      const cart = await testApp.dataSource.getRepository(Cart).findOneBy({ userId: world.userId('subscriber') });
      if (cart) await testApp.dataSource.getRepository(CartItem).delete({ cartId: cart.id });
      const buyer = await world.fillCart(as('subscriber'), ticket, 1);
      const body = {
        provider: 'tc',
        purchaser: { name: 'Assigned Buyer', email: 'assigned@example.org', user_id: world.userId('subscriberB') },
        attendees: [
          {
            ticket_id: ticket.id,
            name: 'Assigned Holder',
            email: 'holder@example.org',
            checked_in: true,
            check_in: true,
            security_code: 'attacker-chosen-code',
            order_status: 'completed',
            status: 'trash',
            price_paid: '0.00',
          },
        ],
        ...privilegedFields(world),
        status: 'completed',
        order_status: 'completed',
        total: '0.00',
        currency: 'EUR',
        expires: '2099-01-01 00:00:00',
        completed_at: '1999-01-01 00:00:00',
      };
      const response = await write('POST', { path: `${TICKETS_NS}/cart/checkout`, body }, buyer, [
        'orders',
        'order_items',
        'attendees',
        'attendee_tallies',
        'ticket_capacity_counters',
        'cart_items',
        'carts',
        'outbox_messages',
      ]);
      expect(response.status).toBe(201);
      const order = await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: response.body.id as number });
      expect(order).toMatchObject({
        status: 'pending',
        totalMinor: 3000,
        currency: 'USD',
        userId: world.userId('subscriber'),
        completedAt: null,
      });
      expect(order.id).not.toBe(FOREIGN_ID);
      const [attendee] = await testApp.dataSource.getRepository(Attendee).findBy({ orderId: order.id });
      expect(attendee).toMatchObject({
        checkedIn: false,
        checkedInAt: null,
        orderStatus: 'pending',
        status: 'publish',
        pricePaidMinor: 3000,
        userId: world.userId('subscriber'),
      });
      expect(attendee.securityCode).not.toBe('attacker-chosen-code');
      expect(await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticket.id })).toMatchObject({ sold: 0, pending: 1 });
    },
  );

  describe('order transitions', () => {
    async function pendingOrder(): Promise<{ order: Order; bystander: Order }> {
      const ticket = await world.ticket(await world.event('author'), { price: '30.00' });
      const placed = await world.order(as('subscriber'), ticket);
      const other = await world.order(as('subscriberB'), ticket);
      const orders = testApp.dataSource.getRepository(Order);
      return { order: await orders.findOneByOrFail({ id: placed.id }), bystander: await orders.findOneByOrFail({ id: other.id }) };
    }

    const orderBody = (bystander: Order) => ({
      ...privilegedFields(world),
      status: 'refunded',
      total: '0.00',
      currency: 'EUR',
      user_id: world.userId('subscriberB'),
      order_id: bystander.id,
      id: bystander.id,
    });
    const reloadOrder = (id: number) => testApp.dataSource.getRepository(Order).findOneByOrFail({ id });

    it(covers('POST', `${TICKETS_NS}/orders/:id/complete`) + ': the path order completes; the body sets nothing', async () => {
      const { order, bystander } = await pendingOrder();
      const response = await write(
        'POST',
        { path: `${TICKETS_NS}/orders/${order.id}/complete`, body: orderBody(bystander) },
        as('administrator'),
        ['orders', 'attendees', 'ticket_capacity_counters', 'outbox_messages', 'sales_ledger'],
      );
      expect(response.status).toBe(200);
      expect(await reloadOrder(order.id)).toMatchObject({
        status: 'completed',
        totalMinor: 3000,
        currency: 'USD',
        userId: world.userId('subscriber'),
      });
      expect(await reloadOrder(bystander.id)).toMatchObject({ status: 'pending' });
    });

    it(covers('POST', `${TICKETS_NS}/orders/:id/cancel`) + ': a buyer cancels, and cannot choose another status', async () => {
      const { order, bystander } = await pendingOrder();
      const response = await write(
        'POST',
        { path: `${TICKETS_NS}/orders/${order.id}/cancel`, body: { ...orderBody(bystander), status: 'completed' } },
        as('subscriber'),
        ['orders', 'attendees', 'ticket_capacity_counters', 'outbox_messages'],
      );
      expect(response.status).toBe(200);
      expect(await reloadOrder(order.id)).toMatchObject({ status: 'cancelled', totalMinor: 3000 });
      expect(await reloadOrder(bystander.id)).toMatchObject({ status: 'pending' });
    });

    it(covers('POST', `${TICKETS_NS}/orders/:id/refund`) + ': the path order is refunded; the body sets nothing', async () => {
      const { order, bystander } = await pendingOrder();
      expect((await world.send('POST', { path: `${TICKETS_NS}/orders/${order.id}/complete` }, as('administrator'))).status).toBe(200);
      const response = await write(
        'POST',
        { path: `${TICKETS_NS}/orders/${order.id}/refund`, body: { ...orderBody(bystander), status: 'pending' } },
        as('administrator'),
        ['orders', 'attendees', 'ticket_capacity_counters', 'outbox_messages', 'sales_ledger'],
      );
      expect(response.status).toBe(200);
      expect(await reloadOrder(order.id)).toMatchObject({ status: 'refunded', totalMinor: 3000, currency: 'USD' });
      expect(await reloadOrder(bystander.id)).toMatchObject({ status: 'pending' });
    });

    it(covers('POST', `${TICKETS_NS}/orders/:id/payment/capture`) + ': the body captures nothing and moves no order', async () => {
      const { order, bystander } = await pendingOrder();
      const response = await write(
        'POST',
        {
          path: `${TICKETS_NS}/orders/${order.id}/payment/capture`,
          body: { ...orderBody(bystander), status: 'completed', provider: 'paypal' },
        },
        as('subscriber'),
        [],
      );
      expect(response.status).toBe(409);
      expect(await reloadOrder(order.id)).toMatchObject({ status: 'pending', totalMinor: 3000 });
      expect(await reloadOrder(bystander.id)).toMatchObject({ status: 'pending' });
    });

    it(covers('POST', `${TICKETS_NS}/payments/:provider/webhook`) + ': an unsigned event moves nothing, whoever sends it', async () => {
      const { order } = await pendingOrder();
      const event = {
        id: 'evt_forged',
        type: 'payment_intent.succeeded',
        data: { object: { id: 'pi_x', metadata: { order_id: String(order.id) } } },
      };
      const response = await write('POST', { path: `${TICKETS_NS}/payments/stripe/webhook`, body: event }, as('administrator'), []);
      expect(response.status).toBe(400);
      expect(await reloadOrder(order.id)).toMatchObject({ status: 'pending' });
    });
  });

  describe('waitlist', () => {
    const WAITLIST = `${TICKETS_NS}/waitlist`;
    const entries = () => testApp.dataSource.getRepository(WaitlistEntry);

    /** Author A's sold-out ticket (capacity 0) with its waitlist on, and two people waiting. */
    async function waitlist(): Promise<{ ticket: Ticket; first: WaitlistEntry; second: WaitlistEntry }> {
      const ticket = await world.ticket(await world.event('author'), { capacity: 0 });
      await testApp.dataSource.getRepository(Ticket).update(ticket.id, { waitlist: true });
      const join = async (name: string) => {
        const response = await world.send(
          'POST',
          { path: WAITLIST, body: { ticket_id: ticket.id, name, email: `${uniqueName('w').replace(/\W/g, '')}@example.org`, quantity: 1 } },
          { principal: 'anonymous' },
        );
        expect(response.status).toBe(201);
        return entries().findOneByOrFail({ id: (response.body as { id: number }).id });
      };
      return { ticket, first: await join('First'), second: await join('Second') };
    }

    const entryBody = (other: WaitlistEntry) => ({
      ...privilegedFields(world),
      id: other.id,
      status: 'offered',
      priority: 1000,
      position: 1,
      cancel_token: other.cancelToken,
      offer_token: 'f'.repeat(48),
      offer_quantity: 10,
      offer_expires_at: '2099-01-01T00:00:00Z',
      order_id: FOREIGN_ID,
      post_id: FOREIGN_ID,
      event_id: FOREIGN_ID,
    });

    it(covers('POST', WAITLIST) + ': status, priority, tokens and offers are not assignable', async () => {
      const { ticket, first } = await waitlist();
      const response = await write(
        'POST',
        { path: WAITLIST, body: { ...entryBody(first), ticket_id: ticket.id, name: 'Eve', email: 'eve-mass@example.org', quantity: 2 } },
        { principal: 'anonymous' },
        ['waitlist_entries'],
      );
      expect(response.status).toBe(201);
      expect(response.body.cancel_token).not.toBe(first.cancelToken);
      expect(await entries().findOneByOrFail({ id: (response.body as { id: number }).id })).toMatchObject({
        ticketId: ticket.id,
        eventId: ticket.eventId,
        status: 'waiting',
        priority: 0,
        quantity: 2,
        offerToken: null,
        offerQuantity: null,
        orderId: null,
      });
      expect(await entries().findOneByOrFail({ id: first.id })).toEqual(first);
    });

    it(covers('PATCH', `${WAITLIST}/:id`) + ': only the priority of the path entry changes', async () => {
      const { first, second } = await waitlist();
      const response = await write(
        'PATCH',
        { path: `${WAITLIST}/${first.id}`, body: { ...entryBody(second), priority: 7, quantity: 9, ticket_id: FOREIGN_ID } },
        as('author'),
        ['waitlist_entries'],
      );
      expect(response.status).toBe(200);
      const { priority, updatedAt, ...rest } = await entries().findOneByOrFail({ id: first.id });
      expect(priority).toBe(7);
      expect(updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime());
      const { priority: _priority, updatedAt: _updatedAt, ...firstRest } = first;
      expect(rest).toEqual(firstRest);
      expect(await entries().findOneByOrFail({ id: second.id })).toEqual(second);
    });

    it(covers('POST', `${WAITLIST}/offer-next`) + ': offers only free units of the path ticket (none here), nothing else', async () => {
      const { ticket, first, second } = await waitlist();
      const response = await write(
        'POST',
        { path: `${WAITLIST}/offer-next`, body: { ...entryBody(first), ticket_id: ticket.id, quantity: 5 } },
        as('author'),
        ['waitlist_entries', 'ticket_capacity_counters', 'outbox_messages'],
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ offers: [] });
      expect(await entries().findOneByOrFail({ id: first.id })).toEqual(first);
      expect(await entries().findOneByOrFail({ id: second.id })).toEqual(second);
    });

    it(covers('DELETE', `${WAITLIST}/:cancel_token`) + ': an id in the body cancels nothing else', async () => {
      const { first, second } = await waitlist();
      const response = await write(
        'DELETE',
        { path: `${WAITLIST}/${first.cancelToken}`, body: { ...entryBody(second), status: 'purchased' } },
        { principal: 'anonymous' },
        ['waitlist_entries'],
      );
      expect(response.status).toBe(200);
      expect(await entries().findOneByOrFail({ id: first.id })).toMatchObject({ status: 'cancelled', liveEmail: null });
      expect(await entries().findOneByOrFail({ id: second.id })).toEqual(second);
    });
  });

  describe('waiting rooms', () => {
    const QUEUES = `${TICKETS_NS}/queues`;
    const queues = () => testApp.dataSource.getRepository(Queue);
    const queueEntries = () => testApp.dataSource.getRepository(QueueEntry);
    const secret = 'mass-assignment-secret';
    const secretHash = createHash('sha256').update(secret).digest('hex');

    /** Fields of a queue's state and of entries and admissions no client may set. */
    const queueState = () => ({
      ...privilegedFields(world),
      serving_counter: 999,
      last_position: 999,
      opened_at: '2000-01-01T00:00:00Z',
      shuffle_seed: 'f'.repeat(64),
      counter_version: 99,
      joined_count: 99,
      closed_at: '2000-01-01T00:00:00Z',
      event_id: FOREIGN_ID,
      status: 'admitted',
      position: 1,
      admitted_at: '2000-01-01T00:00:00Z',
      jti: 'f'.repeat(32),
      units_used: -100,
      unit_limit: 1000,
      auto_rate: 99999,
      eta_at: '2000-01-01T00:00:00Z',
      last_checkout_at: '2000-01-01T00:00:00Z',
    });

    async function openQueue(): Promise<Queue> {
      const response = await world.send(
        'POST',
        {
          path: QUEUES,
          body: { post_id: (await world.event('author')).id, opens_at: new Date(Date.now() - 60_000).toISOString(), max_active: 5 },
        },
        as('author'),
      );
      expect(response.status).toBe(201);
      return queues().findOneByOrFail({ id: (response.body as { id: number }).id });
    }

    async function join(queue: Queue): Promise<QueueEntry> {
      const requestId = uniqueName('mass').replace(/\W/g, '').slice(-40);
      const response = await world.send(
        'POST',
        { path: `${QUEUES}/${queue.id}/entries`, body: { request_id: requestId, secret_hash: secretHash } },
        { principal: 'anonymous' },
      );
      expect(response.status).toBe(202);
      return queueEntries().findOneByOrFail({ queueId: queue.id, requestId });
    }

    it(covers('POST', QUEUES) + ': the counter, the seed and the state are not assignable', async () => {
      const event = await world.event('author');
      const response = await write(
        'POST',
        { path: QUEUES, body: { ...queueState(), post_id: event.id, opens_at: '2030-01-01T10:00:00Z', max_active: 5 } },
        as('author'),
        ['queues'],
      );
      expect(response.status).toBe(201);
      const queue = await queues().findOneByOrFail({ id: (response.body as { id: number }).id });
      expect(queue).toMatchObject({
        eventId: event.id,
        servingCounter: 0,
        lastPosition: 0,
        openedAt: null,
        counterVersion: 0,
        joinedCount: 0,
        closedAt: null,
        autoRate: null,
      });
      expect(queue.shuffleSeed).not.toBe('f'.repeat(64));
    });

    it(covers('PATCH', `${QUEUES}/:id`) + ': only the settings of the path queue change', async () => {
      const queue = await openQueue();
      const other = await openQueue();
      const response = await write(
        'PATCH',
        { path: `${QUEUES}/${queue.id}`, body: { ...queueState(), id: other.id, max_active: 9 } },
        as('author'),
        ['queues'],
      );
      expect(response.status).toBe(200);
      const { maxActive, updatedAt, ...rest } = await queues().findOneByOrFail({ id: queue.id });
      const { maxActive: _maxActive, updatedAt: _updatedAt, ...before } = queue;
      expect(maxActive).toBe(9);
      expect(rest).toEqual(before);
      expect(await queues().findOneByOrFail({ id: other.id })).toEqual(other);
    });

    it(covers('POST', `${QUEUES}/:id/entries`) + ': an entry joins waiting, at the next position, nothing else', async () => {
      const queue = await openQueue();
      const requestId = uniqueName('massjoin').replace(/\W/g, '').slice(-40);
      const response = await write(
        'POST',
        { path: `${QUEUES}/${queue.id}/entries`, body: { ...queueState(), request_id: requestId, secret_hash: secretHash } },
        { principal: 'anonymous' },
        // The first join after opens_at opens the queue: its queue.opened webhook.
        ['queues', 'queue_entries', 'outbox_messages'],
      );
      expect(response.status).toBe(202);
      expect(await queueEntries().findOneByOrFail({ queueId: queue.id, requestId })).toMatchObject({
        status: 'waiting',
        position: 1,
        admittedAt: null,
      });
      expect((await queues().findOneByOrFail({ id: queue.id })).servingCounter).toBe(0);
    });

    it(
      covers('POST', `${QUEUES}/:id/entries/:request_id/admission`) +
        ': the admission is the queue’s own (limit, expiry), nothing from the body',
      async () => {
        const queue = await openQueue();
        const entry = await join(queue);
        await queueEntries().update(entry.id, { status: 'admitted', admittedAt: new Date() });
        const response = await write(
          'POST',
          { path: `${QUEUES}/${queue.id}/entries/${entry.requestId}/admission`, body: { ...queueState(), secret } },
          { principal: 'anonymous' },
          ['queue_admissions'],
        );
        expect(response.status).toBe(200);
        expect(response.body.units_left).toBe(queue.unitsPerAdmission);
        const admission = await testApp.dataSource.getRepository(QueueAdmission).findOneByOrFail({ entryId: entry.id });
        expect(admission).toMatchObject({ unitsUsed: 0, unitLimit: queue.unitsPerAdmission, revokedAt: null });
        expect(admission.jti).not.toBe('f'.repeat(32));
      },
    );

    it(covers('DELETE', `${QUEUES}/:id/entries/:request_id/admission`) + ': revokes the path entry only', async () => {
      const queue = await openQueue();
      const entry = await join(queue);
      const bystander = await join(queue);
      await queueEntries().update([entry.id, bystander.id], { status: 'admitted', admittedAt: new Date() });
      const response = await write(
        'DELETE',
        { path: `${QUEUES}/${queue.id}/entries/${entry.requestId}/admission`, body: { ...queueState(), request_id: bystander.requestId } },
        as('author'),
        ['queue_entries'],
      );
      expect(response.status).toBe(200);
      expect((await queueEntries().findOneByOrFail({ id: entry.id })).status).toBe('revoked');
      expect((await queueEntries().findOneByOrFail({ id: bystander.id })).status).toBe('admitted');
    });
  });

  describe('notifications', () => {
    const WEBHOOKS = `${TICKETS_NS}/webhooks`;
    const WEBHOOK_URL = 'https://93.184.216.34/mass-assignment';
    const endpointFields = (bystanderId: number) => ({
      ...privilegedFields(world),
      id: bystanderId,
      secret: 'whsec_YXR0YWNrZXItY2hvc2VuLXNlY3JldA==',
      disabled_reason: 'attacker',
      created: '1999-01-01 00:00:00',
    });
    const endpoints = () => testApp.dataSource.getRepository(WebhookEndpoint);
    const newEndpoint = async () =>
      endpoints().findOneByOrFail({ id: (await testApp.app.get(WebhooksService).create({ url: WEBHOOK_URL })).id });

    it(covers('POST', WEBHOOKS) + ": the secret, id and state are the service's", async () => {
      const bystander = await newEndpoint();
      const response = await write(
        'POST',
        { path: WEBHOOKS, body: { ...endpointFields(bystander.id), url: WEBHOOK_URL } },
        as('administrator'),
        ['webhook_endpoints'],
      );
      expect(response.status).toBe(201);
      expect(response.body.id).not.toBe(bystander.id);
      expect(response.body.secret).not.toBe('whsec_YXR0YWNrZXItY2hvc2VuLXNlY3JldA==');
      const stored = await endpoints().findOneByOrFail({ id: response.body.id as number });
      expect(stored.disabledReason).toBeNull();
      expect(new WebhookSecretBox(testApp.app.get<AppConfig>(appConfig.KEY).nonceSecret).open(stored.secret)).toBe(response.body.secret);
      expect(await endpoints().findOneByOrFail({ id: bystander.id })).toEqual(bystander);
    });

    for (const method of ['PATCH', 'PUT'] as const) {
      it(covers(method, `${WEBHOOKS}/:id`) + ': the path endpoint changes, never its secret', async () => {
        const [endpoint, bystander] = [await newEndpoint(), await newEndpoint()];
        const response = await write(
          method,
          { path: `${WEBHOOKS}/${endpoint.id}`, body: { ...endpointFields(bystander.id), url: WEBHOOK_URL, description: 'changed' } },
          as('administrator'),
          ['webhook_endpoints'],
        );
        expect(response.status).toBe(200);
        expect(await endpoints().findOneByOrFail({ id: endpoint.id })).toMatchObject({
          description: 'changed',
          secret: endpoint.secret,
          disabledReason: null,
        });
        expect(await endpoints().findOneByOrFail({ id: bystander.id })).toEqual(bystander);
      });
    }

    it(covers('DELETE', `${WEBHOOKS}/:id`) + ': the path endpoint goes, no other', async () => {
      const [endpoint, bystander] = [await newEndpoint(), await newEndpoint()];
      const response = await write('DELETE', { path: `${WEBHOOKS}/${endpoint.id}`, body: { id: bystander.id } }, as('administrator'), [
        'webhook_endpoints',
        'outbox_messages',
      ]);
      expect(response.status).toBe(200);
      expect(await endpoints().findOneBy({ id: endpoint.id })).toBeNull();
      expect(await endpoints().findOneByOrFail({ id: bystander.id })).toEqual(bystander);
    });

    it(
      covers('POST', `${WEBHOOKS}/:id/deliveries/:deliveryId/redeliver`) + ': the copy keeps the logged id, body and endpoint',
      async () => {
        const [endpoint, bystander] = [await newEndpoint(), await newEndpoint()];
        const logged = await testApp.dataSource.getRepository(OutboxMessage).save({
          channel: 'webhook',
          type: 'order.placed',
          payload: JSON.stringify({ type: 'order.placed', timestamp: new Date().toISOString(), data: { order_id: 1 } }),
          endpointId: endpoint.id,
          messageId: 'msg_logged',
          status: 'delivered',
          attempts: 1,
          nextAttemptAt: new Date(),
          createdAt: new Date(),
        });
        const body = {
          ...privilegedFields(world),
          endpoint_id: bystander.id,
          message_id: 'msg_attacker',
          payload: { type: 'event.trashed' },
          status: 'delivered',
          event_type: 'event.trashed',
        };
        const response = await write(
          'POST',
          { path: `${WEBHOOKS}/${endpoint.id}/deliveries/${logged.id}/redeliver`, body },
          as('administrator'),
          ['outbox_messages'],
        );
        expect(response.status).toBe(202);
        const copy = await testApp.dataSource.getRepository(OutboxMessage).findOneByOrFail({ id: response.body.id as number });
        expect(copy).toMatchObject({
          endpointId: endpoint.id,
          messageId: 'msg_logged',
          type: 'order.placed',
          payload: logged.payload,
          status: 'pending',
        });
      },
    );

    const resendBody = () => ({
      ...privilegedFields(world),
      recipient: 'attacker@example.org',
      email: 'attacker@example.org',
      to: 'attacker@example.org',
      template: 'order-refunded',
    });

    async function completedOrder(): Promise<{ orderId: number; attendee: Attendee }> {
      const ticket = await world.ticket(await world.event('author'), { price: '0.00' });
      const placed = await world.order(as('subscriber'), ticket);
      return { orderId: placed.id, attendee: await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ orderId: placed.id }) };
    }

    it(covers('POST', `${TICKETS_NS}/orders/:id/resend`) + ": the recipient and template are the order's", async () => {
      const { orderId } = await completedOrder();
      const response = await write('POST', { path: `${TICKETS_NS}/orders/${orderId}/resend`, body: resendBody() }, as('subscriber'), [
        'outbox_messages',
      ]);
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ queued: [{ template: 'order-confirmation', recipient: 'buyer@example.org' }] });
    });

    it(covers('POST', `${TICKETS_NS}/attendees/:id/resend`) + ': the recipient is the attendee', async () => {
      const { attendee } = await completedOrder();
      const response = await write(
        'POST',
        { path: `${TICKETS_NS}/attendees/${attendee.id}/resend`, body: resendBody() },
        as('administrator'),
        ['outbox_messages'],
      );
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ queued: [{ template: 'ticket', recipient: attendee.holderEmail }] });
    });
  });

  describe('coupons and attendee questions', () => {
    const COUPONS = `${TICKETS_NS}/coupons`;
    const readOnlyCouponFields = () => ({
      ...privilegedFields(world),
      uses: 99,
      author: String(world.userId('authorB')),
      author_id: world.userId('authorB'),
      code_key: 'hijack',
    });

    async function couponOfAuthor(): Promise<Coupon> {
      const event = await world.event('author');
      const response = await world.send(
        'POST',
        { path: COUPONS, body: { code: `MA${Date.now()}${Math.floor(Math.random() * 1e6)}`, post_id: event.id, discount_type: 'none' } },
        as('author'),
      );
      expect(response.status).toBe(201);
      return testApp.dataSource.getRepository(Coupon).findOneByOrFail({ id: response.body.id as number });
    }

    it(covers('POST', COUPONS) + ': uses, author and ids are the service’s', async () => {
      const event = await world.event('author');
      const code = `MASS${Date.now()}`;
      const response = await write(
        'POST',
        { path: COUPONS, body: { ...readOnlyCouponFields(), code, post_id: event.id, discount_type: 'percent', amount: '10' } },
        as('author'),
        ['coupons'],
      );
      expect(response.status).toBe(201);
      const stored = await testApp.dataSource.getRepository(Coupon).findOneByOrFail({ code });
      expect({ id: stored.id === FOREIGN_ID, uses: stored.uses, authorId: stored.authorId, codeKey: stored.codeKey }).toEqual({
        id: false,
        uses: 0,
        authorId: world.userId('author'),
        codeKey: code.toLowerCase(),
      });
    });

    it.each(['PUT', 'PATCH'] as const)(`%s ${COUPONS}/:id: uses and author stay`, async (method) => {
      covers(method, `${COUPONS}/:id`);
      const coupon = await couponOfAuthor();
      const response = await write(
        method,
        { path: `${COUPONS}/${coupon.id}`, body: { ...readOnlyCouponFields(), amount: '0' } },
        as('author'),
        ['coupons'],
      );
      expect(response.status).toBe(200);
      const stored = await testApp.dataSource.getRepository(Coupon).findOneByOrFail({ id: coupon.id });
      expect({ uses: stored.uses, authorId: stored.authorId, codeKey: stored.codeKey }).toEqual({
        uses: 0,
        authorId: world.userId('author'),
        codeKey: coupon.codeKey,
      });
    });

    it(covers('DELETE', `${COUPONS}/:id`) + ': an id in the body deletes nothing else', async () => {
      const [coupon, bystander] = [await couponOfAuthor(), await couponOfAuthor()];
      const response = await write('DELETE', { path: `${COUPONS}/${coupon.id}`, body: { id: bystander.id } }, as('author'), ['coupons']);
      expect(response.status).toBe(200);
      expect(await testApp.dataSource.getRepository(Coupon).existsBy({ id: bystander.id })).toBe(true);
      expect(await testApp.dataSource.getRepository(Coupon).existsBy({ id: coupon.id })).toBe(false);
    });

    it.each(['PUT', 'PATCH'] as const)(`%s ${TICKETS_NS}/attendees/:id/information: only the answers change`, async (method) => {
      covers(method, `${TICKETS_NS}/attendees/:id/information`);
      const ticket = await world.ticket(await world.event('author'), { price: '0.00' });
      const placed = await world.order(as('subscriber'), ticket);
      const before = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ orderId: placed.id });
      const response = await write(
        method,
        {
          path: `${TICKETS_NS}/attendees/${before.id}/information`,
          body: {
            ...privilegedFields(world),
            information: {},
            order_status: 'refunded',
            checked_in: true,
            ticket_id: FOREIGN_ID,
            email: 'attacker@example.org',
            security_code: 'attacker',
            coupon: 'FREE',
            discount: '999.00',
          },
        },
        as('subscriber'),
        ['attendees'],
      );
      expect(response.status).toBe(200);
      const {
        updatedAt: _after,
        meta: _meta,
        ...after
      } = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: before.id });
      const { updatedAt: _before, meta: _metaBefore, ...rest } = before;
      expect(after).toEqual(rest);
    });
  });

  describe('exports', () => {
    it.each(['attendees', 'orders'])(
      `${covers('POST', `${TICKETS_NS}/attendees/export`)} and ${covers('POST', `${TICKETS_NS}/orders/export`)} (%s): the job is the caller's and queued; the body sets nothing`,
      async (noun) => {
        const response = await write(
          'POST',
          {
            path: `${TICKETS_NS}/${noun}/export`,
            query: { format: 'xlsx' },
            body: {
              ...privilegedFields(world),
              status: 'done',
              user_id: world.userId('administrator'),
              kind: noun === 'attendees' ? 'orders' : 'attendees',
              format: 'csv',
              expires_at: '2099-01-01 00:00:00',
              row_count: 99,
            },
          },
          as('author'),
          ['export_jobs'],
        );
        expect(response.status).toBe(202);
        expect(await testApp.dataSource.getRepository(ExportJob).findOneByOrFail({ id: response.body.id as number })).toMatchObject({
          kind: noun,
          format: 'xlsx',
          status: 'queued',
          userId: world.userId('author'),
          rowCount: 0,
          expiresAt: null,
        });
      },
    );
  });

  // ---------------------------------------------------------------- check-in at the door

  describe('check-in at the door', () => {
    const DOOR = `${TICKETS_NS}`;
    /** Read-only and computed fields of lists, devices and scans. */
    const doorFields = {
      position_count: 999,
      checkin_count: 999,
      inside_count: 999,
      is_default: true,
      default_event_id: FOREIGN_ID,
      sync_key: 'attacker',
      created: '1999-01-01 00:00:00',
      initialized: true,
      revoked: true,
      api_token: 'dev_attacker',
      api_token_hash: 'attacker',
      initialization_token: 'ini_attacker',
      created_by: FOREIGN_ID,
      successful: true,
      forced: true,
      reason: 'attacker',
      device_id: FOREIGN_ID,
      checkin_secret: 'ATTACKER',
      order_status: 'completed',
    };

    async function doorFixtures(): Promise<{ event: Event; ticket: Ticket; list: CheckinList }> {
      const event = await world.event('author');
      const ticket = await world.ticket(event);
      const list = await testApp.dataSource.getRepository(CheckinList).save({
        eventId: event.id,
        name: 'Gate',
        defaultEventId: null,
        ticketIds: '[]',
        startsAt: new Date('2000-01-01'),
        endsAt: null,
        syncKey: 'ab'.repeat(32),
      });
      return { event, ticket, list };
    }

    async function device(list: CheckinList): Promise<{ id: number; token: string }> {
      const created = await testApp.app
        .get(DevicesService)
        .create({ name: 'Phone', list_ids: [list.id] }, { id: world.userId('author'), login: 'author', role: 'author' });
      return { id: created.id, token: created.initialization_token };
    }

    it(covers('POST', `${DOOR}/checkin-lists`) + ': only the list of the named event, no computed or key fields', async () => {
      const { event } = await doorFixtures();
      const response = await write(
        'POST',
        { path: `${DOOR}/checkin-lists`, body: { ...privilegedFields(world), ...doorFields, post_id: event.id, name: 'Side door' } },
        as('author'),
        ['checkin_lists'],
      );
      expect(response.status).toBe(201);
      const stored = await testApp.dataSource.getRepository(CheckinList).findOneByOrFail({ id: response.body.id as number });
      expect(stored).toMatchObject({ eventId: event.id, name: 'Side door', defaultEventId: null });
      expect(stored.syncKey).not.toBe('attacker');
      expect(response.body).toMatchObject({ position_count: 0, is_default: false });
    });

    it(covers('PATCH', `${DOOR}/checkin-lists/:id`) + ': the event and the key stay', async () => {
      const { list } = await doorFixtures();
      const other = await world.event('author');
      const response = await write(
        'PATCH',
        {
          path: `${DOOR}/checkin-lists/${list.id}`,
          body: { ...privilegedFields(world), ...doorFields, post_id: other.id, name: 'Renamed' },
        },
        as('author'),
        ['checkin_lists'],
      );
      expect(response.status).toBe(200);
      expect(await testApp.dataSource.getRepository(CheckinList).findOneByOrFail({ id: list.id })).toMatchObject({
        eventId: list.eventId,
        name: 'Renamed',
        defaultEventId: null,
        syncKey: list.syncKey,
      });
    });

    it(covers('DELETE', `${DOOR}/checkin-lists/:id`) + ': the path list goes, no other', async () => {
      const { list } = await doorFixtures();
      const { list: bystander } = await doorFixtures();
      const response = await write(
        'DELETE',
        { path: `${DOOR}/checkin-lists/${list.id}`, body: { ...privilegedFields(world), id: bystander.id } },
        as('author'),
        ['checkin_lists'],
      );
      expect(response.status).toBe(200);
      expect(await testApp.dataSource.getRepository(CheckinList).findOneBy({ id: bystander.id })).not.toBeNull();
    });

    it(covers('POST', `${DOOR}/devices`) + ': tokens come from the service, the creator is the caller', async () => {
      const { list } = await doorFixtures();
      const response = await write(
        'POST',
        { path: `${DOOR}/devices`, body: { ...privilegedFields(world), ...doorFields, name: 'Gate phone', list_ids: [list.id] } },
        as('author'),
        ['checkin_devices'],
      );
      expect(response.status).toBe(201);
      expect(response.body.initialization_token).not.toBe('ini_attacker');
      const stored = await testApp.dataSource.getRepository(Device).findOneByOrFail({ id: response.body.id as number });
      expect(stored).toMatchObject({ createdBy: world.userId('author'), apiTokenHash: null, revokedAt: null, initializedAt: null });
    });

    it(covers('POST', `${DOOR}/devices/initialize`) + ': only the token’s device is paired, with a fresh API token', async () => {
      const { list } = await doorFixtures();
      const paired = await device(list);
      const bystander = await device(list);
      const response = await write(
        'POST',
        { path: `${DOOR}/devices/initialize`, body: { ...privilegedFields(world), ...doorFields, token: paired.token, id: bystander.id } },
        world.caller('anonymous'),
        ['checkin_devices'],
      );
      expect(response.status).toBe(201);
      expect(response.body.device_id).toBe(paired.id);
      expect(response.body.api_token).not.toBe('dev_attacker');
      expect(await testApp.dataSource.getRepository(Device).findOneByOrFail({ id: bystander.id })).toMatchObject({ initializedAt: null });
    });

    it(covers('POST', `${DOOR}/devices/:id/revoke`) + ': the path device only', async () => {
      const { list } = await doorFixtures();
      const revoked = await device(list);
      const bystander = await device(list);
      const response = await write(
        'POST',
        { path: `${DOOR}/devices/${revoked.id}/revoke`, body: { ...privilegedFields(world), id: bystander.id, revoked: false } },
        as('author'),
        ['checkin_devices'],
      );
      expect(response.status).toBe(200);
      expect((await testApp.dataSource.getRepository(Device).findOneByOrFail({ id: bystander.id })).revokedAt).toBeNull();
    });

    it(covers('POST', `${DOOR}/checkin/redeem`) + ': the scan is the caller’s, its result the service’s', async () => {
      const { ticket, list } = await doorFixtures();
      const attendee = await world.attendee(ticket, { orderStatus: 'pending' });
      const response = await write(
        'POST',
        {
          path: `${DOOR}/checkin/redeem`,
          body: { ...privilegedFields(world), ...doorFields, secret: attendee.checkinSecret, list_ids: [list.id] },
        },
        as('author'),
        ['checkins', 'attendees'],
      );
      expect(response.status).toBe(409);
      expect(response.body.reason).toBe('unpaid');
      const [checkin] = await testApp.dataSource.getRepository(Checkin).findBy({ attendeeId: attendee.id });
      expect(checkin).toMatchObject({ successful: false, forced: false, reason: 'unpaid', deviceId: null, userId: world.userId('author') });
      expect(await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id })).toMatchObject({
        orderStatus: 'pending',
        checkinSecret: attendee.checkinSecret,
      });
    });

    it(
      covers('POST', `${DOOR}/checkin/sell`) + ': the sale is the checkout’s: price, status, buyer and counts are not assignable',
      async () => {
        const { ticket, list } = await doorFixtures();
        await testApp.dataSource.getRepository(CheckinList).update({ id: list.id }, { allowSales: true });
        const response = await write(
          'POST',
          {
            path: `${DOOR}/checkin/sell`,
            body: {
              ...privilegedFields(world),
              ...doorFields,
              list_id: list.id,
              ticket_id: ticket.id,
              quantity: 1,
              payment_method: 'cash',
              status: 'pending',
              total: '0.01',
              total_minor: 1,
              price: '0.00',
              currency: 'EUR',
              provider: 'rsvp',
              user_id: world.userId('subscriber'),
              order_id: FOREIGN_ID,
              checked_in: true,
            },
          },
          as('author'),
          ['orders', 'order_items', 'attendees', 'attendee_tallies', 'ticket_capacity_counters', 'outbox_messages', 'sales_ledger'],
        );
        expect(response.status).toBe(201);
        expect(response.body.attendees[0].checked_in).toBe(false);
        const order = await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: response.body.order.id });
        expect(order).toMatchObject({
          status: 'completed',
          totalMinor: ticket.priceMinor,
          currency: 'USD',
          provider: 'tc',
          paymentMethod: 'cash',
          userId: null,
        });
      },
    );

    it(covers('POST', `${DOOR}/checkin/annul`) + ': only the named scan is annulled, by the caller, now', async () => {
      const { ticket, list } = await doorFixtures();
      const [attendee, bystander] = [await world.attendee(ticket), await world.attendee(ticket)];
      const scans: number[] = [];
      for (const holder of [attendee, bystander]) {
        const scanned = await world.send(
          'POST',
          { path: `${DOOR}/checkin/redeem`, body: { secret: holder.checkinSecret, list_ids: [list.id] } },
          as('author'),
        );
        expect(scanned.status).toBe(201);
        scans.push(scanned.body.checkin.id as number);
      }
      const response = await write(
        'POST',
        {
          path: `${DOOR}/checkin/annul`,
          body: {
            ...privilegedFields(world),
            ...doorFields,
            checkin_id: scans[0],
            id: scans[1],
            annulled: false,
            annulled_at: '1999-01-01 00:00:00',
            annulled_device_id: FOREIGN_ID,
            annulled_user_id: FOREIGN_ID,
            list_id: FOREIGN_ID,
            attendee_id: bystander.id,
          },
        },
        as('author'),
        ['checkins', 'checkin_positions', 'attendees'],
      );
      expect(response.status).toBe(200);
      const checkins = testApp.dataSource.getRepository(Checkin);
      const annulled = await checkins.findOneByOrFail({ id: scans[0] });
      expect(annulled).toMatchObject({
        attendeeId: attendee.id,
        listId: list.id,
        annulledDeviceId: null,
        annulledUserId: world.userId('author'),
      });
      expect(annulled.annulledAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(await checkins.findOneByOrFail({ id: scans[1] })).toMatchObject({ annulledAt: null, annulledUserId: null });
    });

    it(covers('PATCH', `${DOOR}/checkin/attendees/:id`) + ': only the block flag of the path attendee', async () => {
      const { ticket } = await doorFixtures();
      const attendee = await world.attendee(ticket);
      const bystander = await world.attendee(ticket);
      const response = await write(
        'PATCH',
        {
          path: `${DOOR}/checkin/attendees/${attendee.id}`,
          body: { ...privilegedFields(world), ...doorFields, id: bystander.id, blocked: true },
        },
        as('author'),
        ['attendees', 'checkin_lists'],
      );
      expect(response.status).toBe(200);
      const stored = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendee.id });
      expect(stored).toMatchObject({ checkinBlocked: true, checkinSecret: attendee.checkinSecret, orderStatus: 'completed' });
      expect((await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: bystander.id })).checkinBlocked).toBe(false);
    });
  });

  // ---------------------------------------------------------------- tec/v1 (the same services, other field names)

  const TEC_HEADERS = { 'X-TEC-EEA': TEC_ACKNOWLEDGEMENT };
  /** Output fields of tec/v1's WordPress post shape. */
  const computedTecFields = {
    guid: { rendered: 'http://attacker.example.org/' },
    link: 'http://attacker.example.org/',
    type: 'tribe_events',
    class_list: ['hacked'],
    date_gmt: '1999-01-01 00:00:00',
    modified_gmt: '1999-01-01 00:00:00',
    start_date_utc: '1999-01-01 00:00:00',
    dates: { start: { date: '1999-01-01 00:00:00.000000' } },
    duration: '1',
    is_past: true,
    organizer_names: ['Injected'],
    schedule_details: '<b>x</b>',
    ticketed: ['tc'],
    featured_media: 5,
  };

  describe.each(['events', 'venues', 'organizers'] as const)('tec/v1 %s', (kind) => {
    const base = `/tec/v1/${kind}`;
    const tecBody = (name: string) =>
      kind === 'events' ? { title: name, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' } : { title: name };

    it(covers('POST', base) + ': a contributor cannot set id, author, publish status or computed fields', async () => {
      const refused = await write(
        'POST',
        { path: base, headers: TEC_HEADERS, body: { ...tecBody(uniqueName('Assigned')), author: world.userId('administrator') } },
        as('contributor'),
        [],
      );
      expect(refused.status).toBe(403);
      const body = { ...tecBody(uniqueName('Assigned')), ...privilegedFields(world), ...computedTecFields, status: 'publish' };
      const response = await write('POST', { path: base, headers: TEC_HEADERS, body }, as('contributor'), [...WRITTEN[kind]]);
      expect(response.status).toBe(201);
      const saved = await reload(kind, response.body.id as number);
      expect(saved.id).not.toBe(FOREIGN_ID);
      expect(saved).toMatchObject({ authorId: world.userId('contributor'), status: 'pending' });
      expect(saved.updatedAt.getUTCFullYear()).toBeGreaterThan(2000);
      if (kind === 'events') expect((saved as Event).startUtc.toISOString()).toBe('2027-03-01T10:00:00.000Z');
    });

    it(`${covers('PUT', `${base}/:id`)} and ${covers('PATCH', `${base}/:id`)}: read-only fields change nothing`, async () => {
      for (const method of ['PUT', 'PATCH'] as const) {
        const draft = await makePost(kind, 'contributor', 'draft');
        const newName = uniqueName('Renamed');
        const body = { title: newName, ...privilegedFields(world), ...computedTecFields, status: 'publish' };
        const response = await write(method, { path: `${base}/${draft.id}`, headers: TEC_HEADERS, body }, as('contributor'), [
          ...WRITTEN[kind],
        ]);
        expect(response.status).toBe(200);
        expect(await reload(kind, draft.id)).toMatchObject({
          id: draft.id,
          title: newName,
          authorId: world.userId('contributor'),
          status: 'pending',
        });
        expect(await exists(kind, FOREIGN_ID)).toBe(false);
        const published = await makePost(kind, 'author', 'publish');
        const handOver = await write(
          method,
          { path: `${base}/${published.id}`, headers: TEC_HEADERS, body: { author: world.userId('authorB') } },
          as('author'),
          [],
        );
        expect(handOver.status).toBe(403);
      }
    });

    it(covers('DELETE', `${base}/:id`) + ': status and ids in the body change nothing', async () => {
      const post = await makePost(kind, 'author', 'publish');
      const response = await write(
        'DELETE',
        { path: `${base}/${post.id}`, headers: TEC_HEADERS, body: { force: true, status: 'publish', ...privilegedFields(world) } },
        as('editor'),
        [...WRITTEN[kind], 'outbox_messages'],
      );
      expect(response.status).toBe(200);
      expect((await reload(kind, post.id)).status).toBe('trash');
    });
  });

  /** Output fields of tec/v1's ticket, which a write must not take as input (capacity and stock are inputs there). */
  const computedTecTicketFields = {
    sold: 50,
    pending: 7,
    on_sale: true,
    manage_stock: false,
    regular_price: 1000,
    type: 'tec_tc_ticket',
    link: 'http://attacker.example.org/',
    author: 1,
    status: 'draft',
    provider: 'rsvp',
  };

  it(covers('POST', '/tec/v1/tickets') + ': counts, provider, author and status are not assignable', async () => {
    const event = await world.event('author');
    const body = {
      event: event.id,
      title: uniqueName('Assigned ticket'),
      price: 12,
      capacity: 10,
      ...privilegedFields(world),
      ...computedTecTicketFields,
    };
    const eventBefore = await eventRow(event.id);
    const response = await write('POST', { path: '/tec/v1/tickets', headers: TEC_HEADERS, body }, as('author'), [
      'tickets',
      'ticket_capacity_counters',
      'events',
    ]);
    expect(response.status).toBe(201);
    await expectOnlyDocumentVersionMoved(eventBefore);
    const saved = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: response.body.id as number });
    expect(saved).toMatchObject({
      eventId: event.id,
      authorId: world.userId('author'),
      status: 'publish',
      provider: 'tc',
      sold: 0,
      pending: 0,
      capacity: 10,
      priceMinor: 1200,
    });
    expect(saved.id).not.toBe(FOREIGN_ID);
  });

  it(`${covers('PUT', '/tec/v1/tickets/:id')} and ${covers('PATCH', '/tec/v1/tickets/:id')}: event, counts and author stay`, async () => {
    const otherEvent = await world.event('author');
    for (const method of ['PUT', 'PATCH'] as const) {
      const event = await world.event('author');
      const ticket = await world.ticket(event, { capacity: 40 });
      await setTicketCounts(testApp.dataSource, ticket.id, { sold: 4, pending: 2 });
      const path = `/tec/v1/tickets/${ticket.id}`;
      const moved = await write(method, { path, headers: TEC_HEADERS, body: { event: otherEvent.id, title: 'Moved' } }, as('author'), []);
      expect(moved.status).toBe(400);
      const name = uniqueName('Renamed ticket');
      const body = { title: name, event_id: event.id, ...privilegedFields(world), ...computedTecTicketFields };
      const response = await write(method, { path, headers: TEC_HEADERS, body }, as('author'), ['tickets', 'ticket_capacity_counters']);
      expect(response.status).toBe(200);
      expect(await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticket.id })).toMatchObject({
        name,
        provider: 'tc',
        eventId: event.id,
        authorId: world.userId('author'),
        status: 'publish',
        sold: 4,
        pending: 2,
        capacity: 40,
      });
    }
  });

  it(covers('DELETE', '/tec/v1/tickets/:id') + ': an id in the body deletes nothing else', async () => {
    const event = await world.event('author');
    const [ticket, bystander] = [await world.ticket(event), await world.ticket(event)];
    const response = await write(
      'DELETE',
      { path: `/tec/v1/tickets/${ticket.id}`, headers: TEC_HEADERS, body: { id: bystander.id, ticket_id: bystander.id, event: event.id } },
      as('author'),
      ['tickets', 'ticket_capacity_counters', 'events'],
    );
    expect(response.status).toBe(200);
    expect(await testApp.dataSource.getRepository(Ticket).existsBy({ id: bystander.id })).toBe(true);
  });

  it(covers('POST', '/mcp'), async () => {
    // The MCP tools take their arguments through the REST routes' DTOs: TEC's write tool with every
    // privileged field in its data creates the contributor's own pending event, as POST /tec/v1/events does.
    const title = uniqueName('MCP assigned event');
    const response = await write(
      'POST',
      {
        path: '/mcp',
        headers: { Accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'tec-calendar-create-update-entities',
            arguments: {
              postType: 'event',
              data: {
                ...privilegedFields(world),
                ...computedPostFields,
                title,
                start_date: '2027-03-01 10:00:00',
                end_date: '2027-03-01 12:00:00',
                status: 'publish',
              },
            },
          },
        },
      },
      as('contributor'),
      ['events', 'event_listings', 'event_listing_days', 'outbox_messages'],
    );
    expect(response.status).toBe(200);
    expect(response.body.result.isError ? response.body.result.content : 'done').toBe('done');
    const saved = await testApp.dataSource.getRepository(Event).findOneByOrFail({ title });
    expect(saved).toMatchObject({ authorId: world.userId('contributor'), status: 'pending' });
    expect(saved.id).not.toBe(FOREIGN_ID);
  });

  // ---------------------------------------------------------------- API tokens (cal/auth/v1)

  /** A token of `owner`, made by the administrator. */
  async function apiToken(owner: UserKey): Promise<{ id: number; token: string }> {
    const response = await world.send(
      'POST',
      { path: '/cal/auth/v1/tokens', body: { name: 'Mass assignment', scopes: ['events:read'], owner: world.userId(owner) } },
      as('administrator'),
    );
    expect(response.status).toBe(201);
    return response.body as { id: number; token: string };
  }

  it(covers('POST', '/cal/auth/v1/tokens') + ': the caller cannot set the hash, prefix, last use, revocation or owner', async () => {
    const response = await write(
      'POST',
      {
        path: '/cal/auth/v1/tokens',
        body: {
          name: 'Own',
          scopes: ['events:read'],
          prefix: 'AAAAAAAA',
          secret_hash: '0'.repeat(64),
          secretHash: '0'.repeat(64),
          last_used_at: '2030-01-01T00:00:00Z',
          revoked_at: '2030-01-01T00:00:00Z',
          user_id: world.userId('administrator'),
          userId: world.userId('administrator'),
          id: 999,
        },
      },
      as('author'),
      ['api_tokens'],
    );
    expect(response.status).toBe(201);
    const row = await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: (response.body as { id: number }).id });
    expect(row).toMatchObject({ userId: world.userId('author'), lastUsedAt: null, revokedAt: null });
    expect(row.prefix).not.toBe('AAAAAAAA');
    expect(row.secretHash).not.toBe('0'.repeat(64));
  });

  it(covers('POST', '/cal/auth/v1/tokens/:id/revoke') + ': an id in the body revokes nothing else', async () => {
    const [token, bystander] = [await apiToken('author'), await apiToken('author')];
    const response = await write(
      'POST',
      { path: `/cal/auth/v1/tokens/${token.id}/revoke`, body: { id: bystander.id, revoked_at: null } },
      as('author'),
      ['api_tokens'],
    );
    expect(response.status).toBe(200);
    expect((await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: bystander.id })).revokedAt).toBeNull();
  });

  it(covers('DELETE', '/cal/auth/v1/tokens/:id') + ': an id in the body deletes nothing else', async () => {
    const [token, bystander] = [await apiToken('author'), await apiToken('author')];
    const response = await write('DELETE', { path: `/cal/auth/v1/tokens/${token.id}`, body: { id: bystander.id } }, as('author'), [
      'api_tokens',
    ]);
    expect(response.status).toBe(200);
    expect(await testApp.dataSource.getRepository(ApiToken).existsBy({ id: bystander.id })).toBe(true);
  });

  it('has a test for every write route of the authorization matrix', () => {
    const writes = ROUTE_TABLE.filter((route) => route.method !== 'GET').map(routeKey);
    expect(writes.filter((route) => !COVERED.has(route))).toEqual([]);
  });
});
