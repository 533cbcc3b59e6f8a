import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { CartItem } from '../cart/cart.entity';
import { CLOCK, Clock } from '../common/clock';
import type { UnitsReleased } from '../common/domain-events/domain-event';
import { OnDomainEvent } from '../common/domain-events/domain-events';
import { invalidParam } from '../common/errors/api-error';
import { appConfig } from '../config/app.config';
import { OutboxService } from '../outbox/outbox.service';
import { availableUnits } from '../tickets/capacity';
import { CapacityCount, CapacityLine, CapacityService } from '../tickets/capacity.service';
import type { Ticket } from '../tickets/ticket.entity';
import { WaitlistEntry } from './waitlist-entry.entity';
import { offerInvalid } from './waitlist-errors';
import { WaitlistRepository } from './waitlist.repository';
import { isOfferLive, offerExpiry, planOffers, splitRedeemed } from './waitlist-rules';

const OFFER_TOKEN_BYTES = 24;
/** Entries read per offer round at most. */
const MAX_OFFERS_PER_ROUND = 1000;
/** Entries read beyond the units to offer, for those another transaction offered meanwhile. */
const QUEUE_SLACK = 20;

/** The capacity a checkout takes: its lines and the count they go into (checkout.service.ts). */
export interface CheckoutCapacity {
  lines: CapacityLine[];
  count: CapacityCount;
}

/** The email payload of a `waitlist-offer` message: everything the email says, rendered when it is sent. */
export interface WaitlistOfferEmail {
  entry_id: number;
  name: string;
  ticket_id: number;
  ticket_name: string;
  quantity: number;
  offer_token: string;
  offer_expires_at: string;
}

/**
 * Offers: units that come back go to the next entries in line and are held for them. An offered
 * entry's units are counted as `pending` in the ticket's capacity counter (and its event's pool),
 * taken with the same conditional UPDATE as a pending order's hold, so no other buyer can take
 * them; they leave that count exactly once, by the one conditional UPDATE that moves the entry out
 * of `offered`: into an order (purchased), or back (expired, cancelled), which passes them on.
 */
