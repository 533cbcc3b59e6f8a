import { Injectable } from '@nestjs/common';
import type { ToolRequirement } from '../../access/tool-access';
import { AttendeesService } from '../../attendees/attendees.service';
import { ListAttendeesQuery } from '../../attendees/dto/list-attendees.query';
import { CheckinListsService } from '../../checkin/checkin-lists.service';
import { deviceNotFound } from '../../checkin/checkin-errors';
import { DevicesService } from '../../checkin/devices.service';
import { CouponsService } from '../../coupons/coupons.service';
import { CreateCouponDto } from '../../coupons/dto/create-coupon.dto';
import { EmailsService } from '../../emails/emails.service';
import { EventReads } from '../../catalogue/event-reads.service';
import { EventWrites } from '../../event-routes/event-writes';
import type { EventResponse } from '../../events/dto/event.response';
import { ListOrdersQuery } from '../../orders/dto/list-orders.query';
import { RefundOrderDto } from '../../orders/dto/refund-order.dto';
import { OrdersService } from '../../orders/orders.service';
import { SalesReportQuery, SummaryReportQuery } from '../../reports/dto/report.query';
import { ReportsService } from '../../reports/reports.service';
import { parseJsonText } from '../../tec-v1/tec-responses';
import { OfferNextDto } from '../../waitlist/dto/manage-waitlist.dto';
import { WaitlistService } from '../../waitlist/waitlist.service';
import { asQuery, flag, idArgument, integer, McpTool, objectSchema, PAGING, signedIn, text, ToolCall, validated } from '../mcp-tool';

const MANAGERS = 'publish_events' as const;
const need = (scope: ToolRequirement['scope'], audience: ToolRequirement['audience'] = MANAGERS): ToolRequirement[] => [
  { audience, scope },
];
const CONFIRMATION = {
  confirmation: text('The handle a first call without it answered, to do what its preview shows (valid 5 minutes, once)'),
};

/** Who asks about orders, as the orders routes see them: the caller, and no cart. */
const viewerOf = (call: ToolCall) => ({ user: signedIn(call).user, cartToken: null });
/** What a refund's or a cancellation's preview shows of the order. */
const orderSummary = (order: { id: number; status: string; total: string; currency: string; attendees: unknown[] }) => ({
  id: order.id,
  status: order.status,
  total: order.total,
  currency: order.currency,
  attendees: order.attendees.length,
});

/**
 * The box office: sales, orders, attendees, the door, coupons and the waitlist, for those who manage
 * events (the REST routes' `publish_events`, narrowed by the token's scopes), each over the service
 * its REST route calls. Refunds, cancellations, deleting an event and revoking a device answer a
 * preview and a confirmation handle first (McpServerFactory runs that step).
 */
@Injectable()
export class BoxOfficeTools {
  constructor(
    private readonly reports: ReportsService,
    private readonly orders: OrdersService,
    private readonly attendees: AttendeesService,
    private readonly lists: CheckinListsService,
    private readonly emails: EmailsService,
    private readonly coupons: CouponsService,
    private readonly waitlist: WaitlistService,
    private readonly devices: DevicesService,
    private readonly eventReads: EventReads,
    private readonly eventWrites: EventWrites,
  ) {}

