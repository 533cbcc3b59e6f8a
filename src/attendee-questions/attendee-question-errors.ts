import { ApiError } from '../common/errors/api-error';
import type { AnswerProblem } from './attendee-answers';

/** Where an answer failed: a ticket, the attendee's index among that ticket's units (from 0), a field. */
export interface AnswerPlace extends AnswerProblem {
  ticketId: number;
  attendee: number;
}

/**
 * 400 `rest_invalid_param`: `data.params` maps `attendee_information[<ticket id>][<attendee index>][<slug>]`
 * to the reason, and `data.attendee_information` lists the same places as objects.
 */
export function invalidAnswers(places: AnswerPlace[]): ApiError {
  const params: Record<string, string> = {};
  for (const place of places) params[`attendee_information[${place.ticketId}][${place.attendee}][${place.slug}]`] = place.reason;
  return new ApiError('rest_invalid_param', `Invalid attendee information: ${Object.keys(params).join(', ')}`, 400, {
    params,
    attendee_information: places.map((place) => ({
      ticket_id: place.ticketId,
      attendee: place.attendee,
      field: place.slug,
      reason: place.reason,
    })),
  });
}

export function attendeeEditClosed(cutoff: string): ApiError {
  return new ApiError('attendee-edit-closed', `Attendee information can no longer be changed by the buyer (closed at ${cutoff}).`, 409, {
    closed_at: cutoff,
  });
}

export function attendeeEditForbidden(anonymous: boolean): ApiError {
  return new ApiError(
    anonymous ? 'rest_forbidden' : 'attendee-edit-forbidden',
    'Only the buyer of this ticket and the managers of its event may change its attendee information.',
    anonymous ? 401 : 403,
  );
}
