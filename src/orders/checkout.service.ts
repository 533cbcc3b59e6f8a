import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Attendee } from '../attendees/attendee.entity';
import { AttendeeQuestionsService } from '../attendee-questions/attendee-questions.service';
import { generateCheckinSecret } from '../checkin/checkin-secrets';
import { ticketCapacityNotAvailable, ticketDoesNotExist, ticketOverOrderLimit } from '../cart/cart-errors';
import { Buyer, buyerScope } from '../cart/cart-identity';
import { parseStoredItems } from '../cart/cart.mapper';
import { CartService } from '../cart/cart.service';
import { normalizeProvider } from '../cart/cart-providers';
import { CartItem } from '../cart/cart.entity';
import { CLOCK, Clock } from '../common/clock';
import { DomainEvents } from '../common/domain-events/domain-events';
import { CouponsService } from '../coupons/coupons.service';
import { isUniqueViolation } from '../common/database/transactions';
import { ADMISSION_GATE, AdmissionGate, NO_GATE } from '../cart/admission-gate';
import { invalidParam, invalidParams } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { appConfig } from '../config/app.config';
import { MetricsService } from '../metrics/metrics.service';
import { PaymentsService } from '../payments/payments.service';
import { CapacityCount, CapacityLine, CapacityService } from '../tickets/capacity.service';
import type { CodeAttemptSource } from '../common/throttling/code-attempts.service';
import { Ticket, TicketProvider } from '../tickets/ticket.entity';
import { saleProblem } from '../tickets/ticket-sale';
import { WaitlistOffersService } from '../waitlist/waitlist-offers.service';
import { CheckoutCatalog } from './checkout-catalog';
import { CheckoutAttendeeDto, CheckoutDto } from './dto/checkout.dto';
import { IdempotencyService, StoredResponse } from './idempotency.service';
import { DoorPaymentMethod, Order, OrderItem } from './order.entity';
import { couponLines, orderCouponColumns, OrderPricing, paidAtTheDoor, priceOrder, rsvpGoing } from './order-pricing';
import { cartEmpty } from './order-errors';
import { attendeeOrderStatus } from './order-status';
import { OrderRelations, toOrderResponse } from './orders.mapper';
import { AttendeeRow, OrdersRepository } from './orders.repository';
import type { OrderResponse } from './dto/order.response';
import { bodyHash } from './webhook-signature';
import { TransactionHost } from '../common/database/transaction-host';

const SECURITY_CODE_BYTES = 16;
/** A TEXT column holds 65,535 bytes; one attendee's registration answers must fit. */
const MAX_META_BYTES = 65_535;

export interface CheckoutResult {
  statusCode: number;
  body: OrderResponse;
  /** True when this is the stored answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface CheckoutRequest {
  buyer: Buyer;
  body: CheckoutDto;
  /** The body as the client sent it, for telling a retry from a reuse of the key. */
  rawBody: unknown;
  idempotencyKey: string | undefined;
  context: RequestContext;
}

interface PlacedOrder {
  response: OrderResponse;
  capacity: { lines: CapacityLine[]; count: CapacityCount } | null;
  /** The coupon uses to take (units it covers), taken right before the capacity. */
  couponUses: { couponId: number; units: number } | null;
  /** The order's tickets, as checked out. */
  tickets: ReadonlyMap<number, Ticket>;
}

/** What a walk-in sale asks of checkout (placeDoorSale). */
export interface DoorSale {
  ticketId: number;
  quantity: number;
  paymentMethod: DoorPaymentMethod;
  /** The holder of every unit; an empty email sends no email. */
  purchaser: { name: string; email: string };
  /** The code entered, trimmed; null for none. */
  coupon: string | null;
  /** Whom a wrong code counts against (coupon attempts are limited at the door as online). */
  codeSource: CodeAttemptSource;
  /** The door's own rules on the ticket read (its list admits it); throws to refuse. */
  assertSellable(ticket: Ticket): void;
  /** The door's rule on the method for this total (`free` only for 0); throws to refuse. */
  assertPayment(totalMinor: number): void;
}

/** A walk-in sale placed, its capacity and coupon uses still to take (takeLast). */
export interface PlacedDoorSale extends Pick<PlacedOrder, 'capacity' | 'couponUses' | 'tickets'> {
  order: Order;
  attendees: Attendee[];
  ticket: Ticket;
}

/** A DATETIME column without fractions stores whole seconds. */
function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

interface Holder {
  name: string;
  email: string;
  meta: unknown;
}

