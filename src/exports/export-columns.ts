import type { Attendee } from '../attendees/attendee.entity';
import type { Event } from '../events/event.entity';
import type { Order } from '../orders/order.entity';
import type { Ticket } from '../tickets/ticket.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { formatMoney } from '../common/money';
import type { ExportColumn, MoneyCell } from './export-cells';
import { questionColumns } from './question-columns';

export type { ExportColumn } from './export-cells';

/** What an export covers, for entries whose columns depend on it (one column per question, per check-in list). */
export interface ExportScope {
  user: AuthenticatedUser;
  /** The events the filters name (`post_id`, `include_post`), empty when they name none. */
  eventIds: number[];
  /**
   * The tickets with attendee questions (src/attendee-questions) of the events in scope (of the
   * events the user manages when the filters name none): one read, when a column group asks.
   */
  questionTickets(): Promise<Array<Pick<Ticket, 'id' | 'attendeeInformationFields'>>>;
}

/**
 * An entry of a column list: one column, or a group of columns decided once per export from what it
 * covers (`{ expand: (scope) => columns }`), such as one column per attendee question.
 */
export type ColumnEntry<Row> = ExportColumn<Row> | { expand(scope: ExportScope): Promise<Array<ExportColumn<Row>>> };

/** The columns of an export, in order, groups expanded. */
export async function resolveColumns<Row>(entries: Array<ColumnEntry<Row>>, scope: ExportScope): Promise<Array<ExportColumn<Row>>> {
  const columns: Array<ExportColumn<Row>> = [];
  for (const entry of entries) {
    if ('expand' in entry) columns.push(...(await entry.expand(scope)));
    else columns.push(entry);
  }
  return columns;
}

type EventFacts = Pick<Event, 'id' | 'title'>;

/** One attendee with what its columns read. */
export interface AttendeeExportRow {
  attendee: Attendee;
  ticket: Pick<Ticket, 'id' | 'name'> | undefined;
  order: Order | undefined;
  event: EventFacts | undefined;
  /** The attendee's answers (its `information`), parsed once; null when it has none. */
  answers: Record<string, unknown> | null;
  /** Its check-ins through the event's check-in lists (src/checkin positions). */
  checkins: AttendeeCheckins;
  /** The currency's decimals, which amounts are written with. */
  exponent: number;
}

/** An attendee's entries on check-in lists: first and last entry over all lists, and the lists entered. */
export interface AttendeeCheckins {
  first: Date | null;
  last: Date | null;
  lists: string[];
}

/** One order with the tickets it holds (of the events the caller manages). */
export interface OrderExportRow {
  order: Order;
  /** Its lines: ticket, name, quantity, unit price (minor units). */
  items: Array<{ ticketId: number; ticketName: string; eventId: number; quantity: number; unitPriceMinor: number }>;
  /** How many of its attendees are checked in. */
  checkedIn: number;
  /** The currency's decimals, which amounts are written with. */
  exponent: number;
}

/** An amount in minor units: its exact decimal with the currency's decimals in CSV, a number in XLSX. */
function amount(minor: number, exponent: number): MoneyCell {
  return { minor, exponent };
}

/**
 * The attendee export's columns. A new column is one entry here; the questions are one `{ expand }`
 * entry making a column per question of the events in scope.
 */
