import type { WaitlistStatus } from './waitlist-entry.entity';

/** The pure rules of the waitlist: who gets how many units, and what a status allows. */

export const MIN_WAITLIST_QUANTITY = 1;
export const MAX_WAITLIST_QUANTITY = 10;

/** An entry waiting in line, in queue order. */
export interface QueuedEntry {
  id: number;
  quantity: number;
}

export interface PlannedOffer {
  entryId: number;
  quantity: number;
}

/**
 * Which waiting entries get an offer when `available` units are free, in queue order: each entry
 * is offered what it asked for, or what is left when less is (a partial offer), until the units
 * (or `limit`, a manager's manual offer of that many units) run out. Nobody behind an entry is
 * served before it: released units go to the head of the line, never around it.
 */
export function planOffers(available: number, queue: QueuedEntry[], limit?: number): PlannedOffer[] {
  let left = Math.max(0, limit === undefined ? available : Math.min(available, limit));
  const offers: PlannedOffer[] = [];
  for (const entry of queue) {
    if (left <= 0) break;
    const quantity = Math.min(entry.quantity, left);
    if (quantity <= 0) continue;
    offers.push({ entryId: entry.id, quantity });
    left -= quantity;
  }
  return offers;
}

/** Why a join is refused, or null when the ticket takes waitlist entries now. */
export type JoinProblem = 'waitlist-disabled' | 'not-sold-out';

/** One may join only a ticket whose waitlist is on and that has no unit left to buy (-1: unlimited). */
export function joinProblem(waitlistEnabled: boolean, available: number): JoinProblem | null {
  if (!waitlistEnabled) return 'waitlist-disabled';
  if (available !== 0) return 'not-sold-out';
  return null;
}

/** Statuses an entry can still leave by its cancel token; `offered` gives its held units back. */
export function canCancel(status: WaitlistStatus): boolean {
  return status === 'waiting' || status === 'offered';
}

/** Whether an offer can still be redeemed at `now`. */
export function isOfferLive(entry: { status: WaitlistStatus; offerExpiresAt: Date | null }, now: Date): boolean {
  return entry.status === 'offered' && entry.offerExpiresAt !== null && entry.offerExpiresAt.getTime() > now.getTime();
}

/** When an offer made at `now` lapses. */
export function offerExpiry(now: Date, offerHours: number): Date {
  return new Date(now.getTime() + offerHours * 3_600_000);
}

/**
 * What a checkout redeeming an offer of `offered` units for a cart line of `wanted` units does:
 * `covered` units are the offer's (already held), `extra` must be taken from what is left as for
 * any buyer, `unused` are given back (and passed on to the next in line).
 */
export function splitRedeemed(offered: number, wanted: number): { covered: number; extra: number; unused: number } {
  const covered = Math.min(offered, Math.max(wanted, 0));
  return { covered, extra: Math.max(wanted - covered, 0), unused: offered - covered };
}

/** The normalised address the once-per-ticket rule compares. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
