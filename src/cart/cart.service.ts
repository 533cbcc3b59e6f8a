import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../common/clock';
import type { CodeAttemptSource } from '../common/throttling/code-attempts.service';
import { ADMISSION_GATE, AdmissionGate, NO_GATE } from './admission-gate';
import { invalidParam, invalidParams } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { toList } from '../common/http/transforms';
import { appConfig } from '../config/app.config';
import { AttendeeQuestionsService } from '../attendee-questions/attendee-questions.service';
import type { Coupon } from '../coupons/coupon.entity';
import { couponNotValid, couponRequired } from '../coupons/coupon-errors';
import { toAppliedCoupon } from '../coupons/coupons.mapper';
import { CouponsService } from '../coupons/coupons.service';
import { CapacityService } from '../tickets/capacity.service';
import { Ticket, TicketProvider } from '../tickets/ticket.entity';
import { saleProblem } from '../tickets/ticket-sale';
import { WaitlistOffersService } from '../waitlist/waitlist-offers.service';
import { Cart, CartItem } from './cart.entity';
import { postHasNoTickets, ticketCapacityNotAvailable, ticketDoesNotExist, ticketOverOrderLimit } from './cart-errors';
import { Buyer, buyerScope, idleCutoff, issueCartToken } from './cart-identity';
import { CartCouponView, CartLineView, toCartResponse } from './cart.mapper';
import { CartRepository, TicketSaleState } from './cart.repository';
import type { CartResponse } from './dto/cart.response';
import { normalizeProvider } from './cart-providers';
import { GetCartQuery } from './dto/get-cart.query';
import { CartTicketLineDto, CartTicketMetaDto, UpdateCartDto } from './dto/update-cart.dto';
import { TransactionHost } from '../common/database/transaction-host';

/** A TEXT column holds 65,535 bytes; registration answers of one ticket must fit. */
const MAX_META_BYTES = 65_535;

export interface CartWriteResult {
  cart: CartResponse;
  /** The anonymous buyer's token (new on their first write); null for signed-in buyers. */
  token: string | null;
}

/**
 * How often a cart's `updated_at` (its idle clock) is moved by writes: a buyer adding tickets many
 * times a minute, as in a flash sale, updates the cart row once, not at every write.
 */
const CART_TOUCH_INTERVAL_MS = 60_000;

/**
 * The cart's lines once `lines` are applied to `existing`, by ticket id: a quantity of 0 removes
 * a line; an existing line keeps its registration answers and, unless the write names it, its opt-out.
 */
function applyLines(existing: CartLineView[], lines: CartTicketLineDto[], tickets: Map<number, Ticket>): Map<number, CartLineView> {
  const resulting = new Map(existing.map((line) => [line.ticketId, line]));
  for (const line of lines) {
    if (line.quantity === 0) {
      resulting.delete(line.ticket_id);
      continue;
    }
    const ticket = tickets.get(line.ticket_id) as Ticket;
    const before = resulting.get(line.ticket_id);
    resulting.set(line.ticket_id, {
      ticketId: ticket.id,
      provider: ticket.provider,
      quantity: line.quantity,
      optout: line.optout ?? before?.optout ?? false,
      meta: before?.meta ?? null,
      eventId: ticket.eventId,
      iac: ticket.iac,
      priceMinor: ticket.priceMinor,
      hidden: ticket.hiddenWithoutCoupon,
    });
  }
  return resulting;
}

/**
 * The buyer's cart, kept in the database so that any instance serves it (decisions.md "Providers,
 * orders and capacity"). Writes replace the quantities of the tickets they list and are validated
 * as a whole before anything is saved.
 */
