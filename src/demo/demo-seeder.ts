import { Injectable, Type, ValidationPipe } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { AttendeesService } from '../attendees/attendees.service';
import type { AuthenticatedUser } from '../auth/roles';
import { UsersService } from '../auth/users.service';
import type { Buyer } from '../cart/cart-identity';
import { UpdateCartDto } from '../cart/dto/update-cart.dto';
import { CartService } from '../cart/cart.service';
import { CategoriesService } from '../categories/categories.service';
import { CreateCategoryDto } from '../categories/dto/create-category.dto';
import { CLOCK, Clock } from '../common/clock';
import { buildValidationError } from '../common/errors/validation-error.factory';
import { ApiUrls } from '../common/http/api-urls.service';
import { buildRequestContext, type RequestContext } from '../auth/request-context';
import { appConfig } from '../config/app.config';
import { CreateEventDto } from '../events/dto/create-event.dto';
import { Event } from '../events/event.entity';
import { EventWrites } from '../event-routes/event-writes';
import { EventsService } from '../events/events.service';
import { CheckoutService } from '../orders/checkout.service';
import { CheckoutDto } from '../orders/dto/checkout.dto';
import { OrdersService } from '../orders/orders.service';
import { CreateOrganizerDto } from '../organizers/dto/create-organizer.dto';
import { Organizer } from '../organizers/organizer.entity';
import { OrganizersService } from '../organizers/organizers.service';
import { CreateTagDto } from '../tags/dto/create-tag.dto';
import { TagsService } from '../tags/tags.service';
import { CreateTicketDto } from '../tickets/dto/create-ticket.dto';
import { Ticket } from '../tickets/ticket.entity';
import { TicketsService } from '../tickets/tickets.service';
import { CreateVenueDto } from '../venues/dto/create-venue.dto';
import { Venue } from '../venues/venue.entity';
import { VenuesService } from '../venues/venues.service';
import {
  DEMO_CATEGORIES,
  DEMO_ORGANIZERS,
  DEMO_PURCHASES,
  DEMO_TAGS,
  DEMO_TICKETS,
  DEMO_SERIES_OCCURRENCES,
  DEMO_USER,
  DEMO_VENUES,
  demoEvents,
  demoSeries,
} from './demo-data';
import { DemoRefusedError } from './demo-refused.error';

export { DemoRefusedError };

export interface DemoSummary {
  login: string;
  application_password: string;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  events: number;
  /** Recurring events, and the events they hold (not counted in `events`). */
  series: number;
  series_events: number;
  tickets: number;
  orders: number;
  attendees: number;
  checked_in: number;
  events_url: string;
}

/**
 * Loads the demo calendar through the same services (and the same validation) as the API: an
 * editor `demo` with an application password, venues, organizers, categories, tags, events with
 * their links, tickets of each provider and capacity mode, and attendees from real checkouts.
 * It refuses to run when the calendar already holds events, venues, organizers or tickets, so that
 * it can never mix demo rows into real data; run it on an empty database.
 */
