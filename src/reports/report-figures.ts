import { formatMoney } from '../common/money';
import type { ListCheckinReport, ListScans, SalesFigures } from './dto/report.response';
import { SALES_MEASURES, SalesCounts } from './sales-ledger.entity';

/** Adds `counts` into `into`, in place. */
export function addCounts(into: SalesCounts, counts: SalesCounts): SalesCounts {
  for (const measure of SALES_MEASURES) into[measure] += counts[measure];
  return into;
}

/**
 * The published figures of summed counts: amounts as exact decimals with the currency's `exponent`
 * decimals (the ledger's `*_cents` hold minor units), net values derived.
 */
export function toSalesFigures(counts: SalesCounts, exponent: number): SalesFigures {
  const money = (minor: number) => formatMoney(minor, exponent);
  return {
    sold: counts.sold_units,
    revenue: money(counts.sold_cents),
    refunded: counts.refunded_units,
    refunded_amount: money(counts.refunded_cents),
    cancelled: counts.cancelled_units,
    cancelled_amount: money(counts.cancelled_cents),
    net_sold: counts.sold_units - counts.refunded_units - counts.cancelled_units,
    net_revenue: money(counts.sold_cents - counts.refunded_cents - counts.cancelled_cents),
    checked_in: counts.checked_in,
    coupon_units: counts.coupon_units,
    discount: money(counts.discount_cents),
  };
}

/** What a set of tickets can still sell, one ticket's figures at a time. */
export interface TicketCapacityFigures {
  mode: 'own' | 'capped' | 'global' | 'unlimited';
  /** The ticket's own most units (null: the pool's, or unlimited). */
  capacity: number | null;
  /** Units it can still sell by its own cap (null: no own cap). */
  available: number | null;
}

/**
 * An event's capacity and what is left of it, counting its shared pool once: own tickets add their
 * capacity; the tickets drawing on the pool add at most the pool (less when all of them are capped
 * below it); any unlimited ticket makes both null.
 */
export function eventCapacity(
  tickets: TicketCapacityFigures[],
  pool: { capacity: number; sold: number; pending: number } | null,
): { capacity: number | null; available: number | null } {
  if (tickets.some((ticket) => ticket.mode === 'unlimited')) return { capacity: null, available: null };
  let capacity = 0;
  let available = 0;
  const drawing = tickets.filter((ticket) => ticket.mode === 'capped' || ticket.mode === 'global');
  for (const ticket of tickets) {
    if (ticket.mode !== 'own') continue;
    capacity += ticket.capacity ?? 0;
    available += ticket.available ?? 0;
  }
  if (drawing.length > 0) {
    const poolCapacity = pool?.capacity ?? 0;
    const poolLeft = pool ? Math.max(pool.capacity - pool.sold - pool.pending, 0) : 0;
    const uncapped = drawing.some((ticket) => ticket.mode === 'global' || ticket.capacity === null);
    const capsTotal = drawing.reduce((sum, ticket) => sum + (ticket.capacity ?? 0), 0);
    const capsLeft = drawing.reduce((sum, ticket) => sum + (ticket.available ?? 0), 0);
    capacity += uncapped ? poolCapacity : Math.min(poolCapacity, capsTotal);
    available += uncapped ? poolLeft : Math.min(poolLeft, capsLeft);
  }
  return { capacity, available };
}

/**
 * Scans per check-in list and interval: every list of the event, every interval (zeros included),
 * successful entries and exits summed from rows per list, UTC day and type; rows of other lists or
 * days outside the intervals are left out.
 */
export function listScanReports(
  lists: Array<{ id: number; name: string }>,
  scans: Array<{ listId: number; day: string; type: string; scans: number }>,
  buckets: Array<{ start: string; end: string }>,
  bucketOfDay: ReadonlyMap<string, number>,
): ListCheckinReport[] {
  const perList = new Map<number, ListScans[]>(lists.map((list) => [list.id, buckets.map(() => ({ entries: 0, exits: 0 }))]));
  for (const row of scans) {
    const index = bucketOfDay.get(row.day);
    const counts = index === undefined ? undefined : perList.get(row.listId)?.[index];
    if (!counts) continue;
    if (row.type === 'entry') counts.entries += row.scans;
    else if (row.type === 'exit') counts.exits += row.scans;
  }
  return lists.map((list) => {
    const counts = perList.get(list.id) as ListScans[];
    return {
      list_id: list.id,
      name: list.name,
      intervals: counts.map((bucketCounts, index) => ({ start: buckets[index].start, end: buckets[index].end, ...bucketCounts })),
      totals: {
        entries: counts.reduce((sum, bucketCounts) => sum + bucketCounts.entries, 0),
        exits: counts.reduce((sum, bucketCounts) => sum + bucketCounts.exits, 0),
      },
    };
  });
}
