import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import type { QueueChanged, TicketsSoldOut } from '../common/domain-events/domain-event';
import { OnDomainEvent } from '../common/domain-events/domain-events';
import { availableUnits, PoolCounts } from '../tickets/capacity';
import { CapacityService } from '../tickets/capacity.service';
import type { Ticket } from '../tickets/ticket.entity';
import { LiveQueues } from './live-queues';
import { QueueEntryPlaces } from './queue-entry-places';
import { QueueSnapshots } from './queue-snapshots';
import { QueuesRepository } from './queues.repository';
import { QueuesService } from './queues.service';

/** Whether no guarded ticket has a unit left to buy (unlimited ones never run out; no ticket at all is not a sell-out). */
export function allSoldOut(tickets: readonly Ticket[], pool: PoolCounts | undefined): boolean {
  return tickets.length > 0 && tickets.every((ticket) => availableUnits(CapacityService.stateOf(ticket, pool)) === 0);
}

/**
 * Sold out closes the queue: when a take of capacity sells the last unit of a ticket (TicketsSoldOut,
 * in the checkout's transaction), the open queues guarding it whose guarded tickets are now all sold
 * out close with the reason `sold_out` (their waiting entries see `sold_out`, the webhook
 * `queue.closed` says why), committed with the sale itself. Queues guarding none of the tickets cost
 * no statement: they are found in LiveQueues' memory copy.
 */
@Injectable()
export class QueueSoldOut {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly live: LiveQueues,
    private readonly snapshots: QueueSnapshots,
    private readonly places: QueueEntryPlaces,
    private readonly queues: QueuesRepository,
    private readonly service: QueuesService,
  ) {}

  @OnDomainEvent('TicketsSoldOut')
  async closeSoldOutQueues(events: readonly TicketsSoldOut[]): Promise<void> {
    const lines = events.flatMap((event) => event.tickets.map((ticket) => ({ ticketId: ticket.id, eventId: ticket.eventId })));
    const guarding = (await this.live.guarding(lines)).filter(({ queue }) => !queue.closedAt);
    const now = this.clock.now();
    for (const { queue, ticketIds } of guarding) {
      const { tickets, pool } = await this.queues.guardedTicketCounts(queue.eventId, ticketIds ? [...ticketIds] : null);
      if (!allSoldOut(tickets, pool)) continue;
      await this.service.closeSoldOut(queue, now);
    }
  }

  /** Once a change of a queue committed, the polls' copy of it is read again, and the gate's (and its remembered places) after a closing. */
  @OnDomainEvent('QueueChanged', { phase: 'after-commit' })
  forgetChangedQueues(events: readonly QueueChanged[]): Promise<void> {
    for (const event of events) {
      this.snapshots.forget(event.queue.id);
      if (event.change === 'closed') this.places.forget(event.queue.id);
    }
    if (events.some((event) => event.change === 'closed')) this.live.invalidate();
    return Promise.resolve();
  }
}
