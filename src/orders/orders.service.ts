import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Attendee } from '../attendees/attendee.entity';
import { revokesCheckinSecret } from '../checkin/redeem-rules';
import { CLOCK, Clock } from '../common/clock';
import { DomainEvents } from '../common/domain-events/domain-events';
import type { OrderStatusChanged } from '../common/domain-events/domain-event';
import { ApiError, forbidden, invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { QueryEcho } from '../common/list-filters/query-echo';
import { assertPageInRange, buildPageLinks, countPages, parsePageRequest } from '../common/pagination/pagination';
import { appConfig } from '../config/app.config';
import { CouponsService } from '../coupons/coupons.service';
import { MetricsService } from '../metrics/metrics.service';
import { PaymentsService } from '../payments/payments.service';
import { Event } from '../events/event.entity';
import { CapacityCount, CapacityService } from '../tickets/capacity.service';
import { ListOrdersQuery } from './dto/list-orders.query';
import { Order, OrderStatus } from './order.entity';
import { invalidSignature, orderInvalidStatus, orderInvalidStatusCode, orderNotFound } from './order-errors';
import { ACTION_TARGET, canTransition, heldCount, OrderAction } from './order-status';
import { OrderRelations, toOrderResponse } from './orders.mapper';
import { OrdersRepository } from './orders.repository';
import type { OrderResponse } from './dto/order.response';
import { isValidSignature } from './webhook-signature';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent, managesAllEvents, managesAnyEvent } from '../access/event-access';
import { OrderViewer, isBuyer } from '../access/order-access';

/** A payment webhook's proof: the `X-Signature` header and what it signs. */
export interface SignedRequest {
  signature: string;
  /** The raw body when the app keeps it, else the canonical JSON of the parsed body. */
  payload: string | Buffer;
  /** `order_id` of the signed body. */
  orderId: number | undefined;
}

export interface OrderPage {
  orders: OrderResponse[];
  restUrl: string;
  total: number;
  totalPages: number;
}

const PAST_PARTICIPLE: Record<OrderAction, string> = { complete: 'completed', cancel: 'cancelled', refund: 'refunded' };

/** What a transition found, decided inside its transaction and reported after it commits. */
type TransitionOutcome = { kind: 'done'; unitsSold: number } | { kind: 'lapsed' } | { kind: 'invalid'; status: OrderStatus };

/** What a provider's payment did to its order (completePaid); `unfulfillable`: roll back and refund. */
export type PaidCompletion =
  | { kind: 'completed'; unitsSold: number; provider: string }
  | { kind: 'already_completed' }
  | { kind: 'unfulfillable'; status: OrderStatus };

