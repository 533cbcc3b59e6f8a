import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  In,
  InsertEvent,
  QueryRunner,
  RemoveEvent,
  SoftRemoveEvent,
  TransactionCommitEvent,
  UpdateEvent,
} from 'typeorm';
import type { PostStatus } from '../posts/post-status';
import { Event } from '../events/event.entity';
import { Ticket } from '../tickets/ticket.entity';

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

type WriteEvent = InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown> | SoftRemoveEvent<unknown>;

/**
 * Ticket definitions (price, status, sale window, mode) and their events' status and time zone,
 * which a flash sale's checkouts would otherwise read again for every order of the same ticket.
 */
@Injectable()
export class CheckoutCatalog implements EntitySubscriberInterface {
  private readonly entries = new Map<number, { value: CatalogTicket; expiresAt: number }>();
  /** Transactions that wrote a ticket or event: the catalog is dropped again when they commit. */
  private readonly writers = new WeakSet<QueryRunner>();

  constructor(@InjectDataSource() dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  /** The tickets of `ids` that exist, with their events, read through `manager` when not known. */
  async tickets(manager: EntityManager, ids: number[]): Promise<Map<number, CatalogTicket>> {
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

  afterInsert(event: InsertEvent<unknown>): void {
    this.written(event);
  }

  afterUpdate(event: UpdateEvent<unknown>): void {
    this.written(event);
  }

  afterRemove(event: RemoveEvent<unknown>): void {
    this.written(event);
  }

  afterSoftRemove(event: SoftRemoveEvent<unknown>): void {
    this.written(event);
  }

  /** A checkout may have read the old rows again between the write and its commit. */
  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (!this.writers.has(event.queryRunner) || event.queryRunner.isTransactionActive) return;
    this.writers.delete(event.queryRunner);
    this.entries.clear();
  }

  private written(event: WriteEvent): void {
    if (!CATALOG_TABLES.has(event.metadata.tableName)) return;
    this.entries.clear();
    if (event.queryRunner.isTransactionActive) this.writers.add(event.queryRunner);
  }
}
