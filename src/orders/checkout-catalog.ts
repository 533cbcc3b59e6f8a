import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { RowsWritten } from '../common/domain-events/domain-event';
import { OnDomainEvent } from '../common/domain-events/domain-events';
import type { PostStatus } from '../posts/post-status';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';
import { TransactionHost } from '../common/database/transaction-host';

/**
 * How long a ticket's definition is reused by checkouts on this instance. Writes through this
 * instance drop it at once; another instance's edit of a price, status or sale window reaches
 * this one's checkouts at most this late. Capacity is never read from here: the conditional
 * UPDATE decides it on the counter row, which also carries the ticket's mode.
 */
export const CHECKOUT_CATALOG_TTL_MS = 1000;
/** Tickets kept at most; a flash sale needs a handful. */
const MAX_ENTRIES = 1000;

/** Tables whose rows the catalog copies. */
const CATALOG_TABLES = new Set(['tickets', 'events']);

/** What a checkout needs of a ticket and its event besides capacity. */
export interface CatalogTicket {
  /** The ticket row without its counts (`sold` and `pending` read 0: checkout never reads them). */
  ticket: Ticket;
  eventStatus: PostStatus;
  eventTimezone: string;
}

/** The ticket columns a checkout and its answer use; the counts are left out. */
const TICKET_COLUMNS = {
  id: true,
  eventId: true,
  authorId: true,
  provider: true,
  status: true,
  name: true,
  description: true,
  priceMinor: true,
  sku: true,
  iac: true,
  showDescription: true,
  menuOrder: true,
  saleStartUtc: true,
  saleEndUtc: true,
  capacityMode: true,
  capacity: true,
  hiddenWithoutCoupon: true,
  attendeeInformationFields: true,
  publishedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

/**
 * Ticket definitions (price, status, sale window, mode) and their events' status and time zone,
 * which a flash sale's checkouts would otherwise read again for every order of the same ticket.
 */
@Injectable()
export class CheckoutCatalog {
  constructor(private readonly tx: TransactionHost) {}

  private readonly entries = new Map<number, { value: CatalogTicket; expiresAt: number }>();
  /** The tickets of `ids` that exist, with their events, read through `manager` when not known. */
  async tickets(ids: number[]): Promise<Map<number, CatalogTicket>> {
    const manager = this.tx.manager;
    // Real time, not the service clock: the TTL bounds how stale a copy is, whatever a test's clock says.
    const now = Date.now();
    const found = new Map<number, CatalogTicket>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const entry = this.entries.get(id);
      if (entry && entry.expiresAt > now) found.set(id, entry.value);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const tickets = await manager.find(Ticket, { select: TICKET_COLUMNS, where: { id: In(missing) } });
    const eventIds = [...new Set(tickets.map((ticket) => ticket.eventId))];
    const events =
      eventIds.length === 0
        ? []
        : await manager.find(Event, { select: { id: true, status: true, timezone: true }, where: { id: In(eventIds) } });
    const eventsById = new Map(events.map((event) => [event.id, event]));
    if (this.entries.size + tickets.length > MAX_ENTRIES) this.entries.clear();
    for (const ticket of tickets) {
      const event = eventsById.get(ticket.eventId);
      const value: CatalogTicket = {
        ticket: Object.assign(ticket, { sold: 0, pending: 0 }),
        eventStatus: event?.status ?? 'trash',
        eventTimezone: event?.timezone ?? 'UTC',
      };
      found.set(ticket.id, value);
      this.entries.set(ticket.id, { value, expiresAt: now + CHECKOUT_CATALOG_TTL_MS });
    }
    return found;
  }

  /** A write of a ticket or its event: what was read before may be stale. */
  @OnDomainEvent('RowsWritten')
  catalogRowsWritten(events: readonly RowsWritten[]): Promise<void> {
    if (events.some(({ row }) => CATALOG_TABLES.has(row.table))) this.entries.clear();
    return Promise.resolve();
  }

  /** And again once committed: a checkout may have read the old rows again between the write and its commit. */
  @OnDomainEvent('RowsWritten', { phase: 'after-commit' })
  catalogRowsCommitted(events: readonly RowsWritten[]): Promise<void> {
    return this.catalogRowsWritten(events);
  }
}