/**
 * Reading orders and moving them along: pending → completed (paid) | cancelled | expired,
 * completed → cancelled | refunded. Every move is a conditional UPDATE on the status read, so two
 * concurrent moves of one order cannot both release its capacity.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly metrics: MetricsService,
    private readonly domainEvents: DomainEvents,
    private readonly coupons: CouponsService,
    private readonly payments: PaymentsService,
    private readonly orders: OrdersRepository,
  ) {}

  // ---------------------------------------------------------------- reading

  /** Managers (`manage_attendees`) see every order; buyers their own, by user or by cart token. */
  async list(query: ListOrdersQuery, viewer: OrderViewer, context: RequestContext): Promise<OrderPage> {
    const page = parsePageRequest(query, 'tickets');
    const echo = new QueryEcho().add('per_page', query.per_page === undefined ? undefined : page.perPage).add('status', query.status);
    const collectionUrl = context.namespaceUrl('tickets', 'orders');

    const found = await this.orders.page(viewer, query, page.offset, page.perPage);
    if (!found) return this.emptyPage(collectionUrl, echo, page.page);
    const [orders, total] = found;
    const totalPages = countPages(total, page.perPage);
    assertPageInRange(page.page, totalPages, { kind: 'invalid' });
    const relations = await this.orders.relations(orders.map((order) => order.id));
    const responses = orders.map((order) =>
      toOrderResponse(order, relations.get(order.id) as OrderRelations, context, this.config.currency),
    );
    return {
      orders: await this.payments.describeAll(orders, responses, context),
      restUrl: buildPageLinks(collectionUrl, echo.pairs, page.page, totalPages).rest_url,
      total,
      totalPages,
    };
  }

  /**
   * The order for its buyer or a manager of any of its events; 404 for everyone else. A manager who
   * is not the buyer sees the attendees of the events they manage only.
   */
  async get(id: number, viewer: OrderViewer, context: RequestContext): Promise<OrderResponse> {
    const order = await this.findOrFail(id);
    const events = await this.eventsOf(id);
    const managed = new Set(events.filter((event) => canManageEvent(viewer.user, event)).map((event) => event.id));
    if (isBuyer(order, viewer)) return this.present(order, context);
    if (managed.size === 0) throw orderNotFound();
    return this.present(order, context, (attendee) => managed.has(attendee.eventId));
  }

  // ---------------------------------------------------------------- transitions

  /** Marks a pending order paid: by the managers of all its events, or by a signed payment webhook. */
  async complete(id: number, viewer: OrderViewer, signed: SignedRequest | undefined, context: RequestContext): Promise<OrderResponse> {
    if (signed) this.verifySignature(id, signed);
    else if (!viewer.user) throw forbidden(true);
    const order = await this.findOrFail(id);
    if (!signed) await this.assertManagesAll(order, viewer);
    return this.transition(order, 'complete', context);
  }

  /** Managers cancel pending and completed orders; the buyer may cancel their own while it is pending. */
  async cancel(id: number, viewer: OrderViewer, context: RequestContext): Promise<OrderResponse> {
    if (!viewer.user && !viewer.cartToken) throw forbidden(true);
    const order = await this.findOrFail(id);
    const events = await this.eventsOf(id);
    if (!managesAllEvents(viewer.user, events)) {
      const buyer = isBuyer(order, viewer);
      if (!buyer && !managesAnyEvent(viewer.user, events)) throw orderNotFound();
      if (!buyer) throw forbidden(!viewer.user);
      if (order.status === 'completed' || order.status === 'refunded') {
        throw forbidden(!viewer.user, 'Only the managers of its events can cancel an order once it is completed.');
      }
    }
    return this.transition(order, 'cancel', context);
  }

  /**
   * Managers refund completed orders. An order paid through a provider is refunded there first
   * (`amount`, a decimal, refunds part of it and leaves the order completed); the answer comes once
   * the provider accepted the refund. Orders paid by hand are refunded in full only.
   */
  async refund(id: number, viewer: OrderViewer, context: RequestContext, amount?: string): Promise<OrderResponse> {
    if (!viewer.user) throw forbidden(true);
    const order = await this.findOrFail(id);
    await this.assertManagesAll(order, viewer);
    if (!canTransition('refund', order.status)) throw orderInvalidStatus(PAST_PARTICIPLE.refund, order.status);
    const online = await this.payments.refundThroughProvider(order, amount);
    if (online === null && amount !== undefined)
      throw invalidParam('amount', 'only orders paid through a payment provider are refunded in part');
    if (online && !online.full) return this.present(await this.findOrFail(id), context);
    try {
      return await this.transition(order, 'refund', context);
    } catch (error) {
      // Stripe's charge.refunded webhook may have moved the order already.
      if (!online || !(error instanceof ApiError) || error.code !== orderInvalidStatusCode) throw error;
      return this.present(await this.findOrFail(id), context);
    }
  }

  /**
   * A payment provider's webhook: the order was paid. Inside the caller's transaction, as a
   * manager's completion; when its hold has lapsed, its units are taken again (as sold) if they are
   * still there. `unfulfillable`: the caller must roll back (a take may have run half-way) and refund.
   */
  async completePaid(orderId: number, now: Date): Promise<PaidCompletion> {
    let order = await this.findOrFail(orderId);
    if (order.status === 'completed') return { kind: 'already_completed' };
    if (order.status === 'pending') {
      const outcome = await this.applyTransition(order, 'complete', now);
      if (outcome.kind === 'done') return { kind: 'completed', unitsSold: outcome.unitsSold, provider: order.provider };
      order = await this.findOrFail(orderId);
    }
    if (order.status !== 'expired') return { kind: 'unfulfillable', status: order.status };
    if (!(await this.orders.revive(orderId, now))) return { kind: 'unfulfillable', status: (await this.findOrFail(orderId)).status };
    // The expiry gave its coupon uses back: they are taken again first (coupon before capacity, as at checkout).
    if (!(await this.coupons.retakeUses(order))) return { kind: 'unfulfillable', status: 'expired' };
    const held = await this.orders.heldUnits(orderId);
    const take = await this.capacity.takeAll(held, 'sold');
    if (take.short !== null) return { kind: 'unfulfillable', status: 'expired' };
    await this.setAttendeeStatus(orderId, 'completed', now);
    await this.publishStatus(orderId, 'completed');
    return { kind: 'completed', unitsSold: held.reduce((sum, line) => sum + line.quantity, 0), provider: order.provider };
  }

  /**
   * A payment provider's webhook: paid, but the order cannot be completed (its hold lapsed and the
   * tickets are gone, or it was cancelled). It becomes refunded, and the buyer is told through the
   * outbox (`order.refunded`); the money goes back through the provider after the commit.
   */
  async refundUnfulfilled(orderId: number, now: Date): Promise<void> {
    const order = await this.findOrFail(orderId);
    if (order.status === 'pending') await this.expireOrder(orderId, now);
    if (!(await this.orders.markEndedRefunded(orderId, now))) return;
    await this.setAttendeeStatus(orderId, 'refunded', now);
    await this.publishStatus(orderId, 'refunded');
  }

  /** A payment provider's webhook: refunded in full (here or at the provider). Completed orders give back their tickets. */
  async refundPaid(orderId: number, now: Date): Promise<void> {
    const order = await this.findOrFail(orderId);
    if (order.status === 'completed') await this.applyTransition(order, 'refund', now);
    else if (order.status !== 'refunded') await this.refundUnfulfilled(orderId, now);
  }

  /**
   * Expires a pending order whose hold has lapsed and gives back what it held, inside the caller's
   * transaction. The conditional UPDATE comes first, so that of several instances sweeping at
   * once exactly one releases each order. False when the order was not (or no longer) due.
   */
  async expireOrder(orderId: number, now: Date): Promise<boolean> {
    if (!(await this.orders.expire(orderId, now))) return false;
    // The coupon row before the capacity counters, in the order checkout locks them.
    await this.coupons.giveBackUses(orderId);
    await this.releaseHeld(orderId, 'pending');
    await this.setAttendeeStatus(orderId, 'expired', now);
    await this.payments.orderEnded(orderId, now);
    return true;
  }

  private async transition(order: Order, action: OrderAction, context: RequestContext): Promise<OrderResponse> {
    if (!canTransition(action, order.status)) throw orderInvalidStatus(PAST_PARTICIPLE[action], order.status);
    const now = this.clock.now();
    const outcome = await this.tx.run(() => this.applyTransition(order, action, now));
    if (outcome.kind === 'lapsed')
      throw orderInvalidStatus(
        PAST_PARTICIPLE[action],
        'expired',
        'The order’s hold on its tickets has expired; it can no longer be completed.',
      );
    if (outcome.kind === 'invalid') throw orderInvalidStatus(PAST_PARTICIPLE[action], outcome.status);
    // Counted once committed: a transaction run again after a lock conflict must not count twice.
    this.metrics.ticketsSold(order.provider, outcome.unitsSold);
    return this.present(await this.findOrFail(order.id), context);
  }

  private async applyTransition(order: Order, action: OrderAction, now: Date): Promise<TransitionOutcome> {
    const target = ACTION_TARGET[action];
    const moved =
      action === 'complete'
        ? await this.orders.complete(order.id, order.status, now)
        : await this.orders.move(order.id, order.status, target, now);
    if (!moved) {
      const current = await this.findOrFail(order.id);
      if (action === 'complete' && current.status === 'pending' && (await this.expireOrder(order.id, now))) return { kind: 'lapsed' };
      return { kind: 'invalid', status: current.status };
    }
    let unitsSold = 0;
    if (action === 'complete') {
      const held = await this.orders.heldUnits(order.id);
      await this.capacity.confirmAll(held);
      unitsSold = held.reduce((sum, line) => sum + line.quantity, 0);
      await this.setAttendeeStatus(order.id, 'completed', now);
      // Completed by a manager: the buyer must not pay the open intent as well.
      await this.payments.orderEnded(order.id, now);
    } else {
      const count = heldCount(order.status) as CapacityCount;
      // The coupon row before the capacity counters, in the order checkout locks them.
      if (target === 'cancelled') await this.coupons.giveBackUses(order);
      await this.releaseHeld(order.id, count);
      await this.setAttendeeStatus(order.id, target, now);
      if (order.status === 'pending') await this.payments.orderEnded(order.id, now);
    }
    await this.publishStatus(order.id, target as OrderStatusChanged['status']);
    return { kind: 'done', unitsSold };
  }

  /** The order as it is after moving to `status`, read again, to the listeners of OrderStatusChanged. */
  private async publishStatus(orderId: number, status: OrderStatusChanged['status']): Promise<void> {
    const order = await this.orders.findById(orderId);
    if (order) await this.domainEvents.publish({ kind: 'OrderStatusChanged', order, status });
  }

  private async releaseHeld(orderId: number, count: CapacityCount): Promise<void> {
    await this.capacity.releaseAll(await this.orders.heldUnits(orderId), count);
  }

  /**
   * Attendees carry their order's status. RSVP orders are completed at checkout (their attendees read
   * `yes`/`no` then), so a transition only ever moves them to cancelled or refunded. Leaving the
   * valid statuses revokes their check-in secrets; `updated_at` moves so the door's sync sees it.
   */
  private async setAttendeeStatus(orderId: number, status: OrderStatus, now: Date): Promise<void> {
    await this.orders.setAttendeeStatus(orderId, status, now, revokesCheckinSecret(status));
  }

  // ---------------------------------------------------------------- permissions

  private verifySignature(id: number, signed: SignedRequest): void {
    const secret = this.config.tickets.paymentWebhookSecret;
    if (!secret) throw invalidSignature('Signed completion is not enabled (PAYMENT_WEBHOOK_SECRET is not set).');
    if (!isValidSignature(secret, signed.payload, signed.signature)) throw invalidSignature();
    if (signed.orderId !== id) throw invalidSignature('The signed body must name this order in order_id.');
  }

  /** Only managers of every event the order is for may complete or refund it; others who cannot see it get 404. */
  private async assertManagesAll(order: Order, viewer: OrderViewer): Promise<void> {
    const events = await this.eventsOf(order.id);
    if (managesAllEvents(viewer.user, events)) return;
    if (isBuyer(order, viewer) || managesAnyEvent(viewer.user, events)) throw forbidden(!viewer.user);
    throw orderNotFound();
  }

  // ---------------------------------------------------------------- storage

  private eventsOf(orderId: number): Promise<Array<Pick<Event, 'id' | 'authorId'>>> {
    return this.orders.events(orderId);
  }

  private async findOrFail(id: number): Promise<Order> {
    const order = await this.orders.findById(id);
    if (!order) throw orderNotFound();
    return order;
  }

  private async present(order: Order, context: RequestContext, shows?: (attendee: Attendee) => boolean): Promise<OrderResponse> {
    const relations = (await this.orders.relations([order.id])).get(order.id) as OrderRelations;
    const response = toOrderResponse(order, relations, context, this.config.currency, shows);
    const payment = await this.payments.describe(order, context);
    return payment ? { ...response, payment } : response;
  }

  private emptyPage(collectionUrl: string, echo: QueryEcho, page: number): OrderPage {
    assertPageInRange(page, 0, { kind: 'invalid' });
    return { orders: [], restUrl: buildPageLinks(collectionUrl, echo.pairs, page, 0).rest_url, total: 0, totalPages: 0 };
  }
}
