import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { forbidden, invalidParam } from '../common/errors/api-error';
import { appConfig } from '../config/app.config';
import { availableUnits, effectiveCapacity } from '../tickets/capacity';
import { CapacityService } from '../tickets/capacity.service';
import type { SalesReportQuery, SummaryReportQuery } from './dto/report.query';
import { formatMoney } from '../common/money';
import { PAYMENT_METHODS } from '../orders/order.entity';
import type {
  ListCheckinReport,
  PaymentMethodSales,
  SalesInterval,
  SalesReportResponse,
  SummaryReportResponse,
  TicketSales,
  TicketSummary,
} from './dto/report.response';
import { addCounts, eventCapacity, listScanReports, toSalesFigures } from './report-figures';
import { intervalsOf, resolveRange } from './report-intervals';
import { emptyCounts, ReportsRepository } from './reports.repository';
import type { SalesCounts } from './sales-ledger.entity';
import { canManageEvent } from '../access/event-access';

/** Every payment method once, in PAYMENT_METHODS order, those without sales at zero. */
function paymentMethodSales(
  rows: Array<{ paymentMethod: string; orders: number; sold: number; amountMinor: number }>,
  exponent: number,
): PaymentMethodSales[] {
  return PAYMENT_METHODS.map((method) => {
    const row = rows.find((candidate) => candidate.paymentMethod === method);
    return {
      payment_method: method,
      orders: row?.orders ?? 0,
      sold: row?.sold ?? 0,
      revenue: formatMoney(row?.amountMinor ?? 0, exponent),
    };
  });
}

/**
 * Sales reports of one event, for its managers. Every figure comes from maintained counts: sold
 * and pending units from the tickets' capacity counters and pool, money and check-ins from the
 * sales ledger (written by triggers in every sale's transaction, folded per ticket and day), so a
 * report is exact while a sale runs and never reads the attendees.
 */
