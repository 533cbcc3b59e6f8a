import type { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import type { CodeAttempts } from '../common/throttling/code-attempts.service';
import type { Coupon } from './coupon.entity';
import type { CouponsRepository } from './coupons.repository';
import { CouponLine, CouponsService } from './coupons.service';
import { TransactionHost } from '../common/database/transaction-host';
import { CouponScope, couponCoversTicket } from '../access/coupon-access';

/**
 * What a checkout's coupon does to its price, as CouponsService decides it (which lines the code
 * covers, hidden tickets, validity at checkout, the uses it takes), against an in-memory coupons
 * repository. The discount arithmetic is coupon-discount.spec.ts's; the SQL and concurrent
 * checkouts are test/coupons.e2e-spec.ts's.
 */

type RepositoryPart = Pick<CouponsRepository, 'findById' | 'coveredTicketIds' | 'takeUses' | 'takeUsesOrFail'>;

class FakeCoupons implements RepositoryPart {
  readonly coupons = new Map<number, Coupon>();
  /** Each ticket's event and the event's author. */
  readonly tickets = new Map<number, { eventId: number; authorId: number }>();

  findById(id: number): Promise<Coupon | null> {
    const coupon = this.coupons.get(id);
    return Promise.resolve(coupon ? { ...coupon } : null);
  }

  coveredTicketIds(scope: CouponScope, ticketIds: number[]): Promise<Set<number>> {
    return Promise.resolve(
      new Set(
        ticketIds.filter((id) => {
          const ticket = this.tickets.get(id);
          return ticket !== undefined && couponCoversTicket(scope, { id, eventId: ticket.eventId }, ticket.authorId);
        }),
      ),
    );
  }

  /** As the conditional UPDATE: only while uses are left. */
  takeUses(couponId: number, units: number): Promise<boolean> {
    const coupon = this.coupons.get(couponId);
    if (!coupon || (coupon.maxUses !== null && coupon.uses + units > coupon.maxUses)) return Promise.resolve(false);
    coupon.uses += units;
    return Promise.resolve(true);
  }

  async takeUsesOrFail(couponId: number, units: number, usedUp: () => Error): Promise<void> {
    if (!(await this.takeUses(couponId, units))) throw usedUp();
  }
}

const manager = {} as EntityManager;

function coupon(id: number, fields: Partial<Coupon>): Coupon {
  return {
    id,
    code: `CODE${id}`,
    authorId: 1,
    eventId: 10,
    ticketIds: null,
    discountType: 'percent',
    amount: 1000,
    maxUses: null,
    uses: 0,
    startsAt: null,
    endsAt: null,
    revealsHidden: false,
    ...fields,
  } as Coupon;
}

const line = (ticketId: number, quantity: number, priceMinor: number, hidden = false): CouponLine => ({
  ticketId,
  quantity,
  priceMinor,
  hidden,
});

/** The 409's reason (and ticket), or what was thrown instead. */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.getStatus(), code: error.code, ...error.extraData };
    throw error;
  }
  throw new Error('not refused');
}