@Injectable()
export class CartService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly waitlistOffers: WaitlistOffersService,
    private readonly coupons: CouponsService,
    private readonly questions: AttendeeQuestionsService,
    private readonly carts: CartRepository,
    @Optional() @Inject(ADMISSION_GATE) private readonly gate: AdmissionGate = NO_GATE,
  ) {}

  async get(buyer: Buyer, query: GetCartQuery, context: RequestContext): Promise<CartResponse> {
    if (query.post_id !== undefined) {
      await this.assertEventExists(query.post_id);
      await this.assertEventHasTickets(query.post_id);
    }
    const providers = query.provider === undefined ? undefined : this.providerFilter(query.provider);
    const cart = await this.findLiveCart(buyer);
    const lines = cart && providers?.length !== 0 ? await this.carts.lines(cart.id, { providers, eventId: query.post_id }) : [];
    const coupon = cart?.couponId ? await this.coupons.findById(cart.couponId) : null;
    return toCartResponse(lines, query.post_id, context, coupon ? await this.couponView(coupon, lines) : null);
  }

  async update(buyer: Buyer, body: UpdateCartDto, context: RequestContext): Promise<CartWriteResult> {
    const provider = normalizeProvider(body.provider) as TicketProvider;
    const lines = body.tickets ?? [];
    const metaEntries = body.meta ?? [];
    this.checkShape(lines, metaEntries);
    const now = this.clock.now();
    return this.tx.run(async () => {
      if (body.post_id !== undefined) await this.assertEventExists(body.post_id);
      const states = await this.carts.saleStates([...lines.map((line) => line.ticket_id), ...metaEntries.map((entry) => entry.ticket_id)]);
      for (const line of lines) {
        if (!states.has(line.ticket_id)) throw ticketDoesNotExist(line.ticket_id);
      }
      // As the original: a known ticket in a quantity no order may hold is not available in it.
      const overLimit = lines.find((line) => line.quantity > this.config.tickets.maxTicketsPerOrder);
      if (overLimit) throw ticketOverOrderLimit(overLimit.ticket_id, this.config.tickets.maxTicketsPerOrder);
      const tickets = new Map([...states].map(([id, state]) => [id, state.ticket]));
      this.checkProviders(lines, provider, tickets);
      this.questions.checkCartMeta(metaEntries, tickets);
      if (body.post_id !== undefined) await this.assertEventHasTickets(body.post_id);
      // Looked up only when the write names one: a cart without a coupon costs no statement more.
      const enteredCoupon = await this.enteredCoupon(body.coupon, {
        address: context.clientAddress,
        cart: buyerScope(buyer) ?? undefined,
      });

      const { cart, token, fresh } = await this.openCart(buyer, now);
      const coupon = enteredCoupon !== undefined ? enteredCoupon : await this.storedCoupon(fresh ? null : cart.couponId);
      const before = fresh ? [] : await this.carts.lines(cart.id, {});
      await this.checkHiddenTickets(lines, tickets, coupon, before, enteredCoupon !== undefined);
      const resulting = applyLines(before, lines, tickets);
      const quantities = new Map(
        [...resulting].map(([ticketId, line]) => [ticketId, { quantity: line.quantity, provider: line.provider }]),
      );
      this.checkMetaTargets(metaEntries, quantities);
      this.checkTotals(quantities);
      // Waiting rooms (src/queues): raising a line of a queued ticket needs the queue's admission.
      const previous = new Map(before.map((line) => [line.ticketId, line.quantity]));
      const raised = new Set(lines.filter((line) => line.quantity > (previous.get(line.ticket_id) ?? 0)).map((line) => line.ticket_id));
      if (raised.size > 0) {
        const gated = [...resulting.values()].map((line) => ({ ticketId: line.ticketId, eventId: line.eventId, quantity: line.quantity }));
        await this.gate.checkCartWrite({ lines: gated, raised, token: context.queueToken, user: context.user, now });
      }
      if (coupon) await this.checkCouponUses(coupon, lines, before, resulting, enteredCoupon !== undefined);
      // Units a waitlist offer holds for a line are not asked of what is left (docs/waitlist.md).
      const covered = await this.waitlistOffers.coveredByOffers(cart.id, body.waitlist_offer, lines, tickets);
      await this.checkAvailability(lines, states, quantities, now, covered);

      await this.saveLines(cart.id, lines, tickets);
      await this.saveMeta(cart.id, metaEntries);
      await this.waitlistOffers.attachToCart(cart.id, body.waitlist_offer);
      if (enteredCoupon !== undefined) {
        await this.carts.setCoupon(cart.id, enteredCoupon?.id ?? null, now);
      } else if (!fresh && now.getTime() - cart.updatedAt.getTime() >= CART_TOUCH_INTERVAL_MS) {
        await this.carts.touch(cart.id, now);
      }
      for (const entry of metaEntries) {
        const line = resulting.get(entry.ticket_id) as CartLineView;
        line.meta = entry.items.length === 0 ? null : JSON.stringify(entry.items);
      }
      const view = [...resulting.values()]
        .filter((line) => line.provider === provider && (body.post_id === undefined || line.eventId === body.post_id))
        .sort((a, b) => a.ticketId - b.ticketId);
      return { cart: toCartResponse(view, body.post_id, context, coupon ? await this.couponView(coupon, view) : null), token };
    });
  }

  // ---------------------------------------------------------------- coupons (src/coupons)

  /**
   * The coupon a write names: undefined when it names none, null when it removes it (`""` or null).
   * Wrong codes count against the client's address and the cart (CodeAttempts: 429 past the limit).
   */
  private async enteredCoupon(code: string | null | undefined, source: CodeAttemptSource): Promise<Coupon | null | undefined> {
    if (code === undefined) return undefined;
    if (code === null || code.trim() === '') return null;
    return this.coupons.usableByCode(code.trim(), source);
  }

  private async storedCoupon(couponId: number | null | undefined): Promise<Coupon | null> {
    return couponId ? this.coupons.findById(couponId) : null;
  }

  /**
   * Tickets flagged `hidden_without_coupon` exist, for a cart, only with a code that reveals them:
   * one the cart does not hold yet is 404 as an unknown ticket (nothing told to a buyer without the
   * code). A write that changes the code (removes or replaces it) must leave one that reveals every
   * such ticket the cart keeps, and a line of one the cart holds is changed only while its code
   * reveals it: 409 `coupon-required` otherwise, naming the ticket (the buyer saw it with the code).
   */
  private async checkHiddenTickets(
    lines: CartTicketLineDto[],
    tickets: Map<number, Ticket>,
    coupon: Coupon | null,
    before: CartLineView[],
    codeChanged: boolean,
  ): Promise<void> {
    const named = new Map(lines.map((line) => [line.ticket_id, line.quantity]));
    const written = lines
      .filter((line) => line.quantity > 0 && tickets.get(line.ticket_id)?.hiddenWithoutCoupon)
      .map((line) => line.ticket_id);
    const kept = codeChanged ? before.filter((line) => line.hidden && named.get(line.ticketId) !== 0).map((line) => line.ticketId) : [];
    const hidden = [...new Set([...written, ...kept])];
    if (hidden.length === 0) return;
    const revealed = coupon?.revealsHidden === true ? await this.coupons.coveredTickets(coupon, hidden) : new Set<number>();
    const inCart = new Set(before.map((line) => line.ticketId));
    const refused = hidden.find((ticketId) => !revealed.has(ticketId));
    if (refused === undefined) return;
    throw inCart.has(refused) ? couponRequired(refused) : ticketDoesNotExist(refused);
  }

  /**
   * A cart never holds more units of the tickets its coupon covers than the coupon has uses left
   * (per provider, as one checkout takes them): 400 `coupon-not-valid` naming `coupon` when the
   * write enters the code, else the quantity that asks for more. Checked only when the write enters
   * a code or raises a covered line: a cart whose code others used up meanwhile may still shrink.
   * Checkout checks again and takes the uses atomically.
   */
  private async checkCouponUses(
    coupon: Coupon,
    lines: CartTicketLineDto[],
    before: CartLineView[],
    resulting: Map<number, CartLineView>,
    codeEntered: boolean,
  ): Promise<void> {
    const previous = new Map(before.map((line) => [line.ticketId, line.quantity]));
    const raised = lines.filter((line) => line.quantity > (previous.get(line.ticket_id) ?? 0));
    if (!codeEntered && raised.length === 0) return;
    const short = await this.coupons.shortOfUses(coupon, [...resulting.values()]);
    if (!short) return;
    if (codeEntered) throw couponNotValid('used-up', 'coupon', short.usesLeft);
    const index = lines.findIndex((line) => raised.includes(line) && short.covered.has(line.ticket_id));
    // The write raised only lines the code does not cover: the cart was already over (others used the code meanwhile).
    if (index === -1) return;
    throw couponNotValid('used-up', `tickets[${index}][quantity]`, short.usesLeft);
  }

  private async couponView(coupon: Coupon, lines: CartLineView[]): Promise<CartCouponView> {
    const discounts = await this.coupons.cartDiscounts(
      coupon,
      lines.map((line) => ({
        ticketId: line.ticketId,
        quantity: line.quantity,
        priceMinor: line.provider === 'rsvp' ? 0 : line.priceMinor,
      })),
    );
    const { exponent } = this.config.currency;
    return { coupon: toAppliedCoupon(coupon, exponent), perUnit: discounts.perUnit, exponent };
  }

  /** The buyer's cart unless it has none or it has been idle too long (an expired cart reads as empty). */
  async findLiveCart(buyer: Buyer): Promise<Cart | null> {
    const cart = await this.carts.findByBuyer(buyer);
    return cart && this.isLive(cart, this.clock.now()) ? cart : null;
  }

  /**
   * Lines of `provider` in the buyer's live cart, lowest ticket id first, in one statement that on
   * MySQL locks them (and the cart row) against concurrent writes; none when the buyer has no live
   * cart. A checkout reads nothing else of the cart.
   */
  async lockLiveLines(buyer: Buyer, provider: TicketProvider): Promise<CartItem[]> {
    return (await this.lockLiveCart(buyer, provider)).items;
  }

  /** `lockLiveLines` with the cart's coupon (src/coupons), read by the same statement. */
  lockLiveCart(buyer: Buyer, provider: TicketProvider): Promise<{ items: CartItem[]; couponId: number | null }> {
    return this.carts.lockLiveLines(buyer, provider, idleCutoff(this.clock.now()));
  }

  /**
   * Removes the `expected` checked-out lines; throws `gone()` when some were already gone (a
   * concurrent checkout took them), at once or, while the transaction holds its writes, when they are sent.
   */
  removeLines(cartId: number, provider: TicketProvider, expected: number, gone: () => Error): Promise<void> {
    return this.carts.deleteCheckedOutLines(cartId, provider, expected, gone);
  }

  /** Deletes carts idle for longer than their lifetime (their lines go with them). */
  purgeIdleCarts(now: Date): Promise<number> {
    return this.carts.deleteIdle(idleCutoff(now));
  }

  // ---------------------------------------------------------------- validation

  /** What can be checked from the body alone: 400 naming the fields. */
  private checkShape(lines: CartTicketLineDto[], metaEntries: CartTicketMetaDto[]): void {
    const max = this.config.tickets.maxTicketsPerOrder;
    const reasons: Record<string, string> = {};
    const seen = new Set<number>();
    lines.forEach((line, index) => {
      if (seen.has(line.ticket_id)) reasons[`tickets[${index}][ticket_id]`] = `ticket ${line.ticket_id} is listed more than once`;
      seen.add(line.ticket_id);
    });
    const seenMeta = new Set<number>();
    metaEntries.forEach((entry, index) => {
      if (seenMeta.has(entry.ticket_id)) reasons[`meta[${index}][ticket_id]`] = `ticket ${entry.ticket_id} is listed more than once`;
      seenMeta.add(entry.ticket_id);
      if (entry.items.length > max) reasons[`meta[${index}][items]`] = `items must hold at most ${max} attendees`;
      else if (Buffer.byteLength(JSON.stringify(entry.items)) > MAX_META_BYTES)
        reasons[`meta[${index}][items]`] = `items must be at most ${MAX_META_BYTES} bytes of JSON`;
    });
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
  }

  /** A line's provider (its own, else the request's) must be the ticket's. */
  private checkProviders(lines: CartTicketLineDto[], requestProvider: TicketProvider, tickets: Map<number, Ticket>): void {
    const reasons: Record<string, string> = {};
    lines.forEach((line, index) => {
      const lineProvider = line.provider === undefined ? requestProvider : (normalizeProvider(line.provider) as TicketProvider);
      const ticket = tickets.get(line.ticket_id) as Ticket;
      if (ticket.provider !== lineProvider) {
        reasons[`tickets[${index}][provider]`] = `ticket ${ticket.id} is sold by ${ticket.provider}, not ${lineProvider}`;
      }
    });
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
  }

  private checkMetaTargets(metaEntries: CartTicketMetaDto[], quantities: Map<number, { quantity: number; provider: string }>): void {
    const reasons: Record<string, string> = {};
    metaEntries.forEach((entry, index) => {
      if (!quantities.has(entry.ticket_id)) reasons[`meta[${index}][ticket_id]`] = `ticket ${entry.ticket_id} is not in the cart`;
    });
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
  }

  /** One order holds one provider's lines: their units together stay within MAX_TICKETS_PER_ORDER. */
  private checkTotals(quantities: Map<number, { quantity: number; provider: string }>): void {
    const max = this.config.tickets.maxTicketsPerOrder;
    const totals = new Map<string, number>();
    for (const { quantity, provider } of quantities.values()) totals.set(provider, (totals.get(provider) ?? 0) + quantity);
    for (const total of totals.values()) {
      if (total > max) throw invalidParam('tickets', `a cart holds at most ${max} tickets of one provider`);
    }
  }

  /**
   * Every listed ticket with a quantity must be on sale with that many units left (no reservation
   * yet), and, as checkout takes one provider's lines together, the cart's lines of that provider
   * drawing on one event pool (capped and global tickets) must fit what is left of it.
   */
  private async checkAvailability(
    lines: CartTicketLineDto[],
    states: Map<number, TicketSaleState>,
    quantities: Map<number, { quantity: number; provider: string }>,
    now: Date,
    covered: ReadonlyMap<number, number> = new Map(),
  ): Promise<void> {
    const wanted = lines.filter((line) => line.quantity > 0);
    const asked = (ticketId: number, quantity: number) => Math.max(quantity - (covered.get(ticketId) ?? 0), 0);
    for (const line of wanted) {
      const { ticket, eventStatus, pool } = states.get(line.ticket_id) as TicketSaleState;
      const problem = saleProblem(ticket, eventStatus, CapacityService.stateOf(ticket, pool), asked(ticket.id, line.quantity), now);
      if (problem) throw ticketCapacityNotAvailable(ticket.id, problem);
    }
    await this.checkSharedPools(wanted, states, quantities, asked);
  }

  private async checkSharedPools(
    wanted: CartTicketLineDto[],
    states: Map<number, TicketSaleState>,
    quantities: Map<number, { quantity: number; provider: string }>,
    asked: (ticketId: number, quantity: number) => number,
  ): Promise<void> {
    const drawsOnPool = (ticket: Ticket) => ticket.capacityMode === 'capped' || ticket.capacityMode === 'global';
    const pooled = wanted.map((line) => states.get(line.ticket_id) as TicketSaleState).filter(({ ticket }) => drawsOnPool(ticket));
    if (pooled.length === 0) return;
    const otherLineIds = [...quantities.keys()].filter((ticketId) => !states.has(ticketId));
    const others = await this.carts.saleStates(otherLineIds);
    const cartTickets = new Map([...states, ...others].map(([id, state]) => [id, state.ticket]));
    for (const { ticket, pool } of pooled) {
      const provider = quantities.get(ticket.id)?.provider;
      let unitsInPool = 0;
      for (const [ticketId, line] of quantities) {
        const other = cartTickets.get(ticketId);
        if (other && line.provider === provider && other.eventId === ticket.eventId && drawsOnPool(other))
          unitsInPool += asked(ticketId, line.quantity);
      }
      const left = pool ? pool.capacity - pool.sold - pool.pending : 0;
      if (unitsInPool > left) throw ticketCapacityNotAvailable(ticket.id, 'not-enough-left');
    }
  }

  private async assertEventExists(eventId: number): Promise<void> {
    if (!(await this.carts.eventExists(eventId))) throw invalidParam('post_id', `post_id ${eventId} is not an event`);
  }

  private async assertEventHasTickets(eventId: number): Promise<void> {
    if (!(await this.carts.eventHasTickets(eventId))) throw postHasNoTickets();
  }

  private providerFilter(raw: unknown[]): TicketProvider[] {
    const names = toList(raw);
    const list = Array.isArray(names) ? names : [names];
    return [...new Set(list.map(normalizeProvider).filter((provider): provider is TicketProvider => provider !== null))];
  }

  // ---------------------------------------------------------------- storage

  private isLive(cart: Cart, now: Date): boolean {
    return cart.updatedAt.getTime() > idleCutoff(now).getTime();
  }

  /**
   * The buyer's cart, created on their first write (an anonymous buyer gets a token then). A cart
   * that has been idle too long is emptied and starts over. Concurrent first writes of one user
   * meet on the unique index: the insert that loses is ignored and the winner's cart is used.
   * `fresh`: the cart is empty and its `updated_at` is now (created or restarted by this call).
   */
  private async openCart(buyer: Buyer, now: Date): Promise<{ cart: Cart; token: string | null; fresh: boolean }> {
    if (buyer.kind === 'guest' && !buyer.token) return this.openGuestCart(issueCartToken(this.config.nonceSecret), now);
    const identity = buyer.kind === 'user' ? { userId: buyer.userId, token: null } : { userId: null, token: buyer.token ?? null };
    let cart = await this.carts.findByBuyer(buyer);
    let fresh = false;
    if (!cart) {
      await this.carts.insertUnlessTaken({ ...identity, meta: null, createdAt: now, updatedAt: now });
      // A locking read sees the latest committed row: when a concurrent first write won the unique
      // index, its cart is not in this transaction's snapshot (a plain read found nothing: 500).
      const created = await this.carts.findByBuyer(buyer, true);
      if (!created) throw new Error('the cart row inserted or found by this transaction is missing');
      cart = created;
    } else if (!this.isLive(cart, now)) {
      await this.carts.restart(cart.id, now);
      fresh = true;
    }
    return { cart, token: identity.token, fresh };
  }

  /** The first write of an anonymous buyer: the token was issued just now, so no cart can hold it yet. */
  private async openGuestCart(token: string, now: Date): Promise<{ cart: Cart; token: string; fresh: true }> {
    const cart = await this.carts.insert({ userId: null, token, meta: null, createdAt: now, updatedAt: now });
    return { cart, token, fresh: true };
  }

  private async saveLines(cartId: number, lines: CartTicketLineDto[], tickets: Map<number, Ticket>): Promise<void> {
    for (const line of lines) {
      if (line.quantity === 0) {
        await this.carts.deleteLine(cartId, line.ticket_id);
        continue;
      }
      await this.carts.upsertLine({
        cartId,
        ticketId: line.ticket_id,
        provider: (tickets.get(line.ticket_id) as Ticket).provider,
        quantity: line.quantity,
        optout: line.optout,
      });
    }
  }

  private async saveMeta(cartId: number, metaEntries: CartTicketMetaDto[]): Promise<void> {
    for (const entry of metaEntries) {
      await this.carts.setLineMeta(cartId, entry.ticket_id, entry.items.length === 0 ? null : JSON.stringify(entry.items));
    }
  }
}
