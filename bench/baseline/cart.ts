import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { scopesWrittenBy } from './counts';
import type { Database, Transaction } from './db';
import {
  ApiFailure,
  cartEmpty,
  invalidParam,
  invalidParams,
  missingParams,
  SaleProblem,
  ticketCapacityNotAvailable,
  ticketDoesNotExist,
} from './errors';
import { centsToMoney, moneyColumn, moneyToCents } from './format';
import { availableUnits, AttendeeRow, CartLineRow, OrderRow, PoolRow, RequestContext, TicketRow, toCart, toOrder } from './mapping';
import { cartQueries, checkoutQueries, countQueries, poolQueries } from './queries';

export const CART_TOKEN_HEADER = 'x-cart-token';
const CART_COOKIE = 'cal_cart';
/** Carts untouched for this long read as empty and start over on the next write. */
const CART_IDLE_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{24})$/;
const ATTENDEE_INSERT_BATCH = 200;

type Provider = 'rsvp' | 'tc';

const PROVIDER_BY_NAME: ReadonlyMap<string, Provider> = new Map([
  ['rsvp', 'rsvp'],
  ['tc', 'tc'],
  ['tribe-commerce', 'tc'],
  ['tpp', 'tc'],
]);

function providerOf(name: unknown): Provider | null {
  return typeof name === 'string' ? (PROVIDER_BY_NAME.get(name.trim().toLowerCase()) ?? null) : null;
}

export interface CartSettings {
  nonceSecret: string;
  maxTicketsPerOrder: number;
  orderHoldMinutes: number;
  currencyCode: string;
}

interface CartRow {
  id: number;
  updated_at: Date;
}

interface CartItemRow {
  ticket_id: number;
  quantity: number;
  optout: number | boolean;
  meta: string | null;
}

interface CartLine {
  ticketId: number;
  quantity: number;
  optout?: boolean;
  provider?: Provider;
}

/** Why `quantity` units of a ticket cannot be bought now, or null (the service's saleProblem). */
function saleProblem(ticket: TicketRow, eventStatus: string, pool: PoolRow | undefined, quantity: number, now: Date): SaleProblem | null {
  if (eventStatus !== 'publish') return 'event-not-selling';
  if (ticket.status !== 'publish') return 'ticket-not-published';
  if (ticket.sale_start_utc && now.getTime() < ticket.sale_start_utc.getTime()) return 'before-sale';
  if (ticket.sale_end_utc && now.getTime() > ticket.sale_end_utc.getTime()) return 'after-sale';
  const available = availableUnits(ticket, pool);
  if (available !== -1 && available < quantity) return 'not-enough-left';
  return null;
}

const isLive = (cart: CartRow, now: Date) => now.getTime() - cart.updated_at.getTime() < CART_IDLE_MS;

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isWholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * POST /cart and POST /cart/checkout for anonymous buyers identified by the cart token the
 * service issues (`random.HMAC(NONCE_SECRET, random)`, in X-Cart-Token or the cal_cart cookie).
 */
export class CartRoutes {
  constructor(
    private readonly db: Database,
    private readonly settings: CartSettings,
  ) {}

  private signature(random: string): string {
    return createHmac('sha256', this.settings.nonceSecret).update(`cal-cart-token|${random}`).digest('base64url').slice(0, 24);
  }

  issueToken(): string {
    const random = randomBytes(18).toString('base64url');
    return `${random}.${this.signature(random)}`;
  }

  /** The valid token of a request (header first, then cookie); tokens this secret did not sign are ignored. */
  requestToken(headers: Record<string, string | string[] | undefined>): string | null {
    const header = headers[CART_TOKEN_HEADER];
    const cookie = headers.cookie;
    for (const candidate of [Array.isArray(header) ? header[0] : header, readCookie(typeof cookie === 'string' ? cookie : undefined, CART_COOKIE)]) {
      if (typeof candidate !== 'string') continue;
      const match = TOKEN_PATTERN.exec(candidate.trim());
      if (match && timingSafeEqual(Buffer.from(match[2]), Buffer.from(this.signature(match[1])))) return candidate.trim();
    }
    return null;
  }