describe('CouponsService at checkout', () => {
  let repository: FakeCoupons;
  let now: Date;
  let service: CouponsService;

  beforeEach(() => {
    repository = new FakeCoupons();
    now = new Date('2030-01-15T12:00:00Z');
    service = new CouponsService(
      new TransactionHost({
        options: { type: 'better-sqlite3' },
        manager,
        transaction: (work: (m: EntityManager) => Promise<unknown>) => work(manager),
      } as unknown as DataSource),
      { now: () => now },
      repository as unknown as CouponsRepository,
      {
        currency: { code: 'EUR', exponent: 2, symbol: '€', position: 'postfix' },
        payments: { provider: 'manual' },
      },
      { assertAllowed: () => Promise.resolve(), recordFailure: () => Promise.resolve() } as unknown as CodeAttempts,
    );
    // Tickets 1 to 3 are of event 10 by author 1, ticket 4 of event 20 by author 1, ticket 5 of event 30 by author 2.
    for (const id of [1, 2, 3]) repository.tickets.set(id, { eventId: 10, authorId: 1 });
    repository.tickets.set(4, { eventId: 20, authorId: 1 });
    repository.tickets.set(5, { eventId: 30, authorId: 2 });
  });

  describe('priceCheckout', () => {
    it('prices no coupon as none, and refuses a hidden ticket without one', async () => {
      expect(await service.priceCheckout(null, [line(1, 2, 1000)])).toBeNull();
      expect(await refusal(service.priceCheckout(null, [line(1, 1, 1000), line(2, 1, 1000, true)]))).toMatchObject({
        status: 409,
        code: 'coupon-not-usable',
        reason: 'hidden-ticket',
        ticket_id: 2,
      });
    });

    it('refuses a coupon gone since it was put in the cart', async () => {
      expect(await refusal(service.priceCheckout(99, [line(1, 1, 1000)]))).toMatchObject({ status: 409, reason: 'unknown' });
    });

    it.each([
      ['its event', { eventId: 10 }, [1, 2]],
      ['its ticket list', { eventId: 10, ticketIds: '[2]' }, [2]],
      ["its author's events", { eventId: null }, [1, 2, 4]],
    ])('discounts the lines of %s, per unit, and counts their units as uses', async (_name, scope, covered) => {
      repository.coupons.set(7, coupon(7, { ...scope, discountType: 'percent', amount: 1250 }));
      const lines = [line(1, 3, 999), line(2, 1, 2000), line(4, 2, 500), line(5, 1, 800)];
      const priced = await service.priceCheckout(7, lines);
      const perUnit = { 1: 125, 2: 250, 4: 63 } as Record<number, number>;
      expect(priced?.coupon.id).toBe(7);
      expect([...priced!.discounts.perUnit]).toEqual(covered.map((id) => [id, perUnit[id]]));
      const units = lines.filter((entry) => covered.includes(entry.ticketId));
      expect(priced!.discounts.units).toBe(units.reduce((sum, entry) => sum + entry.quantity, 0));
      expect(priced!.discounts.totalMinor).toBe(units.reduce((sum, entry) => sum + perUnit[entry.ticketId] * entry.quantity, 0));
    });

    it('takes a fixed amount off each unit, never more than its price', async () => {
      repository.coupons.set(7, coupon(7, { discountType: 'flat', amount: 500 }));
      const priced = await service.priceCheckout(7, [line(1, 2, 300), line(2, 1, 2000), line(3, 1, 0)]);
      expect([...priced!.discounts.perUnit]).toEqual([
        [1, 300],
        [2, 500],
        [3, 0],
      ]);
      expect(priced!.discounts).toMatchObject({ units: 4, totalMinor: 1100 });
    });

    it('ignores a code that covers nothing of the order, even an expired or used-up one', async () => {
      repository.coupons.set(7, coupon(7, { eventId: 30, endsAt: new Date('2030-01-01T00:00:00Z'), maxUses: 1, uses: 1 }));
      expect(await service.priceCheckout(7, [line(1, 1, 1000)])).toBeNull();
    });

    it.each([
      ['not-started', { startsAt: new Date('2030-01-15T12:00:01Z') }],
      ['ended', { endsAt: new Date('2030-01-15T12:00:00Z') }],
      ['used-up', { maxUses: 10, uses: 8 }],
    ])('refuses a code %s at checkout', async (reason, window) => {
      repository.coupons.set(7, coupon(7, window));
      // Three covered units; ticket 5 is not the coupon's and counts for nothing.
      const lines = [line(1, 2, 1000), line(2, 1, 1000), line(5, 4, 1000)];
      expect(await refusal(service.priceCheckout(7, lines))).toMatchObject({ status: 409, reason });
    });

    it('accepts the last uses of a code exactly', async () => {
      repository.coupons.set(7, coupon(7, { maxUses: 10, uses: 7 }));
      expect((await service.priceCheckout(7, [line(1, 3, 1000)]))?.discounts.units).toBe(3);
    });

    it('uses no code for lines of no units (RSVP "not going"), but still checks their hidden tickets', async () => {
      repository.coupons.set(7, coupon(7, { revealsHidden: true, maxUses: 1, uses: 1 }));
      repository.coupons.set(8, coupon(8, { revealsHidden: false }));
      expect(await service.priceCheckout(7, [line(1, 0, 0, true)])).toBeNull();
      expect(await refusal(service.priceCheckout(8, [line(1, 0, 0, true)]))).toMatchObject({
        reason: 'hidden-ticket',
        ticket_id: 1,
      });
    });

    it('sells a hidden ticket with a code that reveals it and covers it only', async () => {
      repository.coupons.set(7, coupon(7, { revealsHidden: true, ticketIds: '[2]' }));
      repository.coupons.set(8, coupon(8, { revealsHidden: false }));
      expect((await service.priceCheckout(7, [line(2, 1, 1000, true)]))?.discounts.units).toBe(1);
      expect(await refusal(service.priceCheckout(7, [line(2, 1, 1000, true), line(3, 1, 1000, true)]))).toMatchObject({
        reason: 'hidden-ticket',
        ticket_id: 3,
      });
      expect(await refusal(service.priceCheckout(8, [line(2, 1, 1000, true)]))).toMatchObject({
        reason: 'hidden-ticket',
        ticket_id: 2,
      });
    });
  });

  describe('takeUses', () => {
    it('takes the uses while they are left, 409 when another checkout took the last ones, nothing for no units', async () => {
      repository.coupons.set(7, coupon(7, { maxUses: 5, uses: 2 }));
      await service.takeUses(7, 3);
      expect(repository.coupons.get(7)?.uses).toBe(5);
      expect(await refusal(service.takeUses(7, 1))).toMatchObject({ status: 409, reason: 'used-up' });
      await service.takeUses(7, 0);
      expect(repository.coupons.get(7)?.uses).toBe(5);
    });
  });
});
