import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Attendee } from '../../src/attendees/attendee.entity';
import { NonceAction, NonceService } from '../../src/auth/nonce.service';
import { issueCartToken } from '../../src/cart/cart-identity';
import { Category } from '../../src/categories/category.entity';
import type { PostStatus } from '../../src/posts/post-status';
import { appConfig, AppConfig } from '../../src/config/app.config';
import { Event } from '../../src/events/event.entity';
import { Order, OrderItem } from '../../src/orders/order.entity';
import { Organizer } from '../../src/organizers/organizer.entity';
import { Tag } from '../../src/tags/tag.entity';
import { Ticket, TicketProvider } from '../../src/tickets/ticket.entity';
import { Venue } from '../../src/venues/venue.entity';
import { createUser, TestApp, TestUser } from '../helpers/test-app';
import { insertCounter, usdCents } from '../helpers/ticketing-fixtures';
import { insertEvent } from '../helpers/fixtures';

/**
 * The callers of the authorization matrix: no credentials, each of the five roles, and "another
 * user" — a second user of the owner's role, acting on the owner's object (BOLA).
 */
export const PRINCIPALS = ['anonymous', 'administrator', 'editor', 'author', 'contributor', 'subscriber', 'other'] as const;
export type Principal = (typeof PRINCIPALS)[number];

/**
 * The users of the world. Objects of the events namespace (events, venues, organizers, tickets,
 * attendees) belong to `author` (or to `contributor` for contributors' drafts); carts and orders
 * belong to `subscriber`, the buyer. The `…B` users are "another user" of the same role.
 */
export type UserKey = 'administrator' | 'editor' | 'author' | 'authorB' | 'contributor' | 'contributorB' | 'subscriber' | 'subscriberB';

/** Who "another user" is in a scenario: a second user of the owner's role, or a second anonymous buyer. */
export type OtherIdentity = 'authorB' | 'contributorB' | 'subscriberB' | 'guestB';

export interface Caller {
  principal: Principal;
  /** Signed-in callers. */
  user?: TestUser;
  /** Anonymous buyers: the cart token they present. */
  cartToken?: string;
}

/** One HTTP request of a case, with the caller's credentials added by `World.send`. */
export interface RequestSpec {
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const API = '/cal';
export const EVENTS_NS = `${API}/events/v1`;
export const TICKETS_NS = `${API}/tickets/v1`;

const DAY_MS = 86_400_000;

let serial = 0;
/** A name no other fixture of this process uses, so that slugs and duplicate checks never collide. */
export function uniqueName(prefix: string): string {
  serial += 1;
  return `${prefix} ${serial} ${randomBytes(3).toString('hex')}`;
}

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export interface EventOptions {
  status?: PostStatus;
  showAttendeeList?: boolean;
}

export interface TicketOptions {
  provider?: TicketProvider;
  price?: string;
  capacity?: number;
}

export interface AttendeeOptions {
  orderStatus?: string;
  checkedIn?: boolean;
  optout?: boolean;
  email?: string;
  securityCode?: string;
  name?: string;
  /** The buyer when signed in. */
  userId?: number | null;
}

/**
 * The people and objects the security specs act on, and the factories that make fresh objects for
 * cases that change them. Rows go straight to the database (fast and independent of the routes
 * under test); orders go through the real cart and checkout, so that they are what buyers get.
 */
export class World {
  private constructor(
    readonly testApp: TestApp,
    readonly users: Record<UserKey, TestUser>,
  ) {}

  static async create(testApp: TestApp): Promise<World> {
    const users = {} as Record<UserKey, TestUser>;
    const roles: Array<[UserKey, TestUser['role']]> = [
      ['administrator', 'administrator'],
      ['editor', 'editor'],
      ['author', 'author'],
      ['authorB', 'author'],
      ['contributor', 'contributor'],
      ['contributorB', 'contributor'],
      ['subscriber', 'subscriber'],
      ['subscriberB', 'subscriber'],
    ];
    for (const [key, role] of roles)
      users[key] = await createUser(testApp, role, `sec-${key.toLowerCase()}-${randomBytes(2).toString('hex')}`);
    return new World(testApp, users);
  }

  get dataSource() {
    return this.testApp.dataSource;
  }

  private readonly memos = new Map<string, Promise<unknown>>();