  /**
   * Sets the quantities of the listed tickets (0 removes one); all lines are checked before any is
   * saved. Answers the cart's lines of the request's provider and the buyer's token.
   */
  async write(body: unknown, token: string | null): Promise<{ cart: Record<string, unknown>; token: string }> {
    if (!isObject(body) || body.provider === undefined) throw missingParams(['provider']);
    const provider = providerOf(body.provider);
    if (!provider) throw invalidParam('provider', 'provider must be one of rsvp, tc, tribe-commerce, tpp');
    if (body.post_id !== undefined || (Array.isArray(body.meta) && body.meta.length > 0)) {
      throw new ApiFailure('rest_invalid_param', 'The baseline does not take post_id or meta.', 400);
    }
    const lines = this.readLines(body.tickets);
    const now = new Date();
    const cartToken = token ?? this.issueToken();
    const cart = await this.db.transaction(async (tx) => {
      const tickets = await this.loadTickets(tx, lines.map((line) => line.ticketId));
      for (const line of lines) {
        if (!tickets.has(line.ticketId)) throw ticketDoesNotExist(line.ticketId);
      }
      const wrongProvider: Record<string, string> = {};
      lines.forEach((line, index) => {
        const ticket = tickets.get(line.ticketId)!;
        const lineProvider = line.provider ?? provider;
        if (ticket.provider !== lineProvider) wrongProvider[`tickets[${index}][provider]`] = `ticket ${ticket.id} is sold by ${ticket.provider}, not ${lineProvider}`;
      });
      if (Object.keys(wrongProvider).length) throw invalidParams(wrongProvider);

      const cartId = await this.openCart(tx, cartToken, now);
      const quantities = new Map(
        (await tx.select<CartItemRow & { provider: string }>(cartQueries.items, [cartId])).map((item) => [item.ticket_id, { quantity: item.quantity, provider: item.provider }]),
      );
      for (const line of lines) {
        if (line.quantity === 0) quantities.delete(line.ticketId);
        else quantities.set(line.ticketId, { quantity: line.quantity, provider: tickets.get(line.ticketId)!.provider });
      }
      const totals = new Map<string, number>();
      for (const { quantity, provider: lineProvider } of quantities.values()) totals.set(lineProvider, (totals.get(lineProvider) ?? 0) + quantity);
      for (const total of totals.values()) {
        if (total > this.settings.maxTicketsPerOrder) throw invalidParam('tickets', `a cart holds at most ${this.settings.maxTicketsPerOrder} tickets of one provider`);
      }
      await this.checkAvailability(tx, lines, tickets, now);

      for (const line of lines) {
        if (line.quantity === 0) {
          await tx.write(cartQueries.removeLine, [cartId, line.ticketId]);
          continue;
        }
        const ticket = tickets.get(line.ticketId)!;
        await tx.write(line.optout === undefined ? cartQueries.upsertLine : cartQueries.upsertLineWithOptout, [cartId, line.ticketId, ticket.provider, line.quantity, line.optout ?? false, null]);
        await tx.select(cartQueries.upsertedLine, [cartId, line.ticketId]);
      }
      await tx.write(cartQueries.touch, [now, cartId]);
      return toCart(await tx.select<CartLineRow>(cartQueries.lines, [cartId, [provider]]));
    });
    return { cart, token: cartToken };
  }

  /**
   * The buyer's cart lines of one provider become an order and one attendee per unit, in one
   * transaction: capacity is taken with conditional UPDATEs, so concurrent checkouts never sell
   * more than there is (409 `ticket-capacity-not-available`, everything rolled back).
   */
  async checkout(body: unknown, token: string | null, context: RequestContext): Promise<Record<string, unknown>> {
    if (!isObject(body)) throw missingParams(['provider', 'purchaser']);
    const provider = providerOf(body.provider);
    if (!provider) throw invalidParam('provider', 'provider must be one of rsvp, tc, tribe-commerce, tpp');
    const purchaser = body.purchaser;
    if (!isObject(purchaser) || typeof purchaser.name !== 'string' || purchaser.name === '' || typeof purchaser.email !== 'string' || !purchaser.email.includes('@')) {
      throw invalidParam('purchaser', 'purchaser must be an object with name and email');
    }
    if (Array.isArray(body.attendees) ? body.attendees.length > 0 : body.attendees !== undefined) {
      throw new ApiFailure('rest_invalid_param', 'The baseline does not take attendees.', 400);
    }
    if (body.going !== undefined && typeof body.going !== 'boolean') throw invalidParam('going', 'going must be a boolean');
    if (body.going !== undefined && provider !== 'rsvp') throw invalidParam('going', 'going applies to RSVP checkouts only');
    if (!token) throw cartEmpty();
    const buyer = { token, name: purchaser.name, email: purchaser.email, going: provider === 'rsvp' ? body.going !== false : null };
    const now = new Date();
    return this.db.transaction((tx) => this.placeOrder(tx, provider, buyer, now, context));
  }