  tools(): McpTool[] {
    return [
      {
        name: 'sales_summary',
        title: 'Sales summary of an event',
        description: 'Units sold, pending and left per ticket, revenue, refunds, check-ins per list, sales per payment method.',
        inputSchema: objectSchema({ event_id: integer('The event') }, ['event_id']),
        requirements: need('reports:read'),
        readOnly: true,
        run: async (args, call) =>
          this.reports.summary(await validated(SummaryReportQuery, asQuery({ post_id: args.event_id }), 'query'), signedIn(call).user),
      },
      {
        name: 'sales_by_day',
        title: 'Sales of an event by day',
        description: 'Orders, units and revenue per day (or week) in a date range (the last 30 days by default).',
        inputSchema: objectSchema(
          {
            event_id: integer('The event'),
            from: text('First day (YYYY-MM-DD)'),
            to: text('Last day (YYYY-MM-DD)'),
            interval: { type: 'string', enum: ['day', 'week'], description: 'day (default) or week' },
          },
          ['event_id'],
        ),
        requirements: need('reports:read'),
        readOnly: true,
        run: async (args, call) => {
          const { event_id: postId, ...rest } = args;
          return this.reports.sales(await validated(SalesReportQuery, asQuery({ ...rest, post_id: postId }), 'query'), signedIn(call).user);
        },
      },
      {
        name: 'search_orders',
        title: 'Search orders',
        description: 'Orders, newest first, by status; buyers’ names and emails masked for tokens without full personal data.',
        inputSchema: objectSchema({
          status: {
            type: 'array',
            items: { type: 'string', enum: ['pending', 'completed', 'cancelled', 'refunded', 'expired', 'failed'] },
            description: 'Order statuses',
          },
          ...PAGING,
        }),
        requirements: need('orders:read', 'manage_attendees'),
        readOnly: true,
        run: async (args, call) => {
          const page = await this.orders.list(await validated(ListOrdersQuery, asQuery(args), 'query'), viewerOf(call), call.context);
          return { total: page.total, total_pages: page.totalPages, orders: page.orders };
        },
      },
      {
        name: 'get_order',
        title: 'Get an order',
        description: 'One order: status, total, payment, buyer and the attendees of the events the caller manages.',
        inputSchema: objectSchema({ order_id: integer('The order') }, ['order_id']),
        requirements: need('orders:read'),
        readOnly: true,
        run: (args, call) => this.orders.get(idArgument(args, 'order_id'), viewerOf(call), call.context),
      },
      {
        name: 'search_attendees',
        title: 'Search attendees',
        description: 'Attendees of the events the caller manages, by event, ticket, words or check-in state.',
        inputSchema: objectSchema({
          event_id: integer('Attendees of this event'),
          ticket_id: integer('Attendees of this ticket'),
          search: text('Words to find in names, emails and security codes'),
          checkedin: flag('Checked in (true) or not yet (false)'),
          ...PAGING,
        }),
        requirements: need('attendees:read'),
        readOnly: true,
        run: async (args, call) => {
          const { event_id: postId, ...rest } = args;
          const query = asQuery({ ...rest, ...(postId === undefined ? {} : { post_id: postId }) });
          return this.attendees.list(await validated(ListAttendeesQuery, query, 'query'), call.context);
        },
      },
      {
        name: 'checkin_list_status',
        title: 'Check-in status of a list',
        description: 'How many of a check-in list’s attendees are in, per ticket, and when the last one came.',
        inputSchema: objectSchema({ list_id: integer('The check-in list') }, ['list_id']),
        requirements: need('checkin:read', 'door'),
        readOnly: true,
        run: (args, call) => this.lists.status(idArgument(args, 'list_id'), { kind: 'user', user: signedIn(call).user }),
      },
      {
        name: 'resend_order_tickets',
        title: "Resend an order's tickets",
        description: 'Emails the buyer their tickets again (queued; the answer lists what was queued).',
        inputSchema: objectSchema({ order_id: integer('The order') }, ['order_id']),
        requirements: need('orders:write'),
        readOnly: false,
        run: async (args, call) => ({ queued: await this.emails.resendOrder(idArgument(args, 'order_id'), viewerOf(call)) }),
      },
      {
        name: 'create_coupon',
        title: 'Create a coupon',
        description: 'A discount code for an event’s tickets (or some of them): percent or flat, with optional uses and dates.',
        inputSchema: objectSchema(
          {
            code: text('The code buyers type (letters, digits, - and _)'),
            post_id: integer('The event it applies to'),
            ticket_ids: { type: 'array', items: { type: 'integer', minimum: 1 }, description: 'Only these tickets of the event' },
            discount_type: { type: 'string', enum: ['percent', 'flat', 'none'], description: 'percent, flat (off each ticket) or none' },
            amount: text('percent: 0.01 to 100; flat: the amount off each ticket ("5.00")'),
            max_uses: integer('Most tickets it may discount'),
            starts_at: text('From (YYYY-MM-DD HH:MM:SS)'),
            ends_at: text('Until (YYYY-MM-DD HH:MM:SS)'),
            reveals_hidden: flag('Whether the code reveals tickets hidden without a coupon'),
          },
          ['code', 'discount_type'],
        ),
        requirements: need('coupons:write'),
        readOnly: false,
        run: async (args, call) => this.coupons.create(await validated(CreateCouponDto, args), signedIn(call).context),
      },
      {
        name: 'waitlist_offer_next',
        title: 'Offer the next waitlist places',
        description: 'Offers freed units of a sold-out ticket to the next people on its waitlist (they get an email with a link).',
        inputSchema: objectSchema({ ticket_id: integer('The ticket'), quantity: integer('Most units to offer') }, [
          'ticket_id',
          'quantity',
        ]),
        requirements: need('waitlist:write'),
        readOnly: false,
        run: async (args, call) => {
          const body = await validated(OfferNextDto, args);
          return this.waitlist.offerNext(body.ticket_id, body.quantity, signedIn(call).user);
        },
      },
      {
        name: 'refund_order',
        title: 'Refund an order',
        description:
          'Refunds a completed order (all of it, or `amount`) through its payment provider and gives back its capacity. The first call answers a preview and a confirmation handle; call again with `confirmation` to refund.',
        inputSchema: objectSchema(
          { order_id: integer('The order'), amount: text('Part of the total to refund ("10.00"); default: what is left'), ...CONFIRMATION },
          ['order_id'],
        ),
        requirements: need('orders:refund'),
        readOnly: false,
        confirm: {
          preview: async (args, call) => {
            const order = await this.orders.get(idArgument(args, 'order_id'), viewerOf(call), call.context);
            await validated(RefundOrderDto, { amount: args.amount });
            return {
              action: 'refund',
              order: orderSummary(order),
              amount: args.amount ?? order.total,
            };
          },
        },
        run: async (args, call) => {
          const body = await validated(RefundOrderDto, { amount: args.amount });
          return this.orders.refund(idArgument(args, 'order_id'), viewerOf(call), call.context, body.amount);
        },
      },
      {
        name: 'cancel_order',
        title: 'Cancel an order',
        description:
          'Cancels an order and gives back its capacity, as POST /orders/{id}/cancel (no payment is refunded: refund_order does that). Preview first, then call again with `confirmation`.',
        inputSchema: objectSchema({ order_id: integer('The order'), ...CONFIRMATION }, ['order_id']),
        requirements: need('orders:refund'),
        readOnly: false,
        confirm: {
          preview: async (args, call) => {
            const order = await this.orders.get(idArgument(args, 'order_id'), viewerOf(call), call.context);
            return {
              action: 'cancel',
              order: orderSummary(order),
            };
          },
        },
        run: (args, call) => this.orders.cancel(idArgument(args, 'order_id'), viewerOf(call), call.context),
      },
      {
        name: 'delete_event',
        title: 'Delete an event for good',
        description:
          'Deletes an event for good (trashing is tec-calendar-delete-entities without force). Preview first, then call again with `confirmation`.',
        inputSchema: objectSchema({ id: integer('The event'), ...CONFIRMATION }, ['id']),
        requirements: need('events:write', 'delete_events'),
        readOnly: false,
        confirm: {
          preview: async (args, call) => {
            const event = await parseJsonText<EventResponse>(await this.eventReads.get({ id: idArgument(args, 'id') }, call.context));
            return { action: 'delete', event: { id: event.id, title: event.title, status: event.status, start_date: event.start_date } };
          },
        },
        run: async (args, call) => {
          const { user, context } = signedIn(call);
          return this.eventWrites.remove({ id: idArgument(args, 'id') }, true, user, context);
        },
      },
      {
        name: 'revoke_device',
        title: 'Revoke a door device',
        description:
          'Revokes a scanning device’s token: it can no longer check anyone in. Preview first, then call again with `confirmation`.',
        inputSchema: objectSchema({ device_id: integer('The device'), ...CONFIRMATION }, ['device_id']),
        requirements: need('checkin:write'),
        readOnly: false,
        confirm: {
          preview: async (args, call) => {
            const id = idArgument(args, 'device_id');
            const device = (await this.devices.list(signedIn(call).user)).devices.find((candidate) => candidate.id === id);
            if (!device) throw deviceNotFound();
            return { action: 'revoke', device };
          },
        },
        run: (args, call) => this.devices.revoke(idArgument(args, 'device_id'), signedIn(call).user),
      },
    ];
  }
}
