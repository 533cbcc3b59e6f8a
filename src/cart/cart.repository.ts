import { Injectable } from '@nestjs/common';
import { ObjectLiteral } from 'typeorm';
import { HeldWrites } from '../common/database/held-writes';
import { insertedId } from '../common/database/inserted-id';
import { announceRawWrites } from '../common/database/raw-writes';
import { hydrate, KeptInserts, KeptSelects } from '../common/database/kept-statements';
import { SqlDialect } from '../database/sql-dialect';
import { Event } from '../events/event.entity';
import type { PoolCounts } from '../tickets/capacity';
import { TicketPool } from '../tickets/ticket-pool.entity';
import type { PostStatus } from '../posts/post-status';
import { Ticket, TicketProvider } from '../tickets/ticket.entity';
import { Cart, CartItem } from './cart.entity';
import type { Buyer } from './cart-identity';
import type { CartLineView } from './cart.mapper';
import { TransactionHost } from '../common/database/transaction-host';

/** Which of a cart's lines to read: of these providers, of this event. */
export interface LineFilter {
  providers?: TicketProvider[];
  eventId?: number;
}

/** A ticket as a cart write checks it: its counts, its event's status and its event's shared pool. */
export interface TicketSaleState {
  ticket: Ticket;
  eventStatus: PostStatus;
  pool: PoolCounts | undefined;
}

/** A cart line as written: `optout` undefined keeps the stored one of an existing line. */
export interface CartLineWrite {
  cartId: number;
  ticketId: number;
  provider: TicketProvider;
  quantity: number;
  optout: boolean | undefined;
}

interface RawCartLine {
  ticketId: number | string;
  provider: string;
  quantity: number | string;
  optout: boolean | number | string;
  meta: string | null;
  eventId: number | string;
  iac: string;
  priceMinor: string | number;
  hidden: boolean | number | string;
}

interface RawSaleState {
  ticket_id: number | string;
  event_status: PostStatus | null;
  pool_capacity: number | string | null;
  pool_sold: number | string;
  pool_pending: number | string;
}

/** The cart column a buyer is known by, and its value; none for an anonymous buyer without a token. */
function ownerOf(buyer: Buyer): { column: 'cart.userId' | 'cart.token'; value: number | string } | null {
  if (buyer.kind === 'user') return { column: 'cart.userId', value: buyer.userId };
  return buyer.token ? { column: 'cart.token', value: buyer.token } : null;
}

function toBooleanColumn(value: boolean | number | string): boolean {
  return value === true || value === 1 || value === '1';
}

