import type { WaitlistEntryResponse, WaitlistJoinedResponse, WaitlistStatsResponse } from './dto/waitlist.response';
import { WAITLIST_STATUSES, WaitlistEntry, WaitlistStatus } from './waitlist-entry.entity';

/**
 * Places in line of waiting entries: `waiting` lists each ticket's waiting entries in line order;
 * the result maps an entry id to its place (1 is next).
 */
export function linePositions(waiting: Array<{ id: number; ticketId: number }>): Map<number, number> {
  const positions = new Map<number, number>();
  const counts = new Map<number, number>();
  for (const { id, ticketId } of waiting) {
    const place = (counts.get(ticketId) ?? 0) + 1;
    counts.set(ticketId, place);
    positions.set(id, place);
  }
  return positions;
}

export function toJoinedResponse(entry: WaitlistEntry, position: number): WaitlistJoinedResponse {
  return {
    id: entry.id,
    position,
    status: 'waiting',
    cancel_token: entry.cancelToken,
    ticket_id: entry.ticketId,
    quantity: entry.quantity,
  };
}

/** An entry for the managers of its event: the offer's token and deadline only while it is offered. */
export function toEntryResponse(entry: WaitlistEntry, positions: ReadonlyMap<number, number>): WaitlistEntryResponse {
  const offered = entry.status === 'offered';
  return {
    id: entry.id,
    ticket_id: entry.ticketId,
    post_id: entry.eventId,
    name: entry.name,
    email: entry.email,
    quantity: entry.quantity,
    priority: entry.priority,
    status: entry.status,
    position: entry.status === 'waiting' ? (positions.get(entry.id) ?? null) : null,
    offer_token: offered ? entry.offerToken : null,
    offer_quantity: entry.offerQuantity,
    offer_expires_at: offered && entry.offerExpiresAt ? entry.offerExpiresAt.toISOString() : null,
    order_id: entry.orderId,
    created_at: entry.createdAt.toISOString(),
  };
}

export function toStatsResponse(
  ticketId: number,
  rows: Array<{ status: WaitlistStatus; entries: number; units: number }>,
): WaitlistStatsResponse {
  const counts = Object.fromEntries(WAITLIST_STATUSES.map((status) => [status, 0])) as Record<WaitlistStatus, number>;
  let waitingUnits = 0;
  let offeredUnits = 0;
  for (const row of rows) {
    counts[row.status] = row.entries;
    if (row.status === 'waiting') waitingUnits = row.units;
    if (row.status === 'offered') offeredUnits = row.units;
  }
  return { ticket_id: ticketId, ...counts, waiting_units: waitingUnits, offered_units: offeredUnits };
}
