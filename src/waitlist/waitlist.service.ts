import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/roles';
import { ticketDoesNotExist } from '../cart/cart-errors';
import { CLOCK, Clock } from '../common/clock';
import { isUniqueViolation } from '../common/database/transactions';
import { forbidden } from '../common/errors/api-error';
import { assertPageInRange, countPages, parsePageRequest } from '../common/pagination/pagination';
import { availableUnits } from '../tickets/capacity';
import { CapacityService } from '../tickets/capacity.service';
import type { Ticket } from '../tickets/ticket.entity';
import type { Event } from '../events/event.entity';
import { JoinWaitlistDto } from './dto/join-waitlist.dto';
import { ListWaitlistQuery } from './dto/list-waitlist.query';
import type {
  WaitlistEntryResponse,
  WaitlistJoinedResponse,
  WaitlistLeftResponse,
  WaitlistOffersResponse,
  WaitlistStatsResponse,
} from './dto/waitlist.response';
import { WaitlistEntry } from './waitlist-entry.entity';
import { alreadyJoined, entryNotCancellable, entryNotFound, ticketNotSoldOut, waitlistDisabled } from './waitlist-errors';
import { linePositions, toEntryResponse, toJoinedResponse, toStatsResponse } from './waitlist.mapper';
import { WaitlistOffersService } from './waitlist-offers.service';
import { WaitlistRepository } from './waitlist.repository';
import { canCancel, emailKey, joinProblem } from './waitlist-rules';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent } from '../access/event-access';
import { canReadTicket } from '../access/ticket-access';

const CANCEL_TOKEN_BYTES = 24;
const TOKEN_PATTERN = /^[0-9a-f]{48}$/;

export interface WaitlistPage {
  entries: WaitlistEntryResponse[];
  total: number;
  totalPages: number;
}

/** Joining and leaving the waitlist (anyone), and what its managers see and do. */
@Injectable()
export class WaitlistService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly entries: WaitlistRepository,
    private readonly offers: WaitlistOffersService,
  ) {}

  /**
   * Anyone joins a sold-out ticket's waitlist (its `waitlist` on, no unit left to buy), once per
   * address while waiting or offered (the unique index decides between concurrent joins).
   */
  async join(body: JoinWaitlistDto, user: AuthenticatedUser | undefined): Promise<WaitlistJoinedResponse> {
    const now = this.clock.now();
    const liveEmail = emailKey(body.email);
    try {
      return await this.tx.run(async () => {
        const found = await this.entries.ticketWithEvent(body.ticket_id);
        if (!found || !canReadTicket(user, found.ticket, found.event)) throw ticketDoesNotExist(body.ticket_id);
        const { ticket } = found;
        const pools = await this.capacity.pools([ticket.eventId]);
        const available = availableUnits(CapacityService.stateOf(ticket, pools.get(ticket.eventId)));
        const problem = joinProblem(ticket.waitlist, available);
        if (problem === 'waitlist-disabled') throw waitlistDisabled(ticket.id);
        if (problem === 'not-sold-out') throw ticketNotSoldOut(ticket.id, available);
        if (await this.entries.isLive(ticket.id, liveEmail)) throw alreadyJoined(ticket.id);
        const entry = await this.entries.insert({
          ticketId: ticket.id,
          eventId: ticket.eventId,
          name: body.name.trim(),
          email: body.email.trim(),
          liveEmail,
          quantity: body.quantity,
          priority: 0,
          status: 'waiting',
          cancelToken: randomBytes(CANCEL_TOKEN_BYTES).toString('hex'),
          offerToken: null,
          offerQuantity: null,
          offeredAt: null,
          offerExpiresAt: null,
          orderId: null,
          createdAt: now,
          updatedAt: now,
        });
        const positions = linePositions(await this.entries.waitingIds([ticket.id]));
        return toJoinedResponse(entry, positions.get(entry.id) ?? 1);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyJoined(body.ticket_id);
      throw error;
    }
  }

  /** Leaves the list by the secret cancel token; an offered entry gives its held units back (passed on). */
  async leave(cancelToken: string): Promise<WaitlistLeftResponse> {
    if (!TOKEN_PATTERN.test(cancelToken)) throw entryNotFound();
    const now = this.clock.now();
    return this.tx.run(async () => {
      const entry = await this.entries.lockByToken('cancelToken', cancelToken);
      if (!entry) throw entryNotFound();
      if (!canCancel(entry.status)) throw entryNotCancellable(entry.status);
      if (!(await this.entries.finish(entry.id, entry.status, 'cancelled', now))) throw entryNotCancellable('changing');
      const released = entry.status === 'offered' ? (entry.offerQuantity ?? 0) : 0;
      await this.offers.giveBack(entry, released);
      return { id: entry.id, status: 'cancelled', released_units: released };
    });
  }

  // ---------------------------------------------------------------- managers

  async list(query: ListWaitlistQuery, user: AuthenticatedUser): Promise<WaitlistPage> {
    if (query.ticket_id !== undefined) await this.managedTicket(query.ticket_id, user);
    const page = parsePageRequest(query, 'tickets');
    const [rows, total] = await this.entries.page(
      { ticketId: query.ticket_id, statuses: query.status, manager: user },
      page.offset,
      page.perPage,
    );
    const totalPages = countPages(total, page.perPage);
    assertPageInRange(page.page, totalPages, { kind: 'invalid' });
    const positions = linePositions(
      await this.entries.waitingIds(rows.filter((row) => row.status === 'waiting').map((row) => row.ticketId)),
    );
    return { entries: rows.map((row) => toEntryResponse(row, positions)), total, totalPages };
  }

  /** Moves an entry in line (higher priority first); 404 for entries of events the caller does not manage. */
  async reorder(id: number, priority: number, user: AuthenticatedUser): Promise<WaitlistEntryResponse> {
    const now = this.clock.now();
    return this.tx.run(async () => {
      const entry = await this.entries.findById(id);
      if (!entry) throw entryNotFound();
      const found = await this.entries.ticketWithEvent(entry.ticketId);
      if (!found || !canManageEvent(user, found.event)) throw entryNotFound();
      await this.entries.setPriority(id, priority, now);
      const updated = (await this.entries.findById(id)) as WaitlistEntry;
      return toEntryResponse(updated, linePositions(await this.entries.waitingIds([entry.ticketId])));
    });
  }

  /** Offers up to `quantity` free units to the next in line now (whether or not offers are automatic). */
  async offerNext(ticketId: number, quantity: number, user: AuthenticatedUser): Promise<WaitlistOffersResponse> {
    const offered = await this.tx.run(async () => {
      const ticket = await this.managedTicket(ticketId, user);
      return this.offers.offerAvailable(ticket, quantity);
    });
    return { offers: offered.map((entry) => toEntryResponse(entry, new Map())) };
  }

  async stats(ticketId: number, user: AuthenticatedUser): Promise<WaitlistStatsResponse> {
    await this.managedTicket(ticketId, user);
    return toStatsResponse(ticketId, await this.entries.stats(ticketId));
  }

  /** The ticket when the caller manages its event; 404 when it does not exist, 403 when someone else's. */
  private async managedTicket(ticketId: number, user: AuthenticatedUser): Promise<Ticket> {
    const found: { ticket: Ticket; event: Event } | null = await this.entries.ticketWithEvent(ticketId);
    if (!found) throw ticketDoesNotExist(ticketId);
    if (!canManageEvent(user, found.event)) throw forbidden(false, 'Only the managers of the ticket’s event can manage its waitlist.');
    return found.ticket;
  }
}
