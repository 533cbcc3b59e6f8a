import { eventCapacity, toSalesFigures } from './report-figures';

describe('report figures', () => {
  it('derives net figures and exact decimal amounts from counts', () => {
    expect(
      toSalesFigures({
        sold_units: 5,
        sold_cents: 12550,
        refunded_units: 1,
        refunded_cents: 2510,
        cancelled_units: 1,
        cancelled_cents: 2510,
        checked_in: 2,
        coupon_units: 2,
        discount_cents: 1000,
      }),
    ).toEqual({
      sold: 5,
      revenue: '125.50',
      refunded: 1,
      refunded_amount: '25.10',
      cancelled: 1,
      cancelled_amount: '25.10',
      net_sold: 3,
      net_revenue: '75.30',
      checked_in: 2,
      coupon_units: 2,
      discount: '10.00',
    });
  });

  it('counts a shared pool once and caps it by the tickets drawing on it', () => {
    const pool = { capacity: 100, sold: 30, pending: 10 };
    expect(
      eventCapacity(
        [
          { mode: 'own', capacity: 20, available: 5 },
          { mode: 'global', capacity: null, available: null },
          { mode: 'capped', capacity: 10, available: 4 },
        ],
        pool,
      ),
    ).toEqual({ capacity: 120, available: 65 });
    expect(
      eventCapacity(
        [
          { mode: 'capped', capacity: 10, available: 4 },
          { mode: 'capped', capacity: 15, available: 15 },
        ],
        pool,
      ),
    ).toEqual({ capacity: 25, available: 19 });
  });

  it('is unlimited (null) when any ticket is', () => {
    expect(
      eventCapacity(
        [
          { mode: 'own', capacity: 5, available: 5 },
          { mode: 'unlimited', capacity: null, available: null },
        ],
        null,
      ),
    ).toEqual({
      capacity: null,
      available: null,
    });
  });
});
