import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type Mail from 'nodemailer/lib/mailer';
import QRCode from 'qrcode';
import type { Attendee } from '../attendees/attendee.entity';
import { forbidden } from '../common/errors/api-error';
import { formatMoney, knownExponent } from '../common/money';
import { ApiUrls } from '../common/http/api-urls.service';
import type { RequestContext } from '../auth/request-context';
import { appConfig } from '../config/app.config';
import { EventRelationsLoader } from '../events/event-relations.loader';
import type { Event } from '../events/event.entity';
import { buildEventCalendar, ICS_CONTENT_TYPE } from '../ics/event-calendar';
import { inlineHtmlToText } from '../ics/plain-text';
import { orderInvalidStatus, orderNotFound } from '../orders/order-errors';
import type { EventType } from '../outbox/event-types';
import { PermanentDeliveryError } from '../outbox/delivery-errors';
import type { OutboxMessage } from '../outbox/outbox-message.entity';
import { DirectMessage, EventData, OutboxService } from '../outbox/outbox.service';
import { EmailTemplate, EmailTemplates, isEmailTemplate } from './email-templates';
import { EmailsRepository } from './emails.repository';
import type { QueuedEmail } from './dto/resend.response';
import { MailTransport } from './mail-transport.service';
import { attendeeInvalidStatus, attendeeNotFound } from '../attendees/attendee-errors';
import type { WaitlistOfferEmail } from '../waitlist/waitlist-offers.service';
import { holdsValidTicket } from '../orders/order-status';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent, managesAllEvents, managesAnyEvent } from '../access/event-access';
import { OrderViewer, isBuyer } from '../access/order-access';

/** What an email row names: its order, and for a ticket email the one attendee. */
interface EmailPayload {
  order_id: number;
  attendee_id?: number;
}

/** Who asks for a resend: the signed-in user, and the cart token of an anonymous buyer. */
export type ResendViewer = OrderViewer;

/** The template an order's own email takes in each status: resends follow it too. */
const ORDER_TEMPLATE: Partial<Record<string, EmailTemplate>> = {
  completed: 'order-confirmation',
  cancelled: 'order-cancelled',
  refunded: 'order-refunded',
};

function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function eventIdsOf(attendees: Attendee[]): number[] {
  return [...new Set(attendees.map((attendee) => attendee.eventId))];
}

function holdsTicket(attendee: Attendee): boolean {
  return attendee.rsvpGoing !== false && holdsValidTicket(attendee.orderStatus);
}

/**
 * The buyer's emails: an order confirmation with every ticket (QR code of its security code
 * inline, the events as an `.ics` attachment), a ticket email to each attendee whose address is not
 * the purchaser's, and cancellation and refund notices. Which emails a notification causes is
 * decided when the worker fans it out; each email is rendered from the database when it is sent.
 */
