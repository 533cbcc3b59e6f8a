import type { TicketCapacityDetails } from './dto/ticket.response';
import type { CapacityMode } from './ticket.entity';

/** Which count a quantity moves in: `sold` (completed orders, RSVP going) or `pending` (held by unpaid orders). */
export type CapacityCount = 'sold' | 'pending';

export interface PoolCounts {
  capacity: number;
  sold: number;
  pending: number;
}

/** What availability depends on: the ticket's mode, its own counts and cap, and the event's pool. */
export interface CapacityState {
  mode: CapacityMode;
  /** The ticket's own cap (own: its capacity; capped: its cap, null meaning the pool's size). */
  capacity: number | null;
  sold: number;
  pending: number;
  /** The event's shared pool, for capped and global tickets. */
  pool: PoolCounts | null;
}

/** Every key of a ticket's `capacity_details`, as managers see them (others get the first two). */
export type CapacityDetails = Required<TicketCapacityDetails>;

const UNLIMITED = -1;

function remaining(counts: { capacity: number; sold: number; pending: number }): number {
  return Math.max(counts.capacity - counts.sold - counts.pending, 0);
}

/**
 * The most units a ticket can be sold, or undefined when unlimited: the smaller of what is left of
 * its own cap and of the shared pool.
 */
export function effectiveCapacity(state: CapacityState): number | undefined {
  switch (state.mode) {
    case 'unlimited':
      return undefined;
    case 'own':
      return state.capacity ?? 0;
    case 'global':
      return state.pool?.capacity ?? 0;
    case 'capped': {
      const poolCapacity = state.pool?.capacity ?? 0;
      return state.capacity === null ? poolCapacity : Math.min(state.capacity, poolCapacity);
    }
  }
}

/** Units that can still be bought now: -1 when unlimited. */
export function availableUnits(state: CapacityState): number {
  switch (state.mode) {
    case 'unlimited':
      return UNLIMITED;
    case 'own':
      return remaining({ capacity: state.capacity ?? 0, sold: state.sold, pending: state.pending });
    case 'global':
      return state.pool ? remaining(state.pool) : 0;
    case 'capped': {
      const poolLeft = state.pool ? remaining(state.pool) : 0;
      if (state.capacity === null) return poolLeft;
      return Math.min(remaining({ capacity: state.capacity, sold: state.sold, pending: state.pending }), poolLeft);
    }
  }
}

/**
 * `capacity_details` with the reference's arithmetic: unlimited tickets report max 0, available -1
 * and 100 %; otherwise the percentage is floor(available / capacity * 100), 0 when nothing is left.
 */
export function capacityDetails(state: CapacityState): CapacityDetails {
  const capacity = effectiveCapacity(state);
  const available = availableUnits(state);
  let percentage: number;
  if (capacity === undefined) percentage = 100;
  else if (capacity <= 0 || available <= 0) percentage = 0;
  else percentage = Math.floor((available / capacity) * 100);
  return {
    available_percentage: percentage,
    available,
    max: capacity ?? 0,
    sold: state.sold,
    pending: state.pending,
    global_stock_mode: state.mode === 'unlimited' ? '' : state.mode,
  };
}

/** Whether any unit is left (the original ignores sale dates here; so do we). */
export function isAvailable(state: CapacityState): boolean {
  return capacityDetails(state).available_percentage > 0;
}
