import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { ticketDoesNotExist } from '../cart/cart-errors';
import { nonceScope } from '../checkin/door-route';
import { CheckinListsService } from '../checkin/checkin-lists.service';
import type { CheckinList } from '../checkin/checkin-list.entity';
import { parseIdList } from '../checkin/id-list';
import { RedeemService } from '../checkin/redeem.service';
import { CLOCK, Clock } from '../common/clock';
import { isUniqueViolation } from '../common/database/transactions';
import { ApiError } from '../common/errors/api-error';
import { formatMoney } from '../common/money';
import { appConfig } from '../config/app.config';
import { CheckoutService } from '../orders/checkout.service';
import { IdempotencyService } from '../orders/idempotency.service';
import { idempotencyKeyReused } from '../orders/order-errors';
import { bodyHash } from '../orders/webhook-signature';
import { availableUnits } from '../tickets/capacity';
import { CapacityService } from '../tickets/capacity.service';
import type { Ticket } from '../tickets/ticket.entity';
import { saleProblem } from '../tickets/ticket-sale';
import { checkinSalesNotAllowed, nonceReused, notFree, ticketNotSoldHere } from './door-sale-errors';
import { toDoorSaleResponse, toSaleTicket } from './door-sales.mapper';
import { DoorSalesRepository } from './door-sales.repository';
import { DoorSaleResponse, SaleTicketList } from './dto/door-sale.response';
import { SellDto } from './dto/sell.dto';
import { TransactionHost } from '../common/database/transaction-host';
import type { DoorCaller } from '../checkin/door-route';

/** The name on a walk-in sale's order and tickets when the buyer gives none. */
export const WALK_IN_NAME = 'Walk-in';

/** A list's devices and door staff may sell only when the list allows it. */
function assertSalesAllowed(list: CheckinList): void {
  if (!list.allowSales) throw checkinSalesNotAllowed();
}

/**
 * Walk-in sales at the door (docs/checkin.md, "Selling at the door"): the callers who may scan on a
 * list (its devices, door staff, managers of the event) sell its event's tickets when the list's
 * `allow_sales` is on. A sale is a completed order placed by the web checkout's rules
 * (CheckoutService.placeDoorSale: sale window, price, coupon, per-order limit, capacity taken last
 * with the same conditional updates, so door and web buyers never oversell), paid at the door by
 * the method given, and with `admit` its attendees enter at once as scans of the caller
 * (RedeemService.admitSold); all in one transaction, the order's notifications in its outbox.
 *
 * A `nonce` makes retries safe as for redeem: the answer is kept with the caller (24 hours, the
 * idempotency keys of checkout) and the same nonce and body get it again; another body gets 409
 * nonce-reused. A refused sale writes nothing, so its retry is decided afresh.
 */
@Injectable()
export class DoorSalesService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly lists: CheckinListsService,
    private readonly checkout: CheckoutService,
    private readonly redeems: RedeemService,
    private readonly idempotency: IdempotencyService,
    private readonly capacity: CapacityService,
    private readonly repository: DoorSalesRepository,
  ) {}

  /** GET /checkin-lists/{id}/sale-tickets: the tickets the list admits that are on sale now, sold-out ones with 0 left. */
  async saleTickets(listId: number, caller: DoorCaller): Promise<SaleTicketList> {
    const { list } = await this.lists.readable(listId, caller);
    assertSalesAllowed(list);
    const { tickets, eventStatus } = await this.repository.saleTickets(list.eventId);
    const pool = (await this.capacity.pools([list.eventId])).get(list.eventId);
    const admitted = new Set(parseIdList(list.ticketIds));
    const now = this.clock.now();
    const currency = this.config.currency.code;
    return {
      tickets: tickets
        .filter((ticket) => (admitted.size === 0 || admitted.has(ticket.id)) && !ticket.hiddenWithoutCoupon)
        .map((ticket) => ({ ticket, state: CapacityService.stateOf(ticket, pool) }))
        .filter(({ ticket, state }) => saleProblem(ticket, eventStatus, state, 0, now) === null)
        .map(({ ticket, state }) => toSaleTicket(ticket, availableUnits(state), currency)),
    };
  }

  /** POST /checkin/sell. */
  async sell(input: SellDto, caller: DoorCaller): Promise<DoorSaleResponse> {
    const door = await this.lists.readable(input.list_id, caller);
    assertSalesAllowed(door.list);
    const now = this.clock.now();
    const nonce = input.nonce ?? null;
    const scope = `door-sale:${nonceScope(caller)}`;
    const requestHash = bodyHash(input);
    let keyRowExists = false;
    if (nonce) {
      const found = await this.nonceLookup(() => this.idempotency.lookup(scope, nonce, requestHash, now));
      if (found.response) return found.response.body as DoorSaleResponse;
      keyRowExists = found.exists;
    }
    const { code: currency, exponent } = this.config.currency;
    const admitted = new Set(parseIdList(door.list.ticketIds));
    try {
      const { response, placed } = await this.tx.run(async () => {
        if (nonce) await this.idempotency.claim(scope, nonce, requestHash, now, keyRowExists);
        const placed = await this.checkout.placeDoorSale(
          {
            ticketId: input.ticket_id,
            quantity: input.quantity,
            paymentMethod: input.payment_method,
            purchaser: { name: input.purchaser?.name ?? WALK_IN_NAME, email: input.purchaser?.email ?? '' },
            coupon: input.coupon ?? null,
            codeSource: { cart: scope },
            assertSellable: (ticket: Ticket) => {
              // Another event's ticket reads as unknown, as to a buyer: ids of other events are not probed.
              if (ticket.eventId !== door.list.eventId) throw ticketDoesNotExist(ticket.id);
              if (ticket.provider !== 'tc') throw ticketNotSoldHere('ticket_id must be a ticket sold through checkout, not an RSVP');
              if (admitted.size > 0 && !admitted.has(ticket.id)) throw ticketNotSoldHere('ticket_id must be a ticket this list admits');
            },
            assertPayment: (totalMinor: number) => {
              if (input.payment_method === 'free' && totalMinor > 0) throw notFree(formatMoney(totalMinor, exponent), currency);
            },
          },
          now,
        );
        const entered = input.admit
          ? await this.redeems.admitSold(door, placed.attendees, placed.ticket.name, caller, now)
          : placed.attendees.map(() => false);
        const response = toDoorSaleResponse(placed.order, placed.attendees, placed.ticket, entered);
        if (nonce) await this.idempotency.record(scope, nonce, { statusCode: 201, body: response });
        await this.checkout.takeLast(placed);
        return { response, placed: placed };
      });
      this.checkout.doorSaleCommitted(placed);
      return response;
    } catch (error) {
      if (!nonce || !isUniqueViolation(error)) throw error;
      // A concurrent retry with the same nonce won the unique index: answer as it did.
      const stored = await this.nonceLookup(() => this.idempotency.find(scope, nonce, requestHash, now));
      if (!stored) throw error;
      return stored.body as DoorSaleResponse;
    }
  }

  /** The idempotency store's answer, its 422 for a key reused with another body turned into the door's 409 nonce-reused. */
  private async nonceLookup<T>(lookup: () => Promise<T>): Promise<T> {
    try {
      return await lookup();
    } catch (error) {
      if (error instanceof ApiError && error.code === idempotencyKeyReused().code) throw nonceReused();
      throw error;
    }
  }
}