  /** An object made once and shared by the cases that only read it. */
  shared<T>(key: string, factory: () => Promise<T>): Promise<T> {
    let memo = this.memos.get(key);
    if (!memo) {
      memo = factory();
      this.memos.set(key, memo);
    }
    return memo as Promise<T>;
  }

  private get config(): AppConfig {
    return this.testApp.app.get<AppConfig>(appConfig.KEY);
  }

  /** A cart token as the service issues them, for an anonymous buyer who has not written a cart yet. */
  newCartToken(): string {
    return issueCartToken(this.config.nonceSecret);
  }

  /** The caller standing for `principal`; `other` is `otherIdentity` (a second user of the owner's role). */
  caller(principal: Principal, otherIdentity?: OtherIdentity): Caller {
    if (principal === 'anonymous') return { principal };
    if (principal === 'other') {
      if (!otherIdentity) throw new Error('this scenario has no "other user" column');
      if (otherIdentity === 'guestB') return { principal, cartToken: this.newCartToken() };
      return { principal, user: this.users[otherIdentity] };
    }
    return { principal, user: this.users[principal] };
  }

  nonce(action: NonceAction, caller: Caller): string {
    return this.testApp.app.get(NonceService).create(action, caller.user?.id ?? 0);
  }

  /** Sends `spec` as `caller`: Basic credentials for users, X-Cart-Token for anonymous buyers. */
  send(method: Method, spec: RequestSpec, caller: Caller): request.Test {
    const agent = request(this.testApp.server);
    let test =
      method === 'GET'
        ? agent.get(spec.path)
        : method === 'POST'
          ? agent.post(spec.path)
          : method === 'PUT'
            ? agent.put(spec.path)
            : method === 'PATCH'
              ? agent.patch(spec.path)
              : agent.delete(spec.path);
    if (spec.query) test = test.query(spec.query as Record<string, string>);
    if (caller.user) test = test.set('Authorization', caller.user.authorization);
    if (caller.cartToken) test = test.set('X-Cart-Token', caller.cartToken);
    for (const [name, value] of Object.entries(spec.headers ?? {})) test = test.set(name, value);
    if (spec.body !== undefined) test = test.send(spec.body as object);
    return test;
  }

  // ---------------------------------------------------------------- factories

  userId(key: UserKey): number {
    return this.users[key].id;
  }

  async event(owner: UserKey, options: EventOptions = {}): Promise<Event> {
    const title = uniqueName('Security event');
    const start = new Date(Date.now() + 60 * DAY_MS);
    start.setUTCHours(18, 0, 0, 0);
    const end = new Date(start.getTime() + 3 * 3600_000);
    return insertEvent(this.dataSource, {
      title,
      slug: slugOf(title),
      status: options.status ?? 'publish',
      authorId: this.userId(owner),
      description: '<p>About the event</p>',
      publishedAt: new Date(Date.now() - DAY_MS),
      startUtc: start,
      endUtc: end,
      showAttendeeList: options.showAttendeeList ?? false,
    });
  }

  async venue(owner: UserKey, status: PostStatus = 'publish'): Promise<Venue> {
    const title = uniqueName('Security venue');
    return this.dataSource.getRepository(Venue).save({
      title,
      slug: slugOf(title),
      status,
      authorId: this.userId(owner),
      description: null,
      excerpt: null,
      image: null,
      publishedAt: new Date(Date.now() - DAY_MS),
      address: '1 Loopback Road',
      city: 'Springfield',
      country: null,
      province: null,
      state: null,
      stateprovince: null,
      zip: null,
      phone: null,
      website: null,
      showMap: true,
      showMapLink: true,
      geoLat: null,
      geoLng: null,
    });
  }

  async organizer(owner: UserKey, status: PostStatus = 'publish'): Promise<Organizer> {
    const title = uniqueName('Security organizer');
    return this.dataSource.getRepository(Organizer).save({
      title,
      slug: slugOf(title),
      status,
      authorId: this.userId(owner),
      description: null,
      excerpt: null,
      image: null,
      publishedAt: new Date(Date.now() - DAY_MS),
      phone: null,
      website: null,
      email: 'organizer@example.org',
    });
  }

  async category(): Promise<Category> {
    const name = uniqueName('Security category');
    return this.dataSource.getRepository(Category).save({ name, slug: slugOf(name), description: null, parentId: null });
  }