@Injectable()
export class ReportsService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: ReportsRepository,
  ) {}

  async sales(query: SalesReportQuery, user: AuthenticatedUser): Promise<SalesReportResponse> {
    const resolved = resolveRange(query.from, query.to, this.clock.now());
    if ('field' in resolved) throw invalidParam(resolved.field, resolved.reason);
    const { range } = resolved;
    const interval = query.interval ?? 'day';
    await this.assertManages(query.post_id, user);

    const buckets = intervalsOf(range, interval);
    const bucketOfDay = new Map<string, number>();
    buckets.forEach((bucket, index) => {
      for (
        let day = new Date(`${bucket.start}T00:00:00Z`);
        day.toISOString().slice(0, 10) <= bucket.end;
        day.setUTCDate(day.getUTCDate() + 1)
      ) {
        bucketOfDay.set(day.toISOString().slice(0, 10), index);
      }
    });

    const tickets = await this.repository.ticketsOf(query.post_id);
    const rows = await this.repository.salesByTicketAndDay(query.post_id, range.from, range.to);
    const perTicket = new Map<number, SalesCounts[]>();
    for (const ticket of tickets)
      perTicket.set(
        ticket.id,
        buckets.map(() => emptyCounts()),
      );
    for (const row of rows) {
      const index = bucketOfDay.get(row.day);
      if (index === undefined) continue;
      if (!perTicket.has(row.ticketId))
        perTicket.set(
          row.ticketId,
          buckets.map(() => emptyCounts()),
        );
      addCounts((perTicket.get(row.ticketId) as SalesCounts[])[index], row);
    }
    const names = new Map(tickets.map((ticket) => [ticket.id, ticket.name]));
    const gone = [...perTicket.keys()].filter((id) => !names.has(id));
    for (const [id, name] of await this.repository.ticketNames(gone)) names.set(id, name);

    const all = buckets.map(() => emptyCounts());
    const total = emptyCounts();
    const ticketSales: TicketSales[] = [...perTicket.entries()]
      .sort(([a], [b]) => a - b)
      .map(([ticketId, counts]) => {
        const ticketTotal = emptyCounts();
        counts.forEach((bucketCounts, index) => {
          addCounts(ticketTotal, bucketCounts);
          addCounts(all[index], bucketCounts);
        });
        addCounts(total, ticketTotal);
        return {
          ticket_id: ticketId,
          name: names.get(ticketId) ?? null,
          intervals: counts.map((bucketCounts, index) => this.interval(buckets[index], bucketCounts)),
          totals: toSalesFigures(ticketTotal, this.config.currency.exponent),
        };
      });
    return {
      post_id: query.post_id,
      from: range.from,
      to: range.to,
      interval,
      time_zone: 'UTC',
      currency: this.config.currency.code,
      tickets: ticketSales,
      intervals: all.map((counts, index) => this.interval(buckets[index], counts)),
      totals: toSalesFigures(total, this.config.currency.exponent),
      checkin_lists: await this.listScans(query.post_id, range, buckets, bucketOfDay),
    };
  }

  /** Successful entry and exit scans per check-in list of the event and interval. */
  private async listScans(
    eventId: number,
    range: { from: string; to: string },
    buckets: Array<{ start: string; end: string }>,
    bucketOfDay: Map<string, number>,
  ): Promise<ListCheckinReport[]> {
    const lists = await this.repository.checkinLists(eventId);
    if (lists.length === 0) return [];
    const scans = await this.repository.scansByListAndDay(eventId, range.from, range.to);
    return listScanReports(lists, scans, buckets, bucketOfDay);
  }

  async summary(query: SummaryReportQuery, user: AuthenticatedUser): Promise<SummaryReportResponse> {
    await this.assertManages(query.post_id, user);
    const [tickets, pool, sales, lists, byMethod] = await Promise.all([
      this.repository.ticketsOf(query.post_id),
      this.repository.poolOf(query.post_id),
      this.repository.salesByTicket(query.post_id),
      this.repository.checkinLists(query.post_id),
      this.repository.salesByPaymentMethod(query.post_id),
    ]);
    const [waiting, positions] = await Promise.all([
      this.repository.waitingPerTicket(tickets.map((ticket) => ticket.id)),
      this.repository.listPositions(lists.map((list) => list.id)),
    ]);
    const total = emptyCounts();
    for (const counts of sales.values()) addCounts(total, counts);
    const capacities = tickets.map((ticket) => {
      const state = CapacityService.stateOf(ticket, pool ?? undefined);
      // The ticket's own cap and what is left of it, for the event's sum (the pool is added once there).
      const ownCap = ticket.capacityMode === 'own' || ticket.capacityMode === 'capped' ? ticket.capacity : null;
      return {
        ticket,
        mode: ticket.capacityMode,
        ownCapacity: ownCap,
        ownAvailable: ownCap === null ? null : Math.max(ownCap - ticket.sold - ticket.pending, 0),
        capacity: effectiveCapacity(state) ?? null,
        available: ticket.capacityMode === 'unlimited' ? null : availableUnits(state),
      };
    });
    const event = eventCapacity(
      capacities.map((entry) => ({ mode: entry.mode, capacity: entry.ownCapacity, available: entry.ownAvailable })),
      pool,
    );
    const ticketSummaries: TicketSummary[] = capacities.map(({ ticket, capacity, available }) => {
      const counts = sales.get(ticket.id) ?? emptyCounts();
      const figures = toSalesFigures(counts, this.config.currency.exponent);
      return {
        ticket_id: ticket.id,
        name: ticket.name,
        capacity_mode: ticket.capacityMode,
        capacity,
        sold: ticket.sold,
        pending: ticket.pending,
        available,
        revenue: figures.net_revenue,
        checked_in: counts.checked_in,
        waitlist: waiting.get(ticket.id)?.units ?? 0,
      };
    });
    const figures = toSalesFigures(total, this.config.currency.exponent);
    return {
      post_id: query.post_id,
      currency: this.config.currency.code,
      capacity: event.capacity,
      sold: tickets.reduce((sum, ticket) => sum + ticket.sold, 0),
      pending: tickets.reduce((sum, ticket) => sum + ticket.pending, 0),
      available: event.available,
      revenue: figures.net_revenue,
      refunded_amount: figures.refunded_amount,
      checked_in: total.checked_in,
      coupon_units: figures.coupon_units,
      discount: figures.discount,
      waitlist: [...waiting.values()].reduce((sum, entry) => sum + entry.units, 0),
      waitlist_entries: [...waiting.values()].reduce((sum, entry) => sum + entry.entries, 0),
      checkin_lists: lists.map((list) => ({
        list_id: list.id,
        name: list.name,
        checked_in: positions.get(list.id)?.checkedIn ?? 0,
        inside: positions.get(list.id)?.inside ?? 0,
      })),
      tickets: ticketSummaries,
      payment_methods: paymentMethodSales(byMethod, this.config.currency.exponent),
    };
  }

  private interval(bucket: { start: string; end: string }, counts: SalesCounts): SalesInterval {
    return { start: bucket.start, end: bucket.end, ...toSalesFigures(counts, this.config.currency.exponent) };
  }

  /** 400 naming post_id for an unknown event, 403 for a caller who does not manage it. */
  private async assertManages(eventId: number, user: AuthenticatedUser): Promise<void> {
    const event = await this.repository.findEvent(eventId);
    if (!event) throw invalidParam('post_id', `post_id ${eventId} is not an event`);
    if (!canManageEvent(user, event)) throw forbidden(false, 'Sorry, you are not allowed to see the reports of this event.');
  }
}
