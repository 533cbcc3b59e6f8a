import { attendeeOrderStatus } from '../../src/orders/order-status';
import type { OrderStatus } from '../../src/orders/order.entity';
import type { CapacityMode, TicketProvider } from '../../src/tickets/ticket.entity';
import { cartTokenLike, hexToken, Random } from './random';
import type { BenchUser, SharedRows } from './shared-rows';
import { SlugAllocator } from './slugs';
import { Dialect, InsertBuffer } from './sql';
import {
  COST_TEXTS,
  DESCRIPTION_PARAGRAPHS,
  EXCERPTS,
  FIRST_NAMES,
  LAST_NAMES,
  ONLINE_EVENT_ZONES,
  TICKET_NAMES,
  TICKET_PRICES,
} from './vocabulary';
import { utcWallClock, wallClockMs, ZonedTime } from './zoned-time';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The calendar spans about 18 months either side of today. */
const DAYS_EITHER_SIDE = 548;
const EVENT_STREAM = 10;
const EVENT_DAY_STREAM = 11;
const ORDER_HOLD_MS = 15 * MINUTE_MS;
const CURRENCY = 'USD';

/** The share of events with each property, as the brief for the benchmark data asks. */
export const EVENT_SHARES = {
  allDay: 0.02,
  draft: 0.05,
  hiddenFromListings: 0.01,
  ticketed: 0.2,
  severalOrganizers: 0.3,
  withoutVenue: 0.03,
  featured: 0.04,
  sticky: 0.01,
} as const;

/**
 * The day of event number `index`, relative to today: drawn apart from the rest of its data so
 * that a run can order its new events by day before generating them (see `chronologicalOrder`).
 */
export function eventDayOffset(seed: number, index: number): number {
  return Random.for(seed, EVENT_DAY_STREAM, index).int(-DAYS_EITHER_SIDE, DAYS_EITHER_SIDE);
}

/**
 * Event indexes `from`..`to - 1` by day (a counting sort), which is the order a run writes them
 * in and gives them ids: as on a real calendar, where events are created some weeks ahead of
 * their date, ids mostly follow dates. It also keeps the date indexes' inserts near their ends
 * instead of all over them, which is what makes a million events load in minutes on a small
 * buffer pool.
 */
export function chronologicalOrder(seed: number, from: number, to: number): Int32Array {
  const days = 2 * DAYS_EITHER_SIDE + 1;
  const dayOf = new Int32Array(to - from);
  const perDay = new Int32Array(days + 1);
  for (let index = from; index < to; index += 1) {
    const day = eventDayOffset(seed, index) + DAYS_EITHER_SIDE;
    dayOf[index - from] = day;
    perDay[day + 1] += 1;
  }
  for (let day = 1; day <= days; day += 1) perDay[day] += perDay[day - 1];
  const ordered = new Int32Array(to - from);
  for (let offset = 0; offset < to - from; offset += 1) ordered[perDay[dayOf[offset]]++] = from + offset;
  return ordered;
}

/** The next id of every table whose ids this run computes. */
export interface NextIds {
  event: number;
  ticket: number;
  order: number;
  attendee: number;
}

export const EVENT_TABLES = [
  'events',
  'event_venue_links',
  'event_organizer_links',
  'event_category_links',
  'event_tag_links',
  'tickets',
  'ticket_capacity_counters',
  'ticket_pools',
  'orders',
  'order_items',
  'attendees',
] as const;
export type EventTable = (typeof EVENT_TABLES)[number];