/** Every statement on carts and their lines, and the ticket reads a cart write checks against. */
@Injectable()
export class CartRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The hot statements of a sale (a cart write, a checkout), their SQL written once per shape. */
  private readonly selects = new KeptSelects();
  private readonly inserts = new KeptInserts();

  // ---------------------------------------------------------------- events and tickets

  eventExists(eventId: number): Promise<boolean> {
    const manager = this.tx.manager;
    return manager.exists(Event, { where: { id: eventId } });
  }

  eventHasTickets(eventId: number): Promise<boolean> {
    const manager = this.tx.manager;
    return manager.exists(Ticket, { where: { eventId } });
  }

  /** The tickets of `ids` that exist, each with its counts, its event's status and its event's pool, in one query. */
  async saleStates(ids: number[]): Promise<Map<number, TicketSaleState>> {
    const manager = this.tx.manager;
    if (ids.length === 0) return new Map();
    const rows = await this.selects.rows<RawSaleState>(
      manager,
      'saleStates',
      () =>
        manager
          .createQueryBuilder(Ticket, 'ticket')
          .leftJoin(Event, 'event', 'event.id = ticket.eventId')
          .addSelect('event.status', 'event_status')
          .leftJoin(TicketPool, 'pool', 'pool.eventId = ticket.eventId')
          .addSelect('pool.capacity', 'pool_capacity')
          .addSelect('pool.sold', 'pool_sold')
          .addSelect('pool.pending', 'pool_pending')
          .where('ticket.id IN (:...ids)'),
      { ids: [...new Set(ids)] },
    );
    return new Map(
      rows.map((row) => {
        const ticket = hydrate(manager, Ticket, 'ticket', row);
        const pool =
          row.pool_capacity === null
            ? undefined
            : { capacity: Number(row.pool_capacity), sold: Number(row.pool_sold), pending: Number(row.pool_pending) };
        return [ticket.id, { ticket, eventStatus: row.event_status ?? 'trash', pool }];
      }),
    );
  }

  // ---------------------------------------------------------------- carts

  /** The buyer's cart, live or idle; `latest`: a locking read, which sees the latest committed row (MySQL). */
  async findByBuyer(buyer: Buyer, latest = false): Promise<Cart | null> {
    const manager = this.tx.manager;
    const owner = ownerOf(buyer);
    if (!owner) return null;
    const [row] = await this.selects.rows<ObjectLiteral>(
      manager,
      `findByBuyer:${owner.column}:${latest}`,
      () => {
        const query = manager.createQueryBuilder(Cart, 'cart').where(`${owner.column} = :owner`).limit(1);
        return latest ? SqlDialect.of(manager).forUpdate(query) : query;
      },
      { owner: owner.value },
    );
    return row ? hydrate(manager, Cart, 'cart', row) : null;
  }

  /** Inserts the cart unless its user or token already has one (the unique index decides; nothing is raised). */
  async insertUnlessTaken(values: Pick<Cart, 'userId' | 'token' | 'meta' | 'createdAt' | 'updatedAt'>): Promise<void> {
    const manager = this.tx.manager;
    await this.inserts.insert(manager, Cart, [values], { orIgnore: true });
  }

  /** Inserts the cart and answers it with its id. */
  async insert(values: Pick<Cart, 'userId' | 'token' | 'meta' | 'createdAt' | 'updatedAt'>): Promise<Cart> {
    const manager = this.tx.manager;
    const cart = manager.create(Cart, values);
    cart.id = insertedId(await this.inserts.insert(manager, Cart, [cart]));
    return cart;
  }

  /** Empties the cart (lines, meta and coupon) and starts its idle clock again. */
  async restart(cartId: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().delete().from(CartItem).where('cart_id = :cartId', { cartId }).execute();
    await manager
      .createQueryBuilder()
      .update(Cart)
      .set({ meta: null, couponId: null, createdAt: now, updatedAt: now })
      .where('id = :id', { id: cartId })
      .execute();
  }

  /** Sets (null: removes) the cart's coupon, which moves its idle clock too. */
  async setCoupon(cartId: number, couponId: number | null, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().update(Cart).set({ couponId, updatedAt: now }).where('id = :id', { id: cartId }).execute();
  }

  /** Moves the cart's idle clock. */
  async touch(cartId: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().update(Cart).set({ updatedAt: now }).where('id = :id', { id: cartId }).execute();
  }

  /** Deletes carts last written at or before `cutoff` (their lines go with them); answers how many. */
  async deleteIdle(cutoff: Date): Promise<number> {
    const manager = this.tx.manager;
    const result = await manager.createQueryBuilder().delete().from(Cart).where('updated_at <= :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }

  // ---------------------------------------------------------------- lines

  /** The cart's lines with their tickets' event and `iac`, in one query, filters in SQL. */
  async lines(cartId: number, filter: LineFilter): Promise<CartLineView[]> {
    const manager = this.tx.manager;
    const byProviders = filter.providers !== undefined;
    const byEvent = filter.eventId !== undefined;
    const build = () => {
      const query = manager
        .createQueryBuilder(CartItem, 'item')
        .innerJoin(Ticket, 'ticket', 'ticket.id = item.ticketId')
        .select('item.ticketId', 'ticketId')
        .addSelect('item.provider', 'provider')
        .addSelect('item.quantity', 'quantity')
        .addSelect('item.optout', 'optout')
        .addSelect('item.meta', 'meta')
        .addSelect('ticket.eventId', 'eventId')
        .addSelect('ticket.iac', 'iac')
        .addSelect('ticket.priceMinor', 'priceMinor')
        .addSelect('ticket.hiddenWithoutCoupon', 'hidden')
        .where('item.cartId = :cartId')
        .andWhere('item.quantity > 0')
        .orderBy('item.ticketId', 'ASC');
      if (byProviders) query.andWhere('item.provider IN (:...providers)');
      if (byEvent) query.andWhere('ticket.eventId = :eventId');
      return query;
    };
    const rows = await this.selects.rows<RawCartLine>(manager, `lines:${byProviders}:${byEvent}`, build, {
      cartId,
      providers: filter.providers,
      eventId: filter.eventId,
    });
    return rows.map((row) => ({
      ticketId: Number(row.ticketId),
      provider: row.provider,
      quantity: Number(row.quantity),
      optout: toBooleanColumn(row.optout),
      meta: row.meta,
      eventId: Number(row.eventId),
      iac: row.iac,
      priceMinor: Number(row.priceMinor),
      hidden: toBooleanColumn(row.hidden),
    }));
  }

  /**
   * Lines of `provider` in the buyer's cart written after `idleCutoff`, lowest ticket id first, with
   * the cart's coupon, in one statement that on MySQL locks them (and the cart row) against
   * concurrent writes; none when the buyer has no such cart.
   */
  async lockLiveLines(buyer: Buyer, provider: TicketProvider, idleCutoff: Date): Promise<{ items: CartItem[]; couponId: number | null }> {
    const manager = this.tx.manager;
    const owner = ownerOf(buyer);
    if (!owner) return { items: [], couponId: null };
    const rows = await this.selects.rows<ObjectLiteral & { cart_coupon_id: number | string | null }>(
      manager,
      `lockLiveLines:${owner.column}`,
      () =>
        SqlDialect.of(manager).forUpdate(
          manager
            .createQueryBuilder(CartItem, 'item')
            .innerJoin(Cart, 'cart', 'cart.id = item.cartId')
            .where(`${owner.column} = :owner`)
            .andWhere('cart.updatedAt > :idleCutoff')
            .andWhere('item.provider = :provider')
            .addSelect('cart.couponId', 'cart_coupon_id')
            .orderBy('item.ticketId', 'ASC'),
        ),
      { owner: owner.value, idleCutoff, provider },
    );
    const couponId = rows[0]?.cart_coupon_id;
    return {
      items: rows.map((row) => hydrate(manager, CartItem, 'item', row)),
      couponId: couponId === null || couponId === undefined ? null : Number(couponId),
    };
  }

  /** Writes the line: inserted, or its quantity and provider (and `optout` when given) replaced. */
  async upsertLine(line: CartLineWrite): Promise<void> {
    const manager = this.tx.manager;
    const overwrite = ['quantity', 'provider', ...(line.optout === undefined ? [] : ['optout'])];
    await this.inserts.insert(
      manager,
      CartItem,
      [
        {
          cartId: line.cartId,
          ticketId: line.ticketId,
          provider: line.provider,
          quantity: line.quantity,
          optout: line.optout ?? false,
          meta: null,
        },
      ],
      { orUpdate: { overwrite, conflict: ['cart_id', 'ticket_id'] } },
    );
  }

  async deleteLine(cartId: number, ticketId: number): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .delete()
      .from(CartItem)
      .where('cart_id = :cartId AND ticket_id = :ticketId', { cartId, ticketId })
      .execute();
  }

  /** Stores the registration answers of the line's attendees (null clears them). */
  async setLineMeta(cartId: number, ticketId: number, meta: string | null): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(CartItem)
      .set({ meta })
      .where('cart_id = :cartId AND ticket_id = :ticketId', { cartId, ticketId })
      .execute();
  }

  /**
   * Deletes the cart's lines of the provider, which must be exactly the `expected` lines read; else
   * throws `gone()` (a concurrent checkout took them). Held with the checkout's other writes while
   * its transaction holds them: the check then runs in the statement that sends them.
   */
  async deleteCheckedOutLines(cartId: number, provider: TicketProvider, expected: number, gone: () => Error): Promise<void> {
    const manager = this.tx.manager;
    const query = manager
      .createQueryBuilder()
      .delete()
      .from(CartItem)
      .where('cart_id = :cartId AND provider = :provider', { cartId, provider });
    const held = HeldWrites.of(manager);
    if (held) {
      const [sql, parameters] = query.getQueryAndParameters();
      held.add(sql, parameters, { guard: { rows: expected, fails: gone } });
      // Raw SQL is not reported to entity subscribers: tell them the lines go.
      await announceRawWrites(manager, 'remove', [CartItem]);
      return;
    }
    const result = await query.execute();
    if ((result.affected ?? expected) !== expected) throw gone();
  }
}
