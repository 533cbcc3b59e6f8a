import { ApiError } from '../common/errors/api-error';
import type { SaleProblem } from '../tickets/ticket-sale';

const SALE_PROBLEM_REASONS: Record<SaleProblem, string> = {
  'event-not-selling': 'its event is not published',
  'ticket-not-published': 'it is not published',
  'before-sale': 'its sale has not started',
  'after-sale': 'its sale has ended',
  'not-enough-left': 'not enough units are left',
};

export function ticketDoesNotExist(ticketId: number): ApiError {
  return new ApiError('ticket-does-not-exist', `Ticket ${ticketId} does not exist.`, 404, { ticket_id: ticketId });
}

/** 409 for a ticket that cannot be had in that quantity now, saying why. */
export function ticketCapacityNotAvailable(ticketId: number, problem: SaleProblem = 'not-enough-left'): ApiError {
  return new ApiError(
    'ticket-capacity-not-available',
    `Ticket ${ticketId} cannot be bought in that quantity: ${SALE_PROBLEM_REASONS[problem]}.`,
    409,
    {
      ticket_id: ticketId,
      reason: problem,
    },
  );
}

/**
 * 409 for a line asking more units of one ticket than one order may hold (MAX_TICKETS_PER_ORDER):
 * the original refuses a quantity above min(units left, its per-order limit) with this same code.
 */
export function ticketOverOrderLimit(ticketId: number, max: number): ApiError {
  return new ApiError(
    'ticket-capacity-not-available',
    `Ticket ${ticketId} cannot be bought in that quantity: one order holds at most ${max} units.`,
    409,
    { ticket_id: ticketId, reason: 'over-order-limit', max },
  );
}

/** The original answers this with an empty message. */
export function postHasNoTickets(): ApiError {
  return new ApiError('post-has-no-tickets', '', 403);
}