@Injectable()
export class WaitlistOffersService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly outbox: OutboxService,
    private readonly entries: WaitlistRepository,
  ) {}

  /**
   * In the transaction that gave units back: tickets with automatic offers and someone waiting
   * offer what is free now, so the units go from the release straight to the next in line.
   */
  @OnDomainEvent('UnitsReleased')
  async offerFreedUnits(events: readonly UnitsReleased[]): Promise<void> {
    const ticketIds = [...new Set(events.flatMap((event) => event.ticketIds))];
    for (const ticket of await this.entries.autoOfferTickets(ticketIds)) await this.offerAvailable(ticket);
  }

  /**
   * Offers the ticket's free units (at most `limit`) to the waiting entries in line order: locks
   * the counter row (and pool), computes what is free, moves each entry waiting → offered with a
   * conditional UPDATE and takes its units as `pending`; the offer emails go into the outbox in
   * the same transaction. Returns the entries offered.
   */
  async offerAvailable(ticket: Ticket, limit?: number): Promise<WaitlistEntry[]> {
    if (ticket.capacityMode === 'unlimited') return [];
    const state = await this.entries.lockCapacityState(ticket);
    if (!state) return [];
    const available = availableUnits(state);
    if (available <= 0) return [];
    let left = limit === undefined ? available : Math.min(available, limit);
    // A few more entries than units: an entry offered meanwhile by another transaction is skipped.
    const queue = await this.entries.waitingQueue(ticket.id, Math.min(left + QUEUE_SLACK, MAX_OFFERS_PER_ROUND));
    const now = this.clock.now();
    const expiresAt = offerExpiry(now, this.config.tickets.waitlistOfferHours);
    const offeredIds: number[] = [];
    for (const candidate of queue) {
      const [planned] = planOffers(left, [candidate]);
      if (!planned) break;
      const token = randomBytes(OFFER_TOKEN_BYTES).toString('hex');
      // Read from this transaction's snapshot: the conditional UPDATE decides on the latest row.
      if (!(await this.entries.markOffered(planned.entryId, { token, quantity: planned.quantity, now, expiresAt }))) continue;
      // The rows are locked and the units counted free: a failed take means the counts moved under the lock.
      if (!(await this.capacity.take(ticket, planned.quantity, 'pending'))) {
        throw new Error(`waitlist offer of ${planned.quantity} unit(s) of ticket ${ticket.id} found them gone under its lock`);
      }
      offeredIds.push(planned.entryId);
      left -= planned.quantity;
    }
    const offered: WaitlistEntry[] = [];
    for (const id of offeredIds) offered.push((await this.entries.findById(id)) as WaitlistEntry);
    await this.outbox.queue(
      offered.map((entry) => ({
        channel: 'email' as const,
        type: 'waitlist-offer',
        recipient: entry.email,
        payload: JSON.stringify(offerEmail(entry, ticket)),
      })),
    );
    return offered;
  }

  /**
   * Expires one lapsed offer and gives its units back, which offers them to the next in line
   * (tickets with automatic offers). False when another instance (or a checkout) got there first.
   */
  async expireOffer(entryId: number, now: Date): Promise<boolean> {
    const entry = await this.entries.findById(entryId);
    if (!entry || entry.status !== 'offered') return false;
    if (!(await this.entries.finish(entryId, 'offered', 'expired', now, { lapsedBy: now }))) return false;
    await this.giveBack(entry, entry.offerQuantity ?? 0);
    return true;
  }

  /** Gives back units held for an entry's offer (expired, declined, or not used by its checkout). */
  async giveBack(entry: Pick<WaitlistEntry, 'ticketId'>, units: number): Promise<void> {
    if (units <= 0) return;
    const ticket = (await this.entries.tickets([entry.ticketId])).get(entry.ticketId);
    // A deleted ticket took its counter along: nothing to give back.
    if (!ticket) return;
    await this.capacity.releaseAll([{ ticket, quantity: units }], 'pending');
  }

  // ---------------------------------------------------------------- cart and checkout

  /**
   * A cart write: the units of its lines that offers already hold, by ticket, which the
   * availability check must not ask for again. `token` is the write's `waitlist_offer` (validated
   * here: live, for a ticket the write lists); lines of waitlist tickets the write changes keep the
   * offer they carry.
   */
  async coveredByOffers(
    cartId: number,
    token: string | null | undefined,
    lines: Array<{ ticket_id: number; quantity: number }>,
    tickets: ReadonlyMap<number, Pick<Ticket, 'waitlist'>>,
  ): Promise<Map<number, number>> {
    const now = this.clock.now();
    const covered = new Map<number, number>();
    const written = lines.filter((line) => line.quantity > 0 && tickets.get(line.ticket_id)?.waitlist);
    if (token) {
      const [entry] = await this.entries.findByOfferTokens([token]);
      if (!entry) throw offerInvalid('no such offer');
      if (!isOfferLive(entry, now)) throw offerInvalid(entry.status === 'offered' ? 'it has expired' : `it is ${entry.status}`);
      if (!lines.some((line) => line.ticket_id === entry.ticketId && line.quantity > 0)) {
        throw invalidParam('waitlist_offer', `the offer is for ticket ${entry.ticketId}: list it in tickets`);
      }
      covered.set(entry.ticketId, entry.offerQuantity ?? 0);
    }
    if (token === null) return covered;
    const stored = await this.entries.cartLineOffers(
      cartId,
      written.filter((line) => !covered.has(line.ticket_id)).map((line) => line.ticket_id),
    );
    for (const entry of await this.entries.findByOfferTokens([...stored.values()])) {
      if (isOfferLive(entry, now) && stored.get(entry.ticketId) === entry.offerToken) covered.set(entry.ticketId, entry.offerQuantity ?? 0);
    }
    return covered;
  }

  /** After the cart write saved its lines: the write's offer onto its ticket's line (null: off every line). */
  async attachToCart(cartId: number, token: string | null | undefined): Promise<void> {
    if (token === undefined) return;
    if (token === null) return this.entries.attachOffer(cartId, null);
    const [entry] = await this.entries.findByOfferTokens([token]);
    if (entry) await this.entries.attachOffer(cartId, { token, ticketId: entry.ticketId });
  }

  /**
   * Checkout of cart lines carrying offers, inside its transaction, after the order row exists:
   * each offer moves offered → purchased (conditional, so once), its held units become the
   * order's — moved to `sold` for an order completed now, left `pending` (the order's hold now)
   * for one awaiting payment — units the line does not use are given back (and passed on), and
   * only what the line wants beyond the offer is left for the caller to take. A lapsed or used
   * offer is a 409 and rolls the checkout back.
   */
  async redeem(orderId: number, items: CartItem[], capacity: CheckoutCapacity | null, now: Date): Promise<CheckoutCapacity | null> {
    const offered = items.filter((item) => item.waitlistOffer);
    if (offered.length === 0) return capacity;
    const lines = capacity ? capacity.lines.map((line) => ({ ...line })) : [];
    const confirmed: CapacityLine[] = [];
    for (const item of offered) {
      const entry = await this.entries.lockByToken('offerToken', item.waitlistOffer as string);
      if (!entry || entry.ticketId !== item.ticketId) throw offerInvalid('no such offer for this ticket');
      if (!isOfferLive(entry, now)) throw offerInvalid(entry.status === 'offered' ? 'it has expired' : `it is ${entry.status}`);
      if (!(await this.entries.finish(entry.id, 'offered', 'purchased', now, { orderId }))) throw offerInvalid('it was just used');
      const line = lines.find((candidate) => candidate.ticket.id === item.ticketId);
      const split = splitRedeemed(entry.offerQuantity ?? 0, line?.quantity ?? 0);
      if (line) {
        line.quantity = split.extra;
        if (capacity?.count === 'sold' && split.covered > 0) confirmed.push({ ticket: line.ticket, quantity: split.covered });
      }
      await this.giveBack(entry, split.unused);
    }
    if (confirmed.length > 0) await this.capacity.confirmAll(confirmed);
    return capacity ? { lines: lines.filter((line) => line.quantity > 0), count: capacity.count } : null;
  }
}

function offerEmail(entry: WaitlistEntry, ticket: Ticket): WaitlistOfferEmail {
  return {
    entry_id: entry.id,
    name: entry.name,
    ticket_id: ticket.id,
    ticket_name: ticket.name,
    quantity: entry.offerQuantity ?? 0,
    offer_token: entry.offerToken ?? '',
    offer_expires_at: (entry.offerExpiresAt ?? new Date(0)).toISOString(),
  };
}