@Injectable()
export class DemoSeeder {
  // The validation the API applies to bodies (as app.setup.ts configures it), so that the seed
  // goes through exactly the checks and conversions a client's request does.
  private readonly validation = new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    exceptionFactory: buildValidationError,
    validationError: { target: false, value: true },
  });

  private dataSource!: DataSource;
  private config!: ConfigType<typeof appConfig>;
  private clock!: Clock;
  private urls!: ApiUrls;
  private users!: UsersService;
  private venues!: VenuesService;
  private organizers!: OrganizersService;
  private categories!: CategoriesService;
  private tags!: TagsService;
  private events!: EventsService;
  /** Where an events route's write goes: a create with `recurrence` makes a series. */
  private eventWrites!: EventWrites;
  private tickets!: TicketsService;
  private carts!: CartService;
  private checkouts!: CheckoutService;
  private orders!: OrdersService;
  private attendees!: AttendeesService;

  constructor(private readonly moduleRef: ModuleRef) {}

  /**
   * The services live in the app's feature modules, which do not all export them: they are looked
   * up across the application, once it is up, rather than widening those modules' exports.
   */
  private resolveServices(): void {
    const find = <T>(token: Type<T> | string | symbol): T => this.moduleRef.get<T>(token, { strict: false });
    this.dataSource = find(DataSource);
    this.config = find<ConfigType<typeof appConfig>>(appConfig.KEY);
    this.clock = find<Clock>(CLOCK);
    this.urls = find(ApiUrls);
    this.users = find(UsersService);
    this.venues = find(VenuesService);
    this.organizers = find(OrganizersService);
    this.categories = find(CategoriesService);
    this.tags = find(TagsService);
    this.events = find(EventsService);
    this.eventWrites = find(EventWrites);
    this.tickets = find(TicketsService);
    this.carts = find(CartService);
    this.checkouts = find(CheckoutService);
    this.orders = find(OrdersService);
    this.attendees = find(AttendeesService);
  }

  async seed(): Promise<DemoSummary> {
    this.resolveServices();
    await this.assertEmpty();
    const user = await this.demoUser();
    const issued = await this.users.createApplicationPassword(user.login, 'demo');
    const context = this.context(user);

    const venueIds: number[] = [];
    for (const { timezone: _zone, ...venue } of DEMO_VENUES) {
      venueIds.push((await this.venues.create(await this.body(CreateVenueDto, venue), user, context)).id);
    }
    const organizerIds: number[] = [];
    for (const organizer of DEMO_ORGANIZERS) {
      organizerIds.push((await this.organizers.create(await this.body(CreateOrganizerDto, organizer), user, context)).id);
    }
    const categoryIds = new Map<string, number>();
    for (const { parent, ...category } of DEMO_CATEGORIES) {
      const body = await this.body(CreateCategoryDto, parent ? { ...category, parent: categoryIds.get(parent) } : category);
      categoryIds.set(category.name, (await this.categories.create(body)).term.id);
    }
    const tagIds = new Map<string, number>();
    for (const name of DEMO_TAGS) tagIds.set(name, (await this.tags.create(await this.body(CreateTagDto, { name }))).term.id);

    const eventIds: number[] = [];
    for (const event of demoEvents(this.clock.now())) {
      const { venueIndex, organizerIndex, category, tags, ...fields } = event;
      const body = {
        ...fields,
        status: 'publish',
        venue: venueIds[venueIndex],
        organizer: [organizerIds[organizerIndex]],
        categories: [categoryIds.get(category)],
        tags: tags.map((tag) => tagIds.get(tag)),
      };
      eventIds.push((await this.events.create(await this.body(CreateEventDto, body), user, context)).id);
    }

    const ticketIds: number[] = [];
    for (const { eventIndex, ...ticket } of DEMO_TICKETS) {
      const body = await this.body(CreateTicketDto, { ...ticket, post_id: eventIds[eventIndex] });
      ticketIds.push((await this.tickets.create(body, user, context)).id);
    }

    let attendees = 0;
    let checkedIn = 0;
    for (const purchase of DEMO_PURCHASES) {
      const ticket = DEMO_TICKETS[purchase.ticketIndex];
      const ticketId = ticketIds[purchase.ticketIndex];
      const written = await this.carts.update(
        { kind: 'guest', token: null },
        await this.body(UpdateCartDto, { provider: ticket.provider, tickets: [{ ticket_id: ticketId, quantity: purchase.quantity }] }),
        context,
      );
      const buyer: Buyer = { kind: 'guest', token: written.token };
      const checkoutBody = {
        provider: ticket.provider,
        purchaser: purchase.purchaser,
        attendees: purchase.attendees.map((name) => ({
          ticket_id: ticketId,
          name,
          email: `${name.split(' ')[0].toLowerCase()}@example.org`,
        })),
        ...(ticket.provider === 'rsvp' ? { going: true } : {}),
      };
      const placed = await this.checkouts.checkout({
        buyer,
        body: await this.body(CheckoutDto, checkoutBody),
        rawBody: checkoutBody,
        idempotencyKey: undefined,
        context,
      });
      // Paid orders wait for payment; the demo marks them paid as the payment provider would.
      const order =
        placed.body.status === 'pending'
          ? await this.orders.complete(placed.body.id, { user, cartToken: null }, undefined, context)
          : placed.body;
      attendees += order.attendees.length;
      if (purchase.checkIn) {
        await this.attendees.setCheckIn(order.attendees[0].id, true, user, context);
        checkedIn += 1;
      }
    }

    // Last, so that the ids of the one-off events, tickets and orders above stay as they were.
    const { venueIndex, organizerIndex, category, tags, ...series } = demoSeries(this.clock.now());
    const seriesBody = {
      ...series,
      status: 'publish',
      venue: venueIds[venueIndex],
      organizer: [organizerIds[organizerIndex]],
      categories: [categoryIds.get(category)],
      tags: tags.map((tag) => tagIds.get(tag)),
    };
    await this.eventWrites.create(await this.body(CreateEventDto, seriesBody), user, context);

    return {
      login: user.login,
      application_password: issued.password,
      venues: venueIds.length,
      organizers: organizerIds.length,
      categories: categoryIds.size,
      tags: tagIds.size,
      events: eventIds.length,
      series: 1,
      series_events: DEMO_SERIES_OCCURRENCES,
      tickets: ticketIds.length,
      orders: DEMO_PURCHASES.length,
      attendees,
      checked_in: checkedIn,
      events_url: context.namespaceUrl('events', 'events'),
    };
  }

  private async assertEmpty(): Promise<void> {
    const counts: Array<[string, number]> = [
      ['events', await this.dataSource.getRepository(Event).count()],
      ['venues', await this.dataSource.getRepository(Venue).count()],
      ['organizers', await this.dataSource.getRepository(Organizer).count()],
      ['tickets', await this.dataSource.getRepository(Ticket).count()],
    ];
    const present = counts.filter(([, count]) => count > 0);
    if (present.length > 0) {
      const what = present.map(([name, count]) => `${count} ${name}`).join(', ');
      throw new DemoRefusedError(
        `the database already holds ${what}; seed:demo only fills an empty calendar (use a new DATABASE_URL or DATA_DIR)`,
      );
    }
  }

  /** The `demo` editor, created on first use and reused when only it remains of an earlier demo. */
  private async demoUser(): Promise<AuthenticatedUser> {
    const existing = await this.users.findByLogin(DEMO_USER.login);
    const user = existing ?? (await this.users.create(DEMO_USER));
    return { id: user.id, login: user.login, role: user.role };
  }

  /**
   * What the services need of a request: URLs are built from PUBLIC_URL when it is set, else for
   * a service on this machine's PORT.
   */
  private context(user: AuthenticatedUser): RequestContext {
    const host = `localhost:${this.config.port}`;
    const request = { protocol: 'http', get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined) } as unknown as Request;
    return buildRequestContext(this.urls, request, user);
  }

  private async body<T extends object>(type: Type<T>, plain: object): Promise<T> {
    return (await this.validation.transform(plain, { type: 'body', metatype: type })) as T;
  }
}
