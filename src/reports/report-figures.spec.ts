import { eventCapacity, listScanReports, toSalesFigures } from './report-figures';

describe('report figures', () => {
  it('derives net figures and exact decimal amounts from counts', () => {
    expect(
      toSalesFigures(
        {
          sold_units: 5,
          sold_cents: 12550,
          refunded_units: 1,
          refunded_cents: 2510,
          cancelled_units: 1,
          cancelled_cents: 2510,
          checked_in: 2,
          coupon_units: 2,
          discount_cents: 1000,
        },
        2,
      ),
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

  it('prints amounts with the currency decimals: the ledger holds minor units', () => {
    const counts = {
      sold_units: 3,
      sold_cents: 4500,
      refunded_units: 0,
      refunded_cents: 0,
      cancelled_units: 0,
      cancelled_cents: 0,
      checked_in: 0,
      coupon_units: 0,
      discount_cents: 0,
    };
    expect(toSalesFigures(counts, 0)).toMatchObject({ revenue: '4500', net_revenue: '4500', discount: '0' });
    expect(toSalesFigures(counts, 2)).toMatchObject({ revenue: '45.00', net_revenue: '45.00', discount: '0.00' });
    expect(toSalesFigures(counts, 3)).toMatchObject({ revenue: '4.500', net_revenue: '4.500', discount: '0.000' });
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

  it('sums scans per list and interval, zeros included, leaving out other lists and days', () => {
    const buckets = [
      { start: '2026-12-01', end: '2026-12-01' },
      { start: '2026-12-02', end: '2026-12-03' },
    ];
    const bucketOfDay = new Map([
      ['2026-12-01', 0],
      ['2026-12-02', 1],
      ['2026-12-03', 1],
    ]);
    const reports = listScanReports(
      [
        { id: 1, name: 'Gate' },
        { id: 2, name: 'VIP' },
      ],
      [
        { listId: 1, day: '2026-12-01', type: 'entry', scans: 2 },
        { listId: 1, day: '2026-12-02', type: 'entry', scans: 1 },
        { listId: 1, day: '2026-12-03', type: 'exit', scans: 1 },
        { listId: 1, day: '2026-12-09', type: 'entry', scans: 5 },
        { listId: 3, day: '2026-12-01', type: 'entry', scans: 5 },
      ],
      buckets,
      bucketOfDay,
    );
    expect(reports).toEqual([
      {
        list_id: 1,
        name: 'Gate',
        intervals: [
          { start: '2026-12-01', end: '2026-12-01', entries: 2, exits: 0 },
          { start: '2026-12-02', end: '2026-12-03', entries: 1, exits: 1 },
        ],
        totals: { entries: 3, exits: 1 },
      },
      {
        list_id: 2,
        name: 'VIP',
        intervals: [
          { start: '2026-12-01', end: '2026-12-01', entries: 0, exits: 0 },
          { start: '2026-12-02', end: '2026-12-03', entries: 0, exits: 0 },
        ],
        totals: { entries: 0, exits: 0 },
      },
    ]);
  });
});
