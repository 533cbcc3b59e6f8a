import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/roles';
import { HeldWrites } from '../common/database/held-writes';
import { insertedId } from '../common/database/inserted-id';
import { announceRawWrites } from '../common/database/raw-writes';
import { SqlDialect } from '../database/sql-dialect';
import { Event } from '../events/event.entity';
import { Order } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';
import { Coupon } from './coupon.entity';
import { codeKey } from './coupon-discount';
import { TransactionHost } from '../common/database/transaction-host';
import { CouponScope, managedCouponRestriction } from '../access/coupon-access';

/** Every statement on coupons, in one place. */
@Injectable()
export class CouponsRepository {
  constructor(private readonly tx: TransactionHost) {}

  findById(id: number): Promise<Coupon | null> {
    const manager = this.tx.manager;
    return manager.findOne(Coupon, { where: { id } });
  }

  /** The coupon as its managers' routes read it; `lock`: locked until the transaction ends (MariaDB), for a write. */
  findForManager(id: number, lock: boolean): Promise<Coupon | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(Coupon, 'coupon').where('coupon.id = :id', { id });
    if (lock) SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  event(id: number): Promise<Event | null> {
    const manager = this.tx.manager;
    return manager.findOne(Event, { where: { id } });
  }

  findByCode(code: string): Promise<Coupon | null> {
    const manager = this.tx.manager;
    return manager.findOne(Coupon, { where: { codeKey: codeKey(code) } });
  }

  async codeTaken(code: string, exceptId?: number): Promise<boolean> {
    const found = await this.findByCode(code);
    return found !== null && found.id !== exceptId;
  }

  async insert(row: Partial<Coupon>): Promise<number> {
    const manager = this.tx.manager;
    const result = await manager.createQueryBuilder().insert().into(Coupon).values(row).updateEntity(false).execute();
    return insertedId(result.raw);
  }

  async update(id: number, changes: Partial<Coupon>): Promise<void> {
    const manager = this.tx.manager;
    await manager.createQueryBuilder().update(Coupon).set(changes).where('id = :id', { id }).execute();
  }

  /** Deletes the coupon unless it has uses (checked in the same statement); false when it had. */
  async deleteUnused(id: number): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager.createQueryBuilder().delete().from(Coupon).where('id = :id AND uses = 0', { id }).execute();
    return (result.affected ?? 0) > 0;
  }

  /** A page of the coupons `managedBy` manages (`canManageCoupon`), lowest id first. */
  async page(filter: { managedBy: AuthenticatedUser; eventId?: number }, offset: number, limit: number): Promise<[Coupon[], number]> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(Coupon, 'coupon');
    const managed = managedCouponRestriction(filter.managedBy, query);
    if (managed !== null) query.leftJoin(Event, 'event', 'event.id = coupon.eventId').andWhere(managed);
    if (filter.eventId !== undefined) query.andWhere('coupon.eventId = :eventId', { eventId: filter.eventId });
    return query.orderBy('coupon.id', 'ASC').skip(offset).take(limit).getManyAndCount();
  }

  /** Of `ticketIds`, those the coupon's scope covers (its event, or its author's events; its ticket list), in one query. */
  async coveredTicketIds(scope: CouponScope, ticketIds: number[]): Promise<Set<number>> {
    const manager = this.tx.manager;
    const wanted = scope.ticketIds.length > 0 ? ticketIds.filter((id) => scope.ticketIds.includes(id)) : ticketIds;
    if (wanted.length === 0) return new Set();
    const query = manager
      .createQueryBuilder(Ticket, 'ticket')
      .select('ticket.id', 'id')
      .where('ticket.id IN (:...wanted)', { wanted: [...new Set(wanted)] });
    if (scope.eventId !== null) query.andWhere('ticket.eventId = :scopeEvent', { scopeEvent: scope.eventId });
    else
      query
        .innerJoin(Event, 'event', 'event.id = ticket.eventId')
        .andWhere('event.authorId = :scopeAuthor', { scopeAuthor: scope.authorId });
    const rows = await query.getRawMany<{ id: number | string }>();
    return new Set(rows.map((row) => Number(row.id)));
  }

  /**
   * Takes `units` uses if they are left, in one conditional UPDATE: of concurrent checkouts, the
   * ones that would pass `max_uses` change nothing. The row stays locked to the commit, so a
   * rollback gives the uses back with everything else.
   */
  async takeUses(couponId: number, units: number): Promise<boolean> {
    return ((await this.takeUsesQuery(couponId, units).execute()).affected ?? 0) > 0;
  }

  /**
   * takeUses for a checkout, which throws `usedUp()` when they are not left. Held with the
   * checkout's other writes while its transaction holds them: the check then runs in the statement
   * that sends them.
   */
  async takeUsesOrFail(couponId: number, units: number, usedUp: () => Error): Promise<void> {
    const manager = this.tx.manager;
    const held = HeldWrites.of(manager);
    if (!held) {
      if (!(await this.takeUses(couponId, units))) throw usedUp();
      return;
    }
    const [sql, parameters] = this.takeUsesQuery(couponId, units).getQueryAndParameters();
    held.add(sql, parameters, { guard: { rows: 1, fails: usedUp } });
    // Raw SQL is not reported to entity subscribers: tell them the coupon changes.
    await announceRawWrites(manager, 'update', [Coupon]);
  }

  private takeUsesQuery(couponId: number, units: number) {
    return this.tx.manager
      .createQueryBuilder()
      .update(Coupon)
      .set({ uses: () => 'uses + :units' })
      .where('id = :couponId AND (max_uses IS NULL OR uses + :units <= max_uses)')
      .setParameters({ couponId, units })
      .updateEntity(false);
  }

  /** Gives back the uses an order took (cancelled or expired); none when it took none. */
  async giveBackUses(order: Pick<Order, 'couponId' | 'couponUses'>): Promise<void> {
    const manager = this.tx.manager;
    if (order.couponId === null || order.couponUses <= 0) return;
    await manager
      .createQueryBuilder()
      .update(Coupon)
      .set({ uses: () => 'CASE WHEN uses >= :units THEN uses - :units ELSE 0 END' })
      .where('id = :couponId')
      .setParameters({ couponId: order.couponId, units: order.couponUses })
      .updateEntity(false)
      .execute();
  }

  /** The coupon fields of an order, read inside the caller's transaction. */
  async orderCoupon(orderId: number): Promise<Pick<Order, 'couponId' | 'couponUses'> | null> {
    const manager = this.tx.manager;
    return manager.findOne(Order, { select: { id: true, couponId: true, couponUses: true }, where: { id: orderId } });
  }
}
