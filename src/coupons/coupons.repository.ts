import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { insertedId } from '../common/database/inserted-id';
import { SqlDialect } from '../database/sql-dialect';
import { Event } from '../events/event.entity';
import { Order } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';
import { managedCouponRestriction } from '../tickets/ticket-visibility';
import { Coupon } from './coupon.entity';
import { codeKey, CouponScope } from './coupon-discount';

/** Every statement on coupons, in one place. */
@Injectable()
export class CouponsRepository {
  findById(manager: EntityManager, id: number): Promise<Coupon | null> {
    return manager.findOne(Coupon, { where: { id } });
  }

  /** The coupon as its managers' routes read it; `lock`: locked until the transaction ends (MariaDB), for a write. */
  findForManager(manager: EntityManager, id: number, lock: boolean): Promise<Coupon | null> {
    const query = manager.createQueryBuilder(Coupon, 'coupon').where('coupon.id = :id', { id });
    if (lock) SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  event(manager: EntityManager, id: number): Promise<Event | null> {
    return manager.findOne(Event, { where: { id } });
  }

  findByCode(manager: EntityManager, code: string): Promise<Coupon | null> {
    return manager.findOne(Coupon, { where: { codeKey: codeKey(code) } });
  }

  async codeTaken(manager: EntityManager, code: string, exceptId?: number): Promise<boolean> {
    const found = await this.findByCode(manager, code);
    return found !== null && found.id !== exceptId;
  }

  async insert(manager: EntityManager, row: Partial<Coupon>): Promise<number> {
    const result = await manager.createQueryBuilder().insert().into(Coupon).values(row).updateEntity(false).execute();
    return insertedId(result.raw);
  }

  async update(manager: EntityManager, id: number, changes: Partial<Coupon>): Promise<void> {
    await manager.createQueryBuilder().update(Coupon).set(changes).where('id = :id', { id }).execute();
  }

  /** Deletes the coupon unless it has uses (checked in the same statement); false when it had. */
  async deleteUnused(manager: EntityManager, id: number): Promise<boolean> {
    const result = await manager.createQueryBuilder().delete().from(Coupon).where('id = :id AND uses = 0', { id }).execute();
    return (result.affected ?? 0) > 0;
  }

  /** A page of the coupons `managedBy` manages (`canManageCoupon`), lowest id first. */
  async page(
    manager: EntityManager,
    filter: { managedBy: AuthenticatedUser; eventId?: number },
    offset: number,
    limit: number,
  ): Promise<[Coupon[], number]> {
    const query = manager.createQueryBuilder(Coupon, 'coupon');
    const managed = managedCouponRestriction(filter.managedBy, query);
    if (managed !== null) query.leftJoin(Event, 'event', 'event.id = coupon.eventId').andWhere(managed);
    if (filter.eventId !== undefined) query.andWhere('coupon.eventId = :eventId', { eventId: filter.eventId });
    return query.orderBy('coupon.id', 'ASC').skip(offset).take(limit).getManyAndCount();
  }

  /** Of `ticketIds`, those the coupon's scope covers (its event, or its author's events; its ticket list), in one query. */
  async coveredTicketIds(manager: EntityManager, scope: CouponScope, ticketIds: number[]): Promise<Set<number>> {
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
  async takeUses(manager: EntityManager, couponId: number, units: number): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(Coupon)
      .set({ uses: () => 'uses + :units' })
      .where('id = :couponId AND (max_uses IS NULL OR uses + :units <= max_uses)')
      .setParameters({ couponId, units })
      .updateEntity(false)
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Gives back the uses an order took (cancelled or expired); none when it took none. */
  async giveBackUses(manager: EntityManager, order: Pick<Order, 'couponId' | 'couponUses'>): Promise<void> {
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
  async orderCoupon(manager: EntityManager, orderId: number): Promise<Pick<Order, 'couponId' | 'couponUses'> | null> {
    return manager.findOne(Order, { select: { id: true, couponId: true, couponUses: true }, where: { id: orderId } });
  }
}