/**
 * Turns the buyer's cart lines of one provider into an order and its attendees, in one transaction:
 * the rows are inserted first and capacity is taken last with conditional updates on counter rows
 * no foreign key references, so concurrent checkouts never oversell and wait for each other only
 * from that update to the commit; any failure rolls everything back, the cart included.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly carts: CartService,
    private readonly capacity: CapacityService,
    private readonly idempotency: IdempotencyService,
    private readonly metrics: MetricsService,
    private readonly domainEvents: DomainEvents,
    private readonly catalog: CheckoutCatalog,
    private readonly waitlistOffers: WaitlistOffersService,
    private readonly coupons: CouponsService,
    private readonly questions: AttendeeQuestionsService,
    private readonly payments: PaymentsService,
    private readonly orders: OrdersRepository,
    @Optional() @Inject(ADMISSION_GATE) private readonly gate: AdmissionGate = NO_GATE,
  ) {}

  async checkout(request: CheckoutRequest): Promise<CheckoutResult> {
    const { buyer, body, idempotencyKey } = request;
    const provider = normalizeProvider(body.provider) as TicketProvider;
    if (body.going !== undefined && provider !== 'rsvp') throw invalidParam('going', 'going applies to RSVP checkouts only');
    const scope = buyerScope(buyer);
    // A buyer without a cart token has never written a cart: nothing to check out, nothing to remember.
    if (!scope) throw cartEmpty();
    const now = this.clock.now();
    const requestHash = idempotencyKey ? bodyHash(request.rawBody) : '';
    // With an Idempotency-Key, the answer is remembered by one INSERT with the order's writes; a
    // retry finds the key taken (or its cart's lines gone) and is answered from it below.
    const place = (replaceStaleKey: boolean) =>
      this.tx.run(async () => {
        if (idempotencyKey && replaceStaleKey) await this.idempotency.forgetStale(scope, idempotencyKey, now);
        const placed = await this.placeOrder(request, provider, now);
        if (idempotencyKey)
          await this.idempotency.remember(scope, idempotencyKey, requestHash, { statusCode: 201, body: placed.response }, now);
        await this.takeLast(placed);
        // Held writes (MariaDB) have been sent: the answer gets the ids they generated.
        return this.tx.resolveHeldIds(placed.response);
      });
    let order: OrderResponse;
    try {
      order = await place(false);
    } catch (error) {
      if (!idempotencyKey) throw error;
      const found = await this.idempotency.lookup(scope, idempotencyKey, requestHash, now);
      if (found.response) return this.replay(found.response, request.context);
      // A key older than a day counts as never used: it is replaced.
      if (!(found.exists && isUniqueViolation(error))) throw error;
      try {
        order = await place(true);
      } catch (again) {
        const stored = await this.idempotency.find(scope, idempotencyKey, requestHash, now);
        if (!stored) throw again;
        return this.replay(stored, request.context);
      }
    }
    // Free orders are sold at checkout (RSVP "not going" answers take nothing); paid ones when completed.
    if (order.status === 'completed' && body.going !== false) this.metrics.ticketsSold(provider, order.attendees.length);
    // After the commit: no database lock is held over the call to the payment provider.
    return { statusCode: 201, body: await this.payments.attachPayment(order, request.context), replayed: false };
  }

  /** The stored answer to an earlier request with the same Idempotency-Key, with its payment as it is now. */
  private async replay(stored: StoredResponse, context: RequestContext): Promise<CheckoutResult> {
    const body = await this.payments.attachPayment(stored.body as OrderResponse, context);
    return { statusCode: stored.statusCode, body, replayed: true };
  }

  /**
   * Last, right before COMMIT: the counter rows every other buyer of these tickets waits for are
   * locked from here to the commit only (one UPDATE per ticket and pool, in a fixed order; a second
   * one, and the sold-out notice the capacity module publishes, only for the take that empties a row). On MariaDB the take may
   * commit the transaction itself (CapacityService.takeAllAndFinish): everything else the
   * transaction writes must be written before this.
   */
  async takeLast(placed: Pick<PlacedOrder, 'capacity' | 'couponUses' | 'tickets'>): Promise<void> {
    if (placed.couponUses) await this.coupons.takeUses(placed.couponUses.couponId, placed.couponUses.units);
    if (placed.capacity) {
      const { lines, count } = placed.capacity;
      const take = (await this.capacity.takeAllAndFinish(lines, count)) ?? (await this.capacity.takeAll(lines, count));
      if (take.short !== null) throw ticketCapacityNotAvailable(take.short);
    }
    // Writes still held (nothing to take, as for RSVP "not going"): sent now, in one statement.
    await this.tx.sendHeldWrites();
  }

  /**
   * A walk-in sale at the door (src/door-sales), in the caller's transaction: one line of a ticket
   * placed as a completed order, paid at the door, with the web checkout's rules: the ticket on
   * sale now (status, sale window, event published), at most MAX_TICKETS_PER_ORDER units, its
   * price, the coupon's checks and discount (hidden tickets only with a code revealing them). The
   * caller writes what else it must, then calls takeLast, which takes the coupon's uses and the
   * capacity and refuses (409) when not enough is left. Registration questions are not asked.
   */
  async placeDoorSale(sale: DoorSale, now: Date): Promise<PlacedDoorSale> {
    const max = this.config.tickets.maxTicketsPerOrder;
    if (sale.quantity > max) throw ticketOverOrderLimit(sale.ticketId, max);
    const entry = (await this.catalog.tickets([sale.ticketId])).get(sale.ticketId);
    if (!entry) throw ticketDoesNotExist(sale.ticketId);
    sale.assertSellable(entry.ticket);
    const problem = saleProblem(entry.ticket, entry.eventStatus, CapacityService.stateOf(entry.ticket, undefined), 0, now);
    if (problem) throw ticketCapacityNotAvailable(entry.ticket.id, problem);
    const provider = entry.ticket.provider;
    const tickets = new Map([[entry.ticket.id, entry.ticket]]);
    const items = [doorSaleLine(entry.ticket, sale.quantity)];
    const couponId = sale.coupon === null ? null : (await this.coupons.usableByCode(sale.coupon, sale.codeSource)).id;
    const coupon = await this.coupons.priceCheckout(couponId, couponLines(items, tickets, provider, rsvpGoing(provider, undefined)));
    const pricing = paidAtTheDoor(priceOrder(items, tickets, provider, undefined, coupon));
    sale.assertPayment(pricing.totalMinor);

    const order = await this.orders.insert(
      Object.assign(new Order(), {
        provider,
        status: pricing.status,
        userId: null,
        cartToken: null,
        purchaserName: sale.purchaser.name,
        purchaserEmail: sale.purchaser.email,
        totalMinor: pricing.totalMinor,
        currency: this.config.currency.code,
        paymentMethod: sale.paymentMethod,
        ...orderCouponColumns(pricing.coupon),
        expiresAt: null,
        completedAt: wholeSeconds(now),
        createdAt: now,
        updatedAt: now,
      }),
    );
    await this.orders.insertItems(orderItemRows(order.id, items, tickets, pricing));
    const holders = new Map([[entry.ticket.id, Array.from({ length: sale.quantity }, () => ({ ...sale.purchaser, meta: null }))]]);
    const attendees = await this.orders.insertAttendees(
      attendeeRows(order, items, tickets, holders, { kind: 'guest', token: null }, pricing, now),
    );
    // The order's notifications (order.placed: the confirmation email when it has an address; webhooks).
    await this.domainEvents.publish({ kind: 'OrderPlaced', order, attendees });
    return {
      order,
      attendees,
      ticket: entry.ticket,
      capacity: pricing.capacity,
      couponUses: pricing.coupon ? { couponId: pricing.coupon.coupon.id, units: pricing.coupon.discounts.units } : null,
      tickets,
    };
  }

  /** Counts the units a committed walk-in sale sold, as checkout counts its free orders. */
  doorSaleCommitted(placed: PlacedDoorSale): void {
    this.metrics.ticketsSold(placed.order.provider, placed.attendees.length);
  }

  /**
   * Inserts the order, its items and attendees and empties the cart lines; returns the answer and
   * the capacity to take (none for RSVP "not going"), which the caller takes last. The statements
   * run in this order: the cart lines locked, the tickets (and a coupon) read, the lines removed,
   * then the order, its items and its attendees inserted and the notifications written. On MariaDB
   * the writes are held until the take (their ids in the answer are stand-ins until then).
   */
  private async placeOrder(request: CheckoutRequest, provider: TicketProvider, now: Date): Promise<PlacedOrder> {
    const { buyer, body } = request;
    const { items, couponId } = await this.carts.lockLiveCart(buyer, provider);
    if (items.length === 0) throw cartEmpty();
    const cartId = items[0].cartId;
    const holders = this.assignHolders(items, body);
    const { tickets, eventTimezones } = await this.readSaleableTickets(items, now);
    this.questions.checkCheckoutAnswers(holders, tickets);
    // Waiting rooms (src/queues): the units of queued tickets are taken from the buyer's admission.
    const gated = items.map((item) => ({
      ticketId: item.ticketId,
      eventId: (tickets.get(item.ticketId) as Ticket).eventId,
      quantity: item.quantity,
    }));
    await this.gate.takeAtCheckout({ lines: gated, token: request.context.queueToken, user: request.context.user, now });
    const going = rsvpGoing(provider, body.going);
    const coupon = await this.coupons.priceCheckout(couponId, couponLines(items, tickets, provider, going));
    const pricing = priceOrder(items, tickets, provider, body.going, coupon);

    // Everything read: on MariaDB the writes from here on are held and sent with the capacity's
    // take, in one statement (held-writes.ts); the order's and attendees' ids are stand-ins until
    // then. A waitlist offer is read and locked with the order's id at hand: such orders are written as they go.
    if (!items.some((item) => item.waitlistOffer)) this.tx.holdWrites();
    // Another checkout of the same cart may have taken these lines since they were read (SQLite).
    await this.carts.removeLines(cartId, provider, items.length, cartEmpty);
    const order = await this.insertOrder(request, provider, pricing, now);
    // Lines redeeming a waitlist offer: its held units become the order's; only the rest is taken last.
    const capacity = await this.waitlistOffers.redeem(order.id, items, pricing.capacity, now);
    await this.orders.insertItems(orderItemRows(order.id, items, tickets, pricing));
    const attendees = await this.orders.insertAttendees(attendeeRows(order, items, tickets, holders, buyer, pricing, now));

    const relations: OrderRelations = { attendees, tickets, eventTimezones };
    // Before capacity is taken: the notifications are rows of this transaction, gone if it rolls back.
    await this.domainEvents.publish({ kind: 'OrderPlaced', order, attendees });
    await this.payments.orderPlaced(order, pricing.totalMinor);
    return {
      response: toOrderResponse(order, relations, request.context, this.config.currency),
      capacity,
      couponUses: pricing.coupon ? { couponId: pricing.coupon.coupon.id, units: pricing.coupon.discounts.units } : null,
      tickets,
    };
  }

  /**
   * The tickets of the cart lines, each on sale now (status and sale window only: no units asked,
   * so no counts read; capacity is decided by the conditional updates the caller runs last).
   */
  private async readSaleableTickets(
    items: CartItem[],
    now: Date,
  ): Promise<{ tickets: Map<number, Ticket>; eventTimezones: Map<number, string> }> {
    const catalog = await this.catalog.tickets(items.map((item) => item.ticketId));
    const tickets = new Map<number, Ticket>();
    const eventTimezones = new Map<number, string>();
    for (const item of items) {
      const entry = catalog.get(item.ticketId);
      // The cart line's foreign key keeps its ticket; a ticket deleted meanwhile took its lines along.
      if (!entry) throw cartEmpty();
      tickets.set(entry.ticket.id, entry.ticket);
      eventTimezones.set(entry.ticket.eventId, entry.eventTimezone);
      const problem = saleProblem(entry.ticket, entry.eventStatus, CapacityService.stateOf(entry.ticket, undefined), 0, now);
      if (problem) throw ticketCapacityNotAvailable(entry.ticket.id, problem);
    }
    return { tickets, eventTimezones };
  }

  /** The order row, inserted as stored, so that the answer needs no read back: DATETIME columns keep whole seconds. */
  private async insertOrder({ buyer, body }: CheckoutRequest, provider: TicketProvider, pricing: OrderPricing, now: Date): Promise<Order> {
    const { status } = pricing;
    const order = Object.assign(new Order(), {
      provider,
      status,
      userId: buyer.kind === 'user' ? buyer.userId : null,
      cartToken: buyer.kind === 'guest' ? buyer.token : null,
      purchaserName: body.purchaser.name,
      purchaserEmail: body.purchaser.email,
      totalMinor: pricing.totalMinor,
      currency: this.config.currency.code,
      paymentMethod: 'online',
      ...orderCouponColumns(pricing.coupon),
      expiresAt: status === 'pending' ? wholeSeconds(new Date(now.getTime() + this.config.tickets.orderHoldMinutes * 60_000)) : null,
      completedAt: status === 'completed' ? wholeSeconds(now) : null,
      createdAt: now,
      updatedAt: now,
    });
    return this.orders.insert(order);
  }

  /**
   * The holder of every unit, per ticket: the `attendees` given for that ticket in order, then the
   * purchaser. Registration answers come from the attendee entry, else from the cart's stored meta
   * for that unit. Entries for tickets not checked out, or more entries than units, are a 400.
   */
  private assignHolders(items: CartItem[], body: CheckoutDto): Map<number, Holder[]> {
    const entries = new Map<number, Array<{ entry: CheckoutAttendeeDto; index: number }>>();
    const reasons: Record<string, string> = {};
    const quantities = new Map(items.map((item) => [item.ticketId, item.quantity]));
    (body.attendees ?? []).forEach((entry, index) => {
      const list = entries.get(entry.ticket_id) ?? [];
      list.push({ entry, index });
      entries.set(entry.ticket_id, list);
      const quantity = quantities.get(entry.ticket_id);
      if (quantity === undefined) reasons[`attendees[${index}][ticket_id]`] = `ticket ${entry.ticket_id} is not in the cart`;
      else if (list.length > quantity)
        reasons[`attendees[${index}][ticket_id]`] = `more attendees than the ${quantity} ticket(s) ${entry.ticket_id} in the cart`;
      if (entry.meta !== undefined && Buffer.byteLength(JSON.stringify(entry.meta)) > MAX_META_BYTES) {
        reasons[`attendees[${index}][meta]`] = `meta must be at most ${MAX_META_BYTES} bytes of JSON`;
      }
    });
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);

    const holders = new Map<number, Holder[]>();
    for (const item of items) {
      const given = entries.get(item.ticketId) ?? [];
      const storedMeta = parseStoredItems(item.meta) ?? [];
      const units: Holder[] = [];
      for (let unit = 0; unit < item.quantity; unit += 1) {
        const entry = given[unit]?.entry;
        units.push({
          name: entry?.name ?? body.purchaser.name,
          email: entry?.email ?? body.purchaser.email,
          meta: entry?.meta ?? storedMeta[unit] ?? null,
        });
      }
      holders.set(item.ticketId, units);
    }
    return holders;
  }
}