  private async placeOrder(
    tx: Transaction,
    provider: Provider,
    buyer: { token: string; name: string; email: string; going: boolean | null },
    now: Date,
    context: RequestContext,
  ): Promise<Record<string, unknown>> {
    const [cart] = await tx.select<CartRow>(cartQueries.byToken, [buyer.token]);
    if (!cart || !isLive(cart, now)) throw cartEmpty();
    const items = await tx.select<CartItemRow>(checkoutQueries.lockLines, [cart.id, provider]);
    if (items.length === 0) throw cartEmpty();

    const tickets = await this.loadTickets(tx, items.map((item) => item.ticket_id));
    const eventIds = [...new Set([...tickets.values()].map((ticket) => ticket.event_id))];
    const eventFacts = await tx.select<{ id: number; status: string; timezone: string }>(checkoutQueries.eventFacts, [eventIds]);
    const statuses = new Map(eventFacts.map((event) => [event.id, event.status]));
    const pools = await this.loadPools(tx, eventIds);
    for (const item of items) {
      const ticket = tickets.get(item.ticket_id)!;
      // Status and sale window only: capacity is decided by the conditional updates below.
      const problem = saleProblem(ticket, statuses.get(ticket.event_id) ?? 'trash', pools.get(ticket.event_id), 0, now);
      if (problem) throw ticketCapacityNotAvailable(ticket.id, problem);
    }
    const removed = await tx.write(checkoutQueries.removeLines, [cart.id, provider]);
    if (removed.affectedRows !== items.length) throw cartEmpty();

    const unitCents = (ticket: TicketRow) => (provider === 'rsvp' ? 0 : (moneyToCents(moneyColumn(ticket.price)) ?? 0));
    const totalCents = items.reduce((sum, item) => sum + unitCents(tickets.get(item.ticket_id)!) * item.quantity, 0);
    const status = totalCents === 0 ? 'completed' : 'pending';
    const written: string[] = [];
    if (buyer.going !== false) {
      const count = status === 'completed' ? 'sold' : 'pending';
      for (const item of items) {
        const ticket = tickets.get(item.ticket_id)!;
        if (!(await this.take(tx, ticket, item.quantity, count))) throw ticketCapacityNotAvailable(item.ticket_id);
        written.push('tickets', ...(ticket.capacity_mode === 'capped' || ticket.capacity_mode === 'global' ? ['ticket_pools'] : []));
      }
    }
    written.push('orders', 'order_items', 'attendees');
    // Cached counts of these scopes are stale once this commits.
    tx.afterCommit.push([countQueries.renew, [scopesWrittenBy(written)]]);

    const expiresAt = status === 'pending' ? new Date(now.getTime() + this.settings.orderHoldMinutes * 60_000) : null;
    const order = await tx.write(checkoutQueries.insertOrder, [
      provider,
      status,
      null,
      buyer.token,
      buyer.name,
      buyer.email,
      centsToMoney(totalCents),
      this.settings.currencyCode,
      expiresAt,
      status === 'completed' ? now : null,
      now,
      now,
    ]);
    const orderId = order.insertId;
    await tx.select(checkoutQueries.insertedOrder, [orderId]);
    await tx.write(
      checkoutQueries.insertOrderItems(items.length),
      items.flatMap((item) => [orderId, item.ticket_id, item.quantity, centsToMoney(unitCents(tickets.get(item.ticket_id)!))]),
    );

    const orderStatus = provider === 'rsvp' && status === 'completed' ? (buyer.going === false ? 'no' : 'yes') : status;
    const attendeeRows = items.flatMap((item) => {
      const ticket = tickets.get(item.ticket_id)!;
      const storedMeta = parseItems(item.meta);
      return Array.from({ length: item.quantity }, (_unit, unit) => {
        const meta = storedMeta[unit] ?? null;
        return [
          orderId,
          ticket.id,
          ticket.event_id,
          null,
          provider,
          'publish',
          orderStatus,
          buyer.going,
          buyer.name,
          buyer.email,
          randomBytes(16).toString('hex'),
          centsToMoney(unitCents(ticket)),
          item.optout === 1 || item.optout === true,
          meta === null ? null : JSON.stringify(meta),
          false,
          now,
          now,
        ];
      });
    });
    for (let start = 0; start < attendeeRows.length; start += ATTENDEE_INSERT_BATCH) {
      const batch = attendeeRows.slice(start, start + ATTENDEE_INSERT_BATCH);
      await tx.write(checkoutQueries.insertAttendees(batch.length), batch.flat());
    }

    const [orderRow] = await tx.select<OrderRow>(checkoutQueries.order, [orderId]);
    const attendees = await tx.select<AttendeeRow>(checkoutQueries.orderAttendees, [orderId]);
    return toOrder(orderRow, attendees, tickets, new Map(eventFacts.map((event) => [event.id, event.timezone])), context);
  }