export const ATTENDEE_COLUMNS: Array<ColumnEntry<AttendeeExportRow>> = [
  { key: 'attendee_id', header: 'Attendee ID', value: (row) => row.attendee.id, width: 12 },
  { key: 'event_id', header: 'Event ID', value: (row) => row.attendee.eventId, width: 10 },
  { key: 'event', header: 'Event', value: (row) => row.event?.title ?? null, width: 30 },
  { key: 'ticket_id', header: 'Ticket ID', value: (row) => row.attendee.ticketId, width: 10 },
  { key: 'ticket', header: 'Ticket', value: (row) => row.ticket?.name ?? null, width: 24 },
  { key: 'order_id', header: 'Order ID', value: (row) => row.attendee.orderId, width: 10 },
  { key: 'order_status', header: 'Order status', value: (row) => row.attendee.orderStatus, width: 14 },
  { key: 'status', header: 'Attendee status', value: (row) => row.attendee.status, width: 14 },
  { key: 'provider', header: 'Provider', value: (row) => row.attendee.provider, width: 10 },
  { key: 'payment_method', header: 'Payment method', value: (row) => row.order?.paymentMethod ?? null, width: 14 },
  { key: 'rsvp_going', header: 'RSVP going', value: (row) => row.attendee.rsvpGoing, width: 10 },
  { key: 'price', header: 'Price paid', value: (row) => amount(row.attendee.pricePaidMinor, row.exponent), width: 12, money: true },
  { key: 'currency', header: 'Currency', value: (row) => row.order?.currency ?? null, width: 10 },
  { key: 'coupon', header: 'Coupon', value: (row) => row.attendee.couponCode, width: 16 },
  { key: 'discount', header: 'Discount', value: (row) => amount(row.attendee.discountMinor, row.exponent), width: 12, money: true },
  { key: 'holder_name', header: 'Holder name', value: (row) => row.attendee.holderName, width: 24 },
  { key: 'holder_email', header: 'Holder email', value: (row) => row.attendee.holderEmail, width: 28 },
  { key: 'purchaser_name', header: 'Purchaser name', value: (row) => row.order?.purchaserName ?? null, width: 24 },
  { key: 'purchaser_email', header: 'Purchaser email', value: (row) => row.order?.purchaserEmail ?? null, width: 28 },
  { key: 'security_code', header: 'Security code', value: (row) => row.attendee.securityCode, width: 34 },
  { key: 'checked_in', header: 'Checked in', value: (row) => row.attendee.checkedIn, width: 10 },
  { key: 'checked_in_at', header: 'Checked in at (UTC)', value: (row) => row.attendee.checkedInAt, width: 22, time: true },
  { key: 'checkin_source', header: 'Check-in source', value: (row) => row.attendee.checkinSource, width: 14 },
  { key: 'first_checkin', header: 'First check-in (UTC)', value: (row) => row.checkins.first, width: 22, time: true },
  { key: 'last_checkin', header: 'Last check-in (UTC)', value: (row) => row.checkins.last, width: 22, time: true },
  { key: 'checkin_lists', header: 'Check-in lists', value: (row) => row.checkins.lists.join('; ') || null, width: 24 },
  { key: 'optout', header: 'Hidden from public list', value: (row) => row.attendee.optout, width: 10 },
  { key: 'registration', header: 'Registration answers (JSON)', value: (row) => row.attendee.meta, width: 30 },
  { key: 'created_at', header: 'Created (UTC)', value: (row) => row.attendee.createdAt, width: 22, time: true },
  { expand: async (scope) => questionColumns(await scope.questionTickets()) },
];

/** The order export's columns; a new one is one entry here, as for attendees. */
export const ORDER_COLUMNS: Array<ColumnEntry<OrderExportRow>> = [
  { key: 'order_id', header: 'Order ID', value: (row) => row.order.id, width: 10 },
  { key: 'status', header: 'Status', value: (row) => row.order.status, width: 12 },
  { key: 'provider', header: 'Provider', value: (row) => row.order.provider, width: 10 },
  { key: 'payment_method', header: 'Payment method', value: (row) => row.order.paymentMethod, width: 14 },
  { key: 'purchaser_name', header: 'Purchaser name', value: (row) => row.order.purchaserName, width: 24 },
  { key: 'purchaser_email', header: 'Purchaser email', value: (row) => row.order.purchaserEmail, width: 28 },
  { key: 'total', header: 'Total', value: (row) => amount(row.order.totalMinor, row.exponent), width: 12, money: true },
  { key: 'currency', header: 'Currency', value: (row) => row.order.currency, width: 10 },
  { key: 'coupon', header: 'Coupon', value: (row) => row.order.couponCode, width: 16 },
  { key: 'discount', header: 'Discount', value: (row) => amount(row.order.discountMinor, row.exponent), width: 12, money: true },
  { key: 'units', header: 'Units', value: (row) => row.items.reduce((sum, item) => sum + item.quantity, 0), width: 8 },
  {
    key: 'tickets',
    header: 'Tickets',
    value: (row) =>
      row.items
        .map((item) => `${item.ticketName} (#${item.ticketId}) x${item.quantity} @ ${formatMoney(item.unitPriceMinor, row.exponent)}`)
        .join('; '),
    width: 40,
  },
  { key: 'event_ids', header: 'Event IDs', value: (row) => [...new Set(row.items.map((item) => item.eventId))].join(' '), width: 12 },
  { key: 'checked_in', header: 'Attendees checked in', value: (row) => row.checkedIn, width: 10 },
  { key: 'user_id', header: 'Buyer user ID', value: (row) => row.order.userId, width: 10 },
  { key: 'created_at', header: 'Created (UTC)', value: (row) => row.order.createdAt, width: 22, time: true },
  { key: 'completed_at', header: 'Completed (UTC)', value: (row) => row.order.completedAt, width: 22, time: true },
  { key: 'expires_at', header: 'Hold expires (UTC)', value: (row) => row.order.expiresAt, width: 22, time: true },
];