@Injectable()
export class EmailsService {
  private readonly templates: EmailTemplates;

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly urls: ApiUrls,
    private readonly relations: EventRelationsLoader,
    private readonly transport: MailTransport,
    private readonly outbox: OutboxService,
    private readonly repository: EmailsRepository,
  ) {
    this.templates = new EmailTemplates(config.notifications.emailTemplatesDir);
  }

  // ---------------------------------------------------------------- fan-out

  /** The emails a notification causes, read in the worker's transaction. */
  async emailsFor(type: EventType, data: EventData): Promise<DirectMessage[]> {
    const orderId = Number(data.order_id);
    if (!Number.isInteger(orderId)) return [];
    if (type === 'order.placed' && data.status !== 'completed') return [];
    if (type !== 'order.placed' && type !== 'order.completed' && type !== 'order.cancelled' && type !== 'order.refunded') return [];
    const order = await this.repository.findOrder(orderId);
    // A walk-in sale at the door without the buyer's address (POST /checkin/sell): nobody to write to.
    if (!order || order.purchaserEmail === '') return [];
    if (type === 'order.cancelled') return [this.message('order-cancelled', order.purchaserEmail, { order_id: order.id })];
    if (type === 'order.refunded') return [this.message('order-refunded', order.purchaserEmail, { order_id: order.id })];
    const attendees = await this.repository.attendeesOfOrder(orderId);
    const messages = [this.message('order-confirmation', order.purchaserEmail, { order_id: order.id })];
    for (const attendee of attendees.filter(holdsTicket)) {
      if (!sameAddress(attendee.holderEmail, order.purchaserEmail)) {
        messages.push(this.message('ticket', attendee.holderEmail, { order_id: order.id, attendee_id: attendee.id }));
      }
    }
    return messages;
  }

  private message(template: EmailTemplate, recipient: string, payload: EmailPayload): DirectMessage {
    return { channel: 'email', type: template, recipient, payload: JSON.stringify(payload) };
  }

  // ---------------------------------------------------------------- delivery

  async deliver(message: OutboxMessage): Promise<void> {
    if (!isEmailTemplate(message.type) || !message.recipient) throw new PermanentDeliveryError(`unknown email ${message.type}`);
    const mail =
      message.type === 'waitlist-offer'
        ? this.buildWaitlistOffer(message.recipient, JSON.parse(message.payload) as WaitlistOfferEmail)
        : await this.build(message.type, message.recipient, JSON.parse(message.payload) as EmailPayload);
    const stamp = message.createdAt
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    await this.transport.send(mail, `${stamp}-${message.id}-${message.type}`);
  }

  /** The whole message: subject, text and HTML parts, QR codes inline, the events' calendar attached. */
  async build(template: EmailTemplate, recipient: string, payload: EmailPayload): Promise<Mail.Options> {
    const order = await this.repository.findOrder(payload.order_id);
    if (!order) throw new PermanentDeliveryError(`order ${payload.order_id} no longer exists`);
    const all = await this.repository.attendeesOfOrder(order.id);
    const withTickets = template === 'order-confirmation' || template === 'ticket';
    const listed = !withTickets
      ? []
      : all.filter((attendee) => holdsTicket(attendee) && (template !== 'ticket' || attendee.id === payload.attendee_id));
    if (template === 'ticket' && listed.length === 0)
      throw new PermanentDeliveryError(`attendee ${payload.attendee_id} holds no valid ticket`);
    const ticketIds = [...new Set(listed.map((attendee) => attendee.ticketId))];
    const tickets = await this.repository.tickets(ticketIds);
    const events = await this.repository.events(eventIdsOf(listed));
    const eventById = new Map(events.map((event) => [event.id, event]));

    const attachments: Mail.Attachment[] = [];
    const ticketViews = [];
    for (const attendee of listed) {
      const event = eventById.get(attendee.eventId);
      const qrCid = `qr-${attendee.id}@cal`;
      attachments.push({
        filename: `ticket-${attendee.id}.png`,
        content: await QRCode.toBuffer(attendee.checkinSecret ?? attendee.securityCode, {
          type: 'png',
          errorCorrectionLevel: 'M',
          margin: 2,
          scale: 6,
        }),
        contentType: 'image/png',
        cid: qrCid,
        contentDisposition: 'inline',
      });
      ticketViews.push({
        ticketName: inlineHtmlToText(tickets.get(attendee.ticketId)?.name ?? ''),
        eventTitle: event ? inlineHtmlToText(event.title) : '',
        start: event ? this.when(event) : '',
        holderName: attendee.holderName,
        // The QR code and the text below it: the check-in secret the door redeems (src/checkin/).
        securityCode: attendee.checkinSecret ?? attendee.securityCode,
        qrCid,
      });
    }
    if (events.length > 0) {
      const relations = await this.relations.load(events.map((event) => event.id));
      const context = this.context();
      const ics = buildEventCalendar(
        events.map((event) => ({ event, relations: relations.get(event.id)! })),
        {
          name: events.map((event) => inlineHtmlToText(event.title)).join(', '),
          url: context.namespaceUrl('tickets', `orders/${order.id}`),
          context,
        },
      );
      attachments.push({
        filename: events.length === 1 ? `${events[0].slug}.ics` : 'events.ics',
        content: ics,
        contentType: `${ICS_CONTENT_TYPE}; method=PUBLISH`,
      });
    }
    const allEvents = events.length > 0 ? events : await this.repository.events(eventIdsOf(all));
    const holder = template === 'ticket' ? listed[0] : undefined;
    const rendered = this.templates.render(template, {
      order: { id: order.id, purchaserName: order.purchaserName, status: order.status },
      total: `${formatMoney(order.totalMinor, knownExponent(order.currency))} ${order.currency}`,
      eventTitles: allEvents.map((event) => inlineHtmlToText(event.title)).join(', '),
      holderName: holder?.holderName ?? order.purchaserName,
      tickets: ticketViews,
    });
    return { to: recipient, subject: rendered.subject, text: rendered.text, html: rendered.html, attachments };
  }

  /** A waitlist offer (src/waitlist): everything it says is in its payload, written with the offer. */
  buildWaitlistOffer(recipient: string, payload: WaitlistOfferEmail): Mail.Options {
    const rendered = this.templates.render('waitlist-offer', {
      name: payload.name,
      quantity: payload.quantity,
      ticketName: inlineHtmlToText(payload.ticket_name),
      offerToken: payload.offer_token,
      expiresAt: payload.offer_expires_at.replace('T', ' ').replace(/\.\d+Z$/, ''),
      cartUrl: this.context().namespaceUrl('tickets', 'cart'),
    });
    return { to: recipient, subject: rendered.subject, text: rendered.text, html: rendered.html };
  }

  /** The event's start as its own wall clock shows it. */
  private when(event: Event): string {
    if (event.allDay) return event.startLocal.slice(0, 10);
    return `${event.startLocal.slice(0, 16)} (${event.timezone})`;
  }

  /** URLs in a background job: PUBLIC_URL, else this instance's own address. */
  private context(): RequestContext {
    const origin = this.config.publicUrl ?? `http://localhost:${this.config.port}`;
    const { hostname, pathname } = new URL(origin);
    const apiRoot = `${origin}${this.config.apiRoot}/`;
    return {
      origin,
      siteId: `${hostname}${pathname === '/' ? '' : pathname}`,
      apiPrefix: this.urls.apiPrefix,
      siteTimezone: this.urls.siteTimezone,
      namespaceUrl: (name, path) => this.urls.namespaceUrlAt(apiRoot, name, path),
    };
  }

  // ---------------------------------------------------------------- resends

  /**
   * Sends an order's email again, the one its status calls for: its buyer, or a manager of all
   * its events. Others who cannot see it get 404, as for reading it.
   */
  async resendOrder(id: number, viewer: ResendViewer): Promise<QueuedEmail[]> {
    if (!viewer.user && !viewer.cartToken) throw forbidden(true);
    const order = await this.repository.findOrder(id);
    if (!order) throw orderNotFound();
    const events = await this.repository.eventsOfOrder(id);
    if (!managesAllEvents(viewer.user, events) && !isBuyer(order, viewer)) {
      if (managesAnyEvent(viewer.user, events)) throw forbidden(!viewer.user);
      throw orderNotFound();
    }
    const template = ORDER_TEMPLATE[order.status];
    if (!template) throw orderInvalidStatus('resent', order.status, `A ${order.status} order has no email to send again.`);
    return this.queue([this.message(template, order.purchaserEmail, { order_id: order.id })]);
  }

  /** Sends an attendee's ticket again, to the attendee's address: managers of its event, or the buyer. */
  async resendAttendee(id: number, viewer: ResendViewer): Promise<QueuedEmail[]> {
    if (!viewer.user && !viewer.cartToken) throw forbidden(true);
    const attendee = await this.repository.findAttendee(id);
    const order = attendee ? await this.repository.findOrder(attendee.orderId) : null;
    const event = attendee ? await this.repository.eventAuthor(attendee.eventId) : null;
    if (
      !attendee ||
      !order ||
      !(canManageEvent(viewer.user, { id: attendee?.eventId, authorId: event?.authorId ?? null }) || isBuyer(order, viewer))
    ) {
      throw attendeeNotFound('attendee-not-found');
    }
    if (!holdsTicket(attendee)) {
      throw attendeeInvalidStatus(attendee.orderStatus);
    }
    return this.queue([this.message('ticket', attendee.holderEmail, { order_id: order.id, attendee_id: attendee.id })]);
  }

  private async queue(messages: DirectMessage[]): Promise<QueuedEmail[]> {
    await this.tx.run(() => this.outbox.queue(messages));
    return messages.map((message) => ({ template: message.type as EmailTemplate, recipient: message.recipient as string }));
  }
}