const START_HOURS: ReadonlyArray<readonly [number, number]> = [
  [7, 1],
  [8, 2],
  [9, 4],
  [10, 6],
  [11, 5],
  [12, 4],
  [13, 3],
  [14, 4],
  [15, 3],
  [16, 3],
  [17, 4],
  [18, 7],
  [19, 12],
  [20, 12],
  [21, 6],
  [22, 3],
];
const START_MINUTES: ReadonlyArray<readonly [number, number]> = [
  [0, 55],
  [30, 30],
  [15, 8],
  [45, 7],
];
const DURATION_MINUTES: ReadonlyArray<readonly [number, number]> = [
  [60, 15],
  [90, 20],
  [120, 25],
  [150, 10],
  [180, 15],
  [240, 8],
  [300, 4],
  [360, 3],
];
const ALL_DAY_LENGTHS: ReadonlyArray<readonly [number, number]> = [
  [1, 70],
  [2, 20],
  [3, 10],
];
const TICKET_COUNTS: ReadonlyArray<readonly [number, number]> = [
  [1, 50],
  [2, 35],
  [3, 15],
];
const CAPACITY_MODES: ReadonlyArray<readonly [CapacityMode, number]> = [
  ['own', 50],
  ['capped', 15],
  ['global', 10],
  ['unlimited', 25],
];
const ORDER_SIZES: ReadonlyArray<readonly [number, number]> = [
  [1, 50],
  [2, 35],
  [3, 15],
];
const PAID_ORDER_OUTCOMES: ReadonlyArray<readonly [OrderStatus, number]> = [
  ['completed', 85],
  ['cancelled', 5],
  ['refunded', 5],
  ['expired', 5],
];

interface SeededTicket {
  id: number;
  provider: TicketProvider;
  priceCents: number;
  shared: boolean;
  sold: number;
  row: () => string[];
  /** Its `ticket_capacity_counters` row, once its sales are known. */
  counterRow: (sold: number) => string[];
}

interface Schedule {
  startLocal: string;
  endLocal: string;
  startMs: number;
  endMs: number;
}

function wholeSeconds(epochMs: number): number {
  return Math.floor(epochMs / 1000) * 1000;
}

