import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PAYMENT_METHODS, type PaymentMethod } from '../../orders/order.entity';

/** What sold in a span of time (an interval, or the whole report). */
@ApiSchema({ name: 'SalesFigures' })
export class SalesFigures {
  @ApiProperty({ description: 'Units sold (orders completed, free orders and RSVP "going" answers at checkout)' })
  sold: number;

  @ApiProperty({ description: "Amount of the units sold, exact decimal with the currency's decimals", example: '150.00' })
  revenue: string;

  @ApiProperty({ description: 'Units of completed orders refunded' })
  refunded: number;

  @ApiProperty({ description: 'Amount refunded', example: '25.00' })
  refunded_amount: string;

  @ApiProperty({ description: 'Units of completed orders cancelled' })
  cancelled: number;

  @ApiProperty({ description: 'Amount of the cancelled units', example: '0.00' })
  cancelled_amount: string;

  @ApiProperty({ description: 'sold - refunded - cancelled' })
  net_sold: number;

  @ApiProperty({ description: 'revenue - refunded_amount - cancelled_amount', example: '125.00' })
  net_revenue: string;

  @ApiProperty({ description: 'Check-ins made (less those undone)' })
  checked_in: number;

  @ApiProperty({ description: 'Units sold with a coupon (counted when sold, like `sold`)' })
  coupon_units: number;

  @ApiProperty({ description: 'What coupons took off the units sold, exact decimal', example: '10.00' })
  discount: string;
}

@ApiSchema({ name: 'ListScans' })
export class ListScans {
  @ApiProperty({ description: 'Successful entry scans (forced offline ones included)' })
  entries: number;

  @ApiProperty({ description: 'Successful exit scans' })
  exits: number;
}

@ApiSchema({ name: 'ListScanInterval' })
export class ListScanInterval extends ListScans {
  @ApiProperty({ description: 'First UTC day of the interval', example: '2026-11-23' })
  start: string;

  @ApiProperty({ description: 'Last UTC day of the interval (included)', example: '2026-11-29' })
  end: string;
}

@ApiSchema({ name: 'ListCheckinReport' })
export class ListCheckinReport {
  @ApiProperty()
  list_id: number;

  @ApiProperty({ description: 'The check-in list name' })
  name: string;

  @ApiProperty({ type: [ListScanInterval], description: 'Every interval of the range, in order, zeros included' })
  intervals: ListScanInterval[];

  @ApiProperty({ type: ListScans, description: 'The list over the whole range' })
  totals: ListScans;
}

@ApiSchema({ name: 'ListCheckinSummary' })
export class ListCheckinSummary {
  @ApiProperty()
  list_id: number;

  @ApiProperty({ description: 'The check-in list name' })
  name: string;

  @ApiProperty({ description: 'Attendees who entered through this list at least once' })
  checked_in: number;

  @ApiProperty({ description: 'Attendees inside now (entered, not exited since)' })
  inside: number;
}

@ApiSchema({ name: 'SalesInterval' })
export class SalesInterval extends SalesFigures {
  @ApiProperty({ description: 'First UTC day of the interval', example: '2026-11-23' })
  start: string;

  @ApiProperty({ description: 'Last UTC day of the interval (included)', example: '2026-11-29' })
  end: string;
}

@ApiSchema({ name: 'TicketSales' })
export class TicketSales {
  @ApiProperty()
  ticket_id: number;

  @ApiProperty({ description: 'The ticket name', type: String, nullable: true })
  name: string | null;

  @ApiProperty({ type: [SalesInterval], description: 'Every interval of the range, in order, zeros included' })
  intervals: SalesInterval[];

  @ApiProperty({ type: SalesFigures, description: 'The ticket over the whole range' })
  totals: SalesFigures;
}

@ApiSchema({ name: 'SalesReport' })
export class SalesReportResponse {
  @ApiProperty()
  post_id: number;

  @ApiProperty({ example: '2026-11-01' })
  from: string;