  async tag(): Promise<Tag> {
    const name = uniqueName('Security tag');
    return this.dataSource.getRepository(Tag).save({ name, slug: slugOf(name), description: null });
  }

  async ticket(event: Event, options: TicketOptions = {}): Promise<Ticket> {
    const provider = options.provider ?? 'tc';
    const ticket = await this.dataSource.getRepository(Ticket).save({
      eventId: event.id,
      authorId: event.authorId,
      provider,
      status: 'publish',
      name: uniqueName('Security ticket'),
      description: 'Admission',
      priceMinor: usdCents(options.price ?? (provider === 'rsvp' ? '0.00' : '25.00')),
      sku: 'SEC-SKU',
      iac: 'none',
      showDescription: true,
      menuOrder: 0,
      saleStartUtc: null,
      saleEndUtc: null,
      capacityMode: 'own',
      capacity: options.capacity ?? 1000,
      publishedAt: new Date(Date.now() - DAY_MS),
    });
    await insertCounter(this.dataSource, ticket);
    return Object.assign(ticket, { sold: 0, pending: 0 });
  }

  /** An attendee of `ticket` in an order of its own (rows only; no capacity is taken). */
  async attendee(ticket: Ticket, options: AttendeeOptions = {}): Promise<Attendee> {
    const rsvp = ticket.provider === 'rsvp';
    const orderStatus = options.orderStatus ?? (rsvp ? 'yes' : 'completed');
    const name = options.name ?? uniqueName('Holder');
    const email = options.email ?? `holder-${randomBytes(4).toString('hex')}@example.org`;
    const order = await this.dataSource.getRepository(Order).save({
      provider: ticket.provider,
      status: rsvp || orderStatus === 'yes' || orderStatus === 'no' ? 'completed' : (orderStatus as Order['status']),
      userId: options.userId ?? null,
      cartToken: null,
      purchaserName: name,
      purchaserEmail: email,
      totalMinor: ticket.priceMinor,
      currency: 'USD',
      expiresAt: null,
      completedAt: null,
    });
    await this.dataSource
      .getRepository(OrderItem)
      .insert({ orderId: order.id, ticketId: ticket.id, quantity: 1, unitPriceMinor: ticket.priceMinor });
    return this.dataSource.getRepository(Attendee).save({
      orderId: order.id,
      ticketId: ticket.id,
      eventId: ticket.eventId,
      userId: options.userId ?? null,
      provider: ticket.provider,
      status: 'publish',
      orderStatus,
      rsvpGoing: rsvp ? orderStatus !== 'no' : null,
      holderName: name,
      holderEmail: email,
      securityCode: options.securityCode ?? randomBytes(16).toString('hex'),
      pricePaidMinor: ticket.priceMinor,
      optout: options.optout ?? false,
      meta: null,
      checkedIn: options.checkedIn ?? false,
      checkedInAt: options.checkedIn ? new Date() : null,
      checkinSource: options.checkedIn ? 'site' : null,
      checkinUserId: null,
    });
  }

  /** Puts `quantity` of `ticket` in the buyer's cart; returns the buyer as they identify afterwards. */
  async fillCart(buyer: Caller, ticket: Ticket, quantity = 1): Promise<Caller> {
    const response = await this.send(
      'POST',
      { path: `${TICKETS_NS}/cart`, body: { provider: ticket.provider, tickets: [{ ticket_id: ticket.id, quantity }] } },
      buyer,
    );
    if (response.status !== 200) throw new Error(`cart write failed: ${response.status} ${JSON.stringify(response.body)}`);
    const token = response.headers['x-cart-token'] as string | undefined;
    return token ? { ...buyer, cartToken: token } : buyer;
  }

  /** An order of `buyer` for one unit of `ticket`, through the cart and checkout: pending when paid, completed when free. */
  async order(buyer: Caller, ticket: Ticket): Promise<{ id: number; buyer: Caller }> {
    const identified = await this.fillCart(buyer, ticket);
    const response = await this.send(
      'POST',
      {
        path: `${TICKETS_NS}/cart/checkout`,
        body: { provider: ticket.provider, purchaser: { name: 'Buyer Person', email: 'buyer@example.org' } },
      },
      identified,
    );
    if (response.status !== 201) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
    return { id: (response.body as { id: number }).id, buyer: identified };
  }
}