function money(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function centsOf(price: string): number {
  const [units, fraction = '0'] = price.split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

function plainNumber(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : money(cents);
}

/**
 * Generates events with everything that hangs off them (links, tickets, pools, orders, order
 * items, attendees) as multi-row INSERTs. Every id is computed here, so links need no read-back.
 * Event number `index` (0-based over the whole calendar) always gets the same data for a seed.
 */
export class EventRowsWriter {
  private readonly buffers: Record<EventTable, InsertBuffer>;
  private readonly sql: Dialect;

  constructor(
    private readonly seed: number,
    private readonly nowMs: number,
    dialect: Dialect,
    private readonly zoned: ZonedTime,
    private readonly shared: SharedRows,
    private readonly slugs: SlugAllocator,
    readonly next: NextIds,
    limits: { maxRows: number; maxBytes: number },
  ) {
    this.sql = dialect;
    const buffer = (table: EventTable, columns: string[]) => new InsertBuffer(table, columns, dialect, limits.maxRows, limits.maxBytes);
    this.buffers = {
      events: buffer('events', [
        'id',
        'author_id',
        'status',
        'title',
        'slug',
        'description',
        'excerpt',
        'image',
        'published_at',
        'created_at',
        'updated_at',
        'timezone',
        'all_day',
        'start_utc',
        'end_utc',
        'start_local',
        'end_local',
        'cost',
        'website',
        'show_map',
        'show_map_link',
        'hide_from_listings',
        'sticky',
        'featured',
        'post_parent_id',
        'show_attendee_list',
      ]),
      event_venue_links: buffer('event_venue_links', ['event_id', 'venue_id', 'position']),
      event_organizer_links: buffer('event_organizer_links', ['event_id', 'organizer_id', 'position']),
      event_category_links: buffer('event_category_links', ['event_id', 'category_id']),
      event_tag_links: buffer('event_tag_links', ['event_id', 'tag_id']),
      tickets: buffer('tickets', [
        'id',
        'event_id',
        'author_id',
        'provider',
        'status',
        'name',
        'description',
        'price_minor',
        'sku',
        'iac',
        'show_description',
        'menu_order',
        'sale_start_utc',
        'sale_end_utc',
        'capacity_mode',
        'capacity',
        'published_at',
        'created_at',
        'updated_at',
      ]),
      ticket_capacity_counters: buffer('ticket_capacity_counters', ['ticket_id', 'capacity_mode', 'capacity', 'sold', 'pending']),
      ticket_pools: buffer('ticket_pools', ['event_id', 'capacity', 'sold', 'pending', 'created_at', 'updated_at']),
      orders: buffer('orders', [
        'id',
        'provider',
        'status',
        'user_id',
        'cart_token',
        'purchaser_name',
        'purchaser_email',
        'total_minor',
        'currency',
        'expires_at',
        'completed_at',
        'created_at',
        'updated_at',
      ]),
      order_items: buffer('order_items', ['order_id', 'ticket_id', 'quantity', 'unit_price_minor']),
      attendees: buffer('attendees', [
        'id',
        'order_id',
        'ticket_id',
        'event_id',
        'user_id',
        'provider',
        'status',
        'order_status',
        'rsvp_going',
        'holder_name',
        'holder_email',
        'security_code',
        'price_paid_minor',
        'optout',
        'meta',
        'checked_in',
        'checked_in_at',
        'checkin_source',
        'checkin_user_id',
        'created_at',
        'updated_at',
      ]),
    };
  }

  /** Rows added so far, per table. */
  counts(): Record<EventTable, number> {
    const counts = {} as Record<EventTable, number>;
    for (const table of EVENT_TABLES) counts[table] = this.buffers[table].added;
    return counts;
  }

  /** The buffered rows as INSERT statements, parents before children. */
  drain(): string[] {
    return EVENT_TABLES.flatMap((table) => this.buffers[table].drain());
  }

  addEvent(index: number): void {
    const sql = this.sql;
    const random = Random.for(this.seed, EVENT_STREAM, index);
    const { venues, organizerIds, categoryRoots, tagIds, editor, authors } = this.shared;
    const id = this.next.event++;

    const venue = random.chance(EVENT_SHARES.withoutVenue) ? null : venues[random.skewedIndex(venues.length, 1.6)];
    const zone = venue ? venue.zone : random.pick(ONLINE_EVENT_ZONES);
    const root = categoryRoots[random.skewedIndex(categoryRoots.length, 1.4)];
    const categoryIds = this.pickCategories(random, root.id, root.childIds);
    const eventTagIds = random
      .distinctIndexes(
        random.weighted([
          [0, 25],
          [1, 30],
          [2, 25],
          [3, 20],
        ] as const),
        tagIds.length,
        1.5,
      )
      .map((tag) => tagIds[tag]);
    const eventOrganizerIds = random
      .distinctIndexes(random.chance(EVENT_SHARES.severalOrganizers) ? random.int(2, 3) : 1, organizerIds.length, 1.7)
      .map((organizer) => organizerIds[organizer]);

    const head = random.pick(root.spec.titleHeads);
    const tail = random.pick(root.spec.titleTails);
    const form = random.next();
    const title =
      form < 0.45 || (form < 0.75 && !venue)
        ? `${head} ${tail}`
        : form < 0.75
          ? `${head} ${tail} at ${venue!.title}`
          : `${tail} with ${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
    const slug = this.slugs.allocate(title);

    const allDay = random.chance(EVENT_SHARES.allDay);
    const schedule = this.schedule(random, eventDayOffset(this.seed, index), zone, allDay);
    const status = random.chance(EVENT_SHARES.draft) ? 'draft' : 'publish';
    const author: BenchUser = random.chance(0.5) ? editor : random.pick(authors);
    const publishedMs = wholeSeconds(
      Math.min(this.nowMs - random.int(0, 72 * 3600) * 1000, schedule.startMs - random.int(3, 120) * DAY_MS - random.int(0, 86_399) * 1000),
    );
    const updatedMs = Math.min(this.nowMs, publishedMs + random.int(0, 20) * DAY_MS + random.int(0, 86_399_999));

    const paragraphs = random
      .distinctIndexes(random.int(2, 4), DESCRIPTION_PARAGRAPHS.length)
      .map((paragraph) => `<p>${DESCRIPTION_PARAGRAPHS[paragraph]}</p>`);
    const ticketed = random.chance(EVENT_SHARES.ticketed);
    const tickets = ticketed ? this.addTickets(random, id, author.id, status, zone, schedule, publishedMs) : [];
    const cost = this.cost(random, tickets);
    const image = random.chance(0.3) ? `https://images.example.org/events/${random.int(1, 5000)}.jpg` : null;
    const website = random.chance(0.2) ? `https://tickets.example.org/e/${slug}` : null;

    this.buffers.events.add([
      sql.int(id),
      sql.int(author.id),
      sql.text(status),
      sql.text(title),
      sql.text(slug),
      sql.text(paragraphs.join('')),
      sql.nullableText(random.chance(0.2) ? random.pick(EXCERPTS) : null),
      sql.nullableText(image),
      sql.dateTime(publishedMs),
      sql.dateTime3(publishedMs),
      sql.dateTime3(updatedMs),
      sql.text(zone),
      sql.bool(allDay),
      sql.dateTime(schedule.startMs),
      sql.dateTime(schedule.endMs),
      sql.text(schedule.startLocal),
      sql.text(schedule.endLocal),
      sql.nullableText(cost),
      sql.nullableText(website),
      sql.bool(!random.chance(0.05)),
      sql.bool(!random.chance(0.05)),
      sql.bool(random.chance(EVENT_SHARES.hiddenFromListings)),
      sql.bool(random.chance(EVENT_SHARES.sticky)),
      sql.bool(random.chance(EVENT_SHARES.featured)),
      'NULL',
      sql.bool(ticketed && random.chance(0.15)),
    ]);
    if (venue) this.buffers.event_venue_links.add([sql.int(id), sql.int(venue.id), '0']);
    eventOrganizerIds.forEach((organizerId, position) =>
      this.buffers.event_organizer_links.add([sql.int(id), sql.int(organizerId), sql.int(position)]),
    );
    for (const categoryId of categoryIds) this.buffers.event_category_links.add([sql.int(id), sql.int(categoryId)]);
    for (const tagId of eventTagIds) this.buffers.event_tag_links.add([sql.int(id), sql.int(tagId)]);
  }

  /** None, the root, a child, or the root and a child (as editors tick both). */
  private pickCategories(random: Random, rootId: number, childIds: number[]): number[] {
    const count = random.weighted([
      [0, 10],
      [1, 55],
      [2, 35],
    ] as const);
    if (count === 0) return [];
    const child = random.pick(childIds);
    if (count === 2) return [rootId, child];
    return random.chance(0.4) ? [rootId] : [child];
  }

  /**
   * Wall-clock times in the event's zone, stored as the service stores them (events.service.ts
   * applySchedule): all-day events from 00:00:00 of the first day to 23:59:59 of the last, then
   * both ends converted to instants and back, so that DST gaps move forward like the service's.
   */
  private schedule(random: Random, dayOffset: number, zone: string, allDay: boolean): Schedule {
    const todayMs = this.nowMs - (this.nowMs % DAY_MS);
    const dayMs = todayMs + dayOffset * DAY_MS;
    const date = utcWallClock(dayMs).slice(0, 10);
    let startWallClock: string;
    let endWallClock: string;
    if (allDay) {
      startWallClock = `${date} 00:00:00`;
      endWallClock = `${utcWallClock(dayMs + (random.weighted(ALL_DAY_LENGTHS) - 1) * DAY_MS).slice(0, 10)} 23:59:59`;
    } else {
      const hour = random.weighted(START_HOURS);
      const minute = random.weighted(START_MINUTES);
      startWallClock = `${date} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
      endWallClock = utcWallClock(wallClockMs(startWallClock) + random.weighted(DURATION_MINUTES) * MINUTE_MS);
    }
    const start = this.zoned.fromWallClock(startWallClock, zone);
    const end = this.zoned.fromWallClock(endWallClock, zone);
    return { startLocal: start.local, endLocal: end.local, startMs: start.instantMs, endMs: end.instantMs };
  }

  /** The cost text an organiser would type: often left empty when tickets say it, else the paid tickets' prices or "Free". */
  private cost(random: Random, tickets: SeededTicket[]): string | null {
    if (tickets.length === 0) return random.chance(0.4) ? null : random.pick(COST_TEXTS);
    if (random.chance(0.5)) return null;
    const prices = tickets.filter((ticket) => ticket.priceCents > 0).map((ticket) => ticket.priceCents);
    if (prices.length === 0) return 'Free';
    const lowest = Math.min(...prices);
    const highest = Math.max(...prices);
    return lowest === highest ? plainNumber(lowest) : `${plainNumber(lowest)} - ${plainNumber(highest)}`;
  }

  /**
   * 1–3 tickets as tickets.service.ts creates them (sale from the event's publication day to its
   * start, in the event's zone; RSVP tickets free; a pool for capped and global ones), then the
   * orders and attendees of published events, with sold counts that match them.
   */
  private addTickets(
    random: Random,
    eventId: number,
    authorId: number,
    eventStatus: string,
    zone: string,
    schedule: Schedule,
    eventPublishedMs: number,
  ): SeededTicket[] {
    const sql = this.sql;
    const count = random.weighted(TICKET_COUNTS);
    const saleStartMs = this.zoned.fromWallClock(`${this.zoned.toWallClock(eventPublishedMs, zone).slice(0, 10)} 00:00:00`, zone).instantMs;
    const publishedMs = wholeSeconds(Math.min(this.nowMs, eventPublishedMs + random.int(0, 3600) * 1000));
    const createdMs = Math.min(this.nowMs, publishedMs + random.int(0, 999));
    const modes = Array.from({ length: count }, () => random.weighted(CAPACITY_MODES));
    const hasPool = modes.some((mode) => mode === 'capped' || mode === 'global');
    const poolCapacity = hasPool ? random.int(10, 80) * 10 : 0;
    const usedNames = new Set<string>();

    const tickets: SeededTicket[] = modes.map((mode, menuOrder) => {
      const id = this.next.ticket++;
      const provider: TicketProvider = random.chance(0.65) ? 'tc' : 'rsvp';
      let name: string = random.pick(TICKET_NAMES[provider]);
      while (usedNames.has(name)) name = `${name} ${menuOrder + 1}`;
      usedNames.add(name);
      const price = provider === 'tc' ? random.pick(TICKET_PRICES) : '0.00';
      const capacity = mode === 'own' ? random.int(2, 50) * 10 : mode === 'capped' ? Math.min(poolCapacity, random.int(2, 30) * 10) : null;
      const description = random.chance(0.5)
        ? `Admits one. ${provider === 'rsvp' ? 'Please let us know if your plans change.' : 'Non-transferable.'}`
        : null;
      const sku = provider === 'tc' && random.chance(0.5) ? `EV${eventId}-${menuOrder + 1}` : null;
      return {
        id,
        provider,
        priceCents: centsOf(price),
        shared: mode === 'capped' || mode === 'global',
        sold: 0,
        counterRow: (sold: number) => [sql.int(id), sql.text(mode), sql.nullableInt(capacity), sql.int(sold), '0'],
        row: () => [
          sql.int(id),
          sql.int(eventId),
          sql.int(authorId),
          sql.text(provider),
          sql.text('publish'),
          sql.text(name),
          sql.nullableText(description),
          sql.int(centsOf(price)),
          sql.nullableText(sku),
          sql.text('none'),
          '1',
          sql.int(menuOrder),
          sql.dateTime(saleStartMs),
          sql.dateTime(schedule.startMs),
          sql.text(mode),
          sql.nullableInt(capacity),
          sql.dateTime(publishedMs),
          sql.dateTime3(createdMs),
          sql.dateTime3(createdMs),
        ],
      };
    });

    if (eventStatus === 'publish') this.addSales(random, eventId, tickets, schedule, createdMs);
    for (const ticket of tickets) {
      this.buffers.tickets.add(ticket.row());
      this.buffers.ticket_capacity_counters.add(ticket.counterRow(ticket.sold));
    }
    if (hasPool) {
      const poolSold = tickets.reduce((sum, ticket) => sum + (ticket.shared ? ticket.sold : 0), 0);
      this.buffers.ticket_pools.add([
        sql.int(eventId),
        sql.int(poolCapacity),
        sql.int(poolSold),
        '0',
        sql.dateTime3(createdMs),
        sql.dateTime3(createdMs),
      ]);
    }
    return tickets;
  }

  /**
   * 0–8 attendees in orders of 1–3 units, each order of one provider as checkout makes them. RSVP
   * orders complete at once (going or not); paid ones are mostly completed, some cancelled,
   * refunded or expired. No order is left pending: the service's sweeper would expire them during
   * a benchmark. Attendees of events that are over are mostly checked in.
   */
  private addSales(random: Random, eventId: number, tickets: SeededTicket[], schedule: Schedule, ticketsCreatedMs: number): void {
    const sql = this.sql;
    let remaining = random.int(0, 8);
    const earliestMs = Math.min(this.nowMs, ticketsCreatedMs + HOUR_MS);
    const latestMs = Math.max(earliestMs, Math.min(this.nowMs, schedule.startMs) - MINUTE_MS);
    const eventIsOver = schedule.endMs < this.nowMs;

    while (remaining > 0) {
      const provider = random.pick(tickets).provider;
      const offered = tickets.filter((ticket) => ticket.provider === provider);
      const units = Math.min(remaining, random.weighted(ORDER_SIZES));
      remaining -= units;
      const mainTicket = random.pick(offered);
      const unitTickets = Array.from({ length: units }, () => (random.chance(0.8) ? mainTicket : random.pick(offered)));
      const quantities = new Map<SeededTicket, number>();
      for (const ticket of unitTickets) quantities.set(ticket, (quantities.get(ticket) ?? 0) + 1);

      const totalCents = unitTickets.reduce((sum, ticket) => sum + ticket.priceCents, 0);
      const going = provider === 'rsvp' ? !random.chance(0.1) : null;
      const status: OrderStatus = totalCents === 0 ? 'completed' : random.weighted(PAID_ORDER_OUTCOMES);
      const createdMs = earliestMs + Math.floor(random.next() * (latestMs - earliestMs));
      const paidMs = Math.min(this.nowMs, createdMs + random.int(1, 10) * MINUTE_MS);
      const completedMs = status === 'completed' ? (totalCents === 0 ? createdMs : paidMs) : status === 'refunded' ? paidMs : null;
      const expiresMs = status === 'expired' || status === 'cancelled' ? wholeSeconds(createdMs + ORDER_HOLD_MS) : null;
      const updatedMs =
        status === 'completed' ? (completedMs as number) : Math.min(this.nowMs, createdMs + random.int(15, 60 * 24 * 7) * MINUTE_MS);
      const buyer = random.chance(0.7) ? random.pick(this.shared.buyers) : null;
      const purchaser = buyer ? { name: buyer.displayName, email: buyer.email } : this.person(random);
      const orderId = this.next.order++;

      this.buffers.orders.add([
        sql.int(orderId),
        sql.text(provider),
        sql.text(status),
        sql.nullableInt(buyer?.id ?? null),
        sql.nullableText(buyer ? null : cartTokenLike(this.seed, `order-${orderId}`)),
        sql.text(purchaser.name),
        sql.text(purchaser.email),
        sql.int(totalCents),
        sql.text(CURRENCY),
        sql.nullableDateTime(expiresMs),
        sql.nullableDateTime(completedMs === null ? null : wholeSeconds(completedMs)),
        sql.dateTime3(createdMs),
        sql.dateTime3(updatedMs),
      ]);
      for (const [ticket, quantity] of quantities) {
        this.buffers.order_items.add([sql.int(orderId), sql.int(ticket.id), sql.int(quantity), sql.int(ticket.priceCents)]);
      }

      const orderStatus = attendeeOrderStatus(provider, status, going);
      const holdsPlace = status === 'completed' && going !== false;
      unitTickets
        .slice()
        .sort((a, b) => a.id - b.id)
        .forEach((ticket, unit) => {
          if (holdsPlace) ticket.sold += 1;
          const holder = unit === 0 ? purchaser : this.person(random);
          const checkedIn = eventIsOver && holdsPlace && random.chance(0.65);
          const checkedInMs = checkedIn ? wholeSeconds(Math.max(createdMs, schedule.startMs - random.int(0, 45) * MINUTE_MS)) : null;
          const attendeeId = this.next.attendee++;
          this.buffers.attendees.add([
            sql.int(attendeeId),
            sql.int(orderId),
            sql.int(ticket.id),
            sql.int(eventId),
            sql.nullableInt(buyer?.id ?? null),
            sql.text(provider),
            sql.text('publish'),
            sql.text(orderStatus),
            sql.nullableBool(going),
            sql.text(holder.name),
            sql.text(holder.email),
            sql.text(hexToken(this.seed, `attendee-${attendeeId}`)),
            sql.int(ticket.priceCents),
            sql.bool(random.chance(0.08)),
            'NULL',
            sql.bool(checkedIn),
            sql.nullableDateTime(checkedInMs),
            sql.nullableText(checkedIn ? (random.chance(0.7) ? 'app' : 'site') : null),
            sql.nullableInt(checkedIn ? this.shared.editor.id : null),
            sql.dateTime3(createdMs),
            sql.dateTime3(checkedInMs ?? createdMs),
          ]);
        });
    }
  }

  private person(random: Random): { name: string; email: string } {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const local = `${first}.${last}`
      .normalize('NFKD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    return { name: `${first} ${last}`, email: `${local}${random.int(1, 999)}@example.org` };
  }
}