/** The one line a walk-in sale checks out, shaped as a cart line for the checkout's pricing. */
function doorSaleLine(ticket: Ticket, quantity: number): CartItem {
  return Object.assign(new CartItem(), {
    cartId: 0,
    ticketId: ticket.id,
    provider: ticket.provider,
    quantity,
    optout: false,
    meta: null,
    waitlistOffer: null,
  });
}

/** One order item per cart line, at the unit price the order charges. */
function orderItemRows(
  orderId: number,
  items: CartItem[],
  tickets: Map<number, Ticket>,
  pricing: OrderPricing,
): Array<Pick<OrderItem, 'orderId' | 'ticketId' | 'quantity' | 'unitPriceMinor'>> {
  return items.map((item) => ({
    orderId,
    ticketId: item.ticketId,
    quantity: item.quantity,
    unitPriceMinor: pricing.unitPrice(tickets.get(item.ticketId) as Ticket),
  }));
}

/** One attendee row per unit, each with its holder and a fresh security code. */
function attendeeRows(
  order: Order,
  items: CartItem[],
  tickets: Map<number, Ticket>,
  holders: Map<number, Holder[]>,
  buyer: Buyer,
  pricing: OrderPricing,
  now: Date,
): AttendeeRow[] {
  const { going } = pricing;
  return items.flatMap((item) => {
    const ticket = tickets.get(item.ticketId) as Ticket;
    return (holders.get(item.ticketId) as Holder[]).map((holder) => ({
      orderId: order.id,
      ticketId: ticket.id,
      eventId: ticket.eventId,
      userId: buyer.kind === 'user' ? buyer.userId : null,
      provider: order.provider,
      status: 'publish',
      orderStatus: attendeeOrderStatus(order.provider, pricing.status, going),
      rsvpGoing: going,
      holderName: holder.name,
      holderEmail: holder.email,
      securityCode: randomBytes(SECURITY_CODE_BYTES).toString('hex'),
      checkinSecret: generateCheckinSecret(),
      checkinRevokedAt: null,
      checkinBlocked: false,
      pricePaidMinor: pricing.unitPrice(ticket),
      optout: item.optout,
      meta: holder.meta === undefined || holder.meta === null ? null : JSON.stringify(holder.meta),
      couponCode: pricing.coupon && pricing.coupon.discounts.perUnit.has(ticket.id) ? pricing.coupon.coupon.code : null,
      discountMinor: pricing.unitDiscount(ticket),
      checkedIn: false,
      checkedInAt: null,
      checkinSource: null,
      checkinUserId: null,
      createdAt: now,
      updatedAt: now,
    }));
  });
}