  /** Takes units with conditional UPDATEs: the ticket's own room, then the event pool's for shared modes. */
  private async take(tx: Transaction, ticket: TicketRow, quantity: number, count: 'sold' | 'pending'): Promise<boolean> {
    const mode = ticket.capacity_mode;
    const values: unknown[] = [quantity, ticket.id, mode];
    if (mode === 'own' || mode === 'capped') values.push(quantity);
    const ticketResult = await tx.write(checkoutQueries.takeTicket(count, mode), values);
    if (!ticketResult.affectedRows) return false;
    if (mode !== 'capped' && mode !== 'global') return true;
    const poolResult = await tx.write(checkoutQueries.takePool(count), [quantity, ticket.event_id, quantity]);
    return poolResult.affectedRows > 0;
  }

  private readLines(raw: unknown): CartLine[] {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw invalidParam('tickets', 'tickets must be a list of {ticket_id, quantity}');
    const reasons: Record<string, string> = {};
    const seen = new Set<number>();
    const lines = raw.map((entry: unknown, index): CartLine => {
      const line = isObject(entry) ? entry : {};
      const ticketId = line.ticket_id;
      const quantity = line.quantity;
      if (!isWholeNumber(ticketId) || ticketId < 1) reasons[`tickets[${index}][ticket_id]`] = 'ticket_id must be a ticket id';
      if (!isWholeNumber(quantity) || quantity < 0) reasons[`tickets[${index}][quantity]`] = 'quantity must be a whole number';
      else if (quantity > this.settings.maxTicketsPerOrder) reasons[`tickets[${index}][quantity]`] = `quantity must be at most ${this.settings.maxTicketsPerOrder}`;
      if (isWholeNumber(ticketId) && seen.has(ticketId)) reasons[`tickets[${index}][ticket_id]`] = `ticket ${ticketId} is listed more than once`;
      if (isWholeNumber(ticketId)) seen.add(ticketId);
      const provider = line.provider === undefined ? undefined : providerOf(line.provider);
      if (provider === null) reasons[`tickets[${index}][provider]`] = 'provider must be one of rsvp, tc, tribe-commerce, tpp';
      return { ticketId: ticketId as number, quantity: quantity as number, optout: typeof line.optout === 'boolean' ? line.optout : undefined, provider: provider ?? undefined };
    });
    if (Object.keys(reasons).length) throw invalidParams(reasons);
    return lines;
  }

  private async loadTickets(tx: Transaction, ids: number[]): Promise<Map<number, TicketRow>> {
    if (ids.length === 0) return new Map();
    return new Map((await tx.select<TicketRow>(cartQueries.tickets, [[...new Set(ids)]])).map((ticket) => [ticket.id, ticket]));
  }

  private async loadPools(tx: Transaction, eventIds: number[]): Promise<Map<number, PoolRow>> {
    if (eventIds.length === 0) return new Map();
    return new Map((await tx.select<PoolRow>(poolQueries.byEvents, [eventIds])).map((pool) => [pool.event_id, pool]));
  }

  /** The buyer's cart id: found by token, created on the first write, started over after 24 idle hours. */
  private async openCart(tx: Transaction, token: string, now: Date): Promise<number> {
    let [cart] = await tx.select<CartRow>(cartQueries.byToken, [token]);
    if (!cart) {
      const inserted = await tx.write(cartQueries.insert, [null, token, null, now, now]);
      await tx.select(cartQueries.insertedCart, [inserted.insertId]);
      [cart] = await tx.select<CartRow>(cartQueries.byToken, [token]);
    } else if (!isLive(cart, now)) {
      await tx.write(cartQueries.emptyIdle, [cart.id]);
      await tx.write(cartQueries.restartIdle, [null, now, now, cart.id]);
    }
    return cart.id;
  }

  /** Every wanted line must be on sale with that many units left (nothing is reserved yet). */
  private async checkAvailability(tx: Transaction, lines: CartLine[], tickets: Map<number, TicketRow>, now: Date): Promise<void> {
    const wanted = lines.filter((line) => line.quantity > 0);
    if (wanted.length === 0) return;
    const eventIds = [...new Set(wanted.map((line) => tickets.get(line.ticketId)!.event_id))];
    const statuses = new Map((await tx.select<{ id: number; status: string }>(cartQueries.eventStatuses, [eventIds])).map((event) => [event.id, event.status]));
    const pools = await this.loadPools(tx, eventIds);
    for (const line of wanted) {
      const ticket = tickets.get(line.ticketId)!;
      const problem = saleProblem(ticket, statuses.get(ticket.event_id) ?? 'trash', pools.get(ticket.event_id), line.quantity, now);
      if (problem) throw ticketCapacityNotAvailable(ticket.id, problem);
    }
  }
}

function parseItems(meta: string | null): unknown[] {
  if (meta === null) return [];
  try {
    const parsed: unknown = JSON.parse(meta);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export { CART_COOKIE };