  @ApiProperty({ example: '2026-11-30' })
  to: string;

  @ApiProperty({ enum: ['day', 'week'] })
  interval: string;

  @ApiProperty({ description: 'Days are UTC days', example: 'UTC' })
  time_zone: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ type: [TicketSales] })
  tickets: TicketSales[];

  @ApiProperty({ type: [SalesInterval], description: 'All tickets per interval' })
  intervals: SalesInterval[];

  @ApiProperty({ type: SalesFigures, description: 'All tickets over the whole range' })
  totals: SalesFigures;

  @ApiProperty({ type: [ListCheckinReport], description: 'Scans per check-in list of the event (src/checkin), per interval; by list id' })
  checkin_lists: ListCheckinReport[];
}

@ApiSchema({ name: 'TicketSummary' })
export class TicketSummary {
  @ApiProperty()
  ticket_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ['own', 'capped', 'global', 'unlimited'] })
  capacity_mode: string;

  @ApiProperty({ type: Number, nullable: true, description: 'Most units it can sell; null when unlimited' })
  capacity: number | null;

  @ApiProperty({ description: 'Units in completed orders' })
  sold: number;

  @ApiProperty({ description: 'Units held by pending orders' })
  pending: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Units that can still be bought; null when unlimited' })
  available: number | null;

  @ApiProperty({ description: 'Net revenue (sold less refunded and cancelled)', example: '125.00' })
  revenue: string;

  @ApiProperty()
  checked_in: number;

  @ApiProperty({ description: "Units waiting on the ticket's waitlist (entries in status waiting)" })
  waitlist: number;
}

/** The ticket sales of one payment method (online, cash, card terminal, free): what stands, now. */
@ApiSchema({ name: 'PaymentMethodSales' })
export class PaymentMethodSales {
  @ApiProperty({ enum: PAYMENT_METHODS, description: 'online: the web checkout; cash, card_terminal, free: sales at the door' })
  payment_method: PaymentMethod;

  @ApiProperty({ description: 'Completed orders of the event’s tickets paid this way' })
  orders: number;

  @ApiProperty({ description: 'Units of those orders' })
  sold: number;

  @ApiProperty({ description: "What they charged, exact decimal with the currency's decimals", example: '60.00' })
  revenue: string;
}

@ApiSchema({ name: 'EventSalesSummary' })
export class SummaryReportResponse {
  @ApiProperty()
  post_id: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Units the event's tickets can sell (a shared pool counted once); null when a ticket is unlimited",
  })
  capacity: number | null;

  @ApiProperty()
  sold: number;

  @ApiProperty()
  pending: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Units that can still be bought; null when a ticket is unlimited' })
  available: number | null;

  @ApiProperty({ description: 'Net revenue', example: '125.00' })
  revenue: string;

  @ApiProperty({ description: 'Amount refunded', example: '25.00' })
  refunded_amount: string;

  @ApiProperty()
  checked_in: number;

  @ApiProperty({ description: 'Units sold with a coupon' })
  coupon_units: number;

  @ApiProperty({ description: 'What coupons took off the units sold', example: '10.00' })
  discount: string;

  @ApiProperty({
    description: "Units waiting on the waitlists of the event's tickets (entries in status waiting; offered units are in pending)",
  })
  waitlist: number;

  @ApiProperty({ description: 'Entries waiting on those waitlists' })
  waitlist_entries: number;

  @ApiProperty({ type: [ListCheckinSummary], description: 'Check-ins per check-in list of the event, now; by list id' })
  checkin_lists: ListCheckinSummary[];

  @ApiProperty({ type: [TicketSummary] })
  tickets: TicketSummary[];

  @ApiProperty({
    type: [PaymentMethodSales],
    description:
      "Sales standing now (completed orders of the event's paid-checkout tickets) by payment method, each method once, in the order online, cash, card_terminal, free",
  })
  payment_methods: PaymentMethodSales[];
}
