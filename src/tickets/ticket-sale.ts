import type { PostStatus } from '../posts/post-status';
import { availableUnits, CapacityState } from './capacity';
import type { Ticket } from './ticket.entity';

export type SaleProblem = 'event-not-selling' | 'ticket-not-published' | 'before-sale' | 'after-sale' | 'not-enough-left';

/**
 * Why `quantity` units of a ticket cannot be bought now, or null when they can: its event must be
 * published (trashing or unpublishing an event stops its sales), the ticket published, now inside
 * its sale window (either end may be open), and enough units left.
 */
export function saleProblem(
  ticket: Pick<Ticket, 'status' | 'saleStartUtc' | 'saleEndUtc'>,
  eventStatus: PostStatus,
  capacity: CapacityState,
  quantity: number,
  now: Date,
): SaleProblem | null {
  if (eventStatus !== 'publish') return 'event-not-selling';
  if (ticket.status !== 'publish') return 'ticket-not-published';
  if (ticket.saleStartUtc && now.getTime() < ticket.saleStartUtc.getTime()) return 'before-sale';
  if (ticket.saleEndUtc && now.getTime() > ticket.saleEndUtc.getTime()) return 'after-sale';
  const available = availableUnits(capacity);
  if (available !== -1 && available < quantity) return 'not-enough-left';
  return null;
}
